import type { Caller } from '../../platform/catalog/operation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { toMajor } from '../../platform/money.ts';
import * as repo from './repository.ts';
import type { OrderView } from './schemas.ts';

// What a caller may see of a business's orders, and orders as the service answers them.

/**
 * What bounds a caller's view and planning pool in a business: for a contractor, its company's
 * rules; for everyone, the orders handed exclusively to one contractor. Implemented by the
 * contractors module, which owns rules and assignments.
 */
export interface ContractorPools {
  /** A contractor account's bounds in the business: its company's areas and the assignments. */
  boundsOf(db: Queryable, businessId: number, contractor: Caller): Promise<PoolBounds>;
  /** Who holds each of these orders under an active assignment (order id -> contractor account). */
  holdersOf(db: Queryable, businessId: number, orderIds: number[]): Promise<Map<number, number>>;
}

export interface PoolBounds {
  /** The areas of a contractor's rules; absent for the business's staff (the whole business). */
  areas?: repo.ServiceArea[];
  /** Orders assigned to the caller: in its reach whatever the areas. */
  assignedToCaller: number[];
  /** Orders assigned to another contractor: out of a contractor's view. */
  assignedElsewhere: number[];
}

/** The orders a caller may see and plan in one business. */
export interface OrderScope extends PoolBounds {
  businessId: number;
  /** A customer sees its own orders only. */
  customerUserId?: number;
}

/** The staff's view: every order of the business. */
export function wholeBusiness(businessId: number): OrderScope {
  return { businessId, assignedToCaller: [], assignedElsewhere: [] };
}

/** The filter that bounds what a scope sees: a contractor reaches its areas and its assignments, never others' assignments. */
export function visibleIn(
  scope: OrderScope,
): Pick<repo.OrderFilter, 'reach' | 'excludeIds' | 'customerUserId'> {
  if (scope.customerUserId !== undefined) return { customerUserId: scope.customerUserId };
  if (!scope.areas) return {};
  return {
    reach: { areas: scope.areas, orderIds: scope.assignedToCaller },
    excludeIds: scope.assignedElsewhere,
  };
}

/** The orders of these ids that the scope sees, in the order asked. */
export async function viewsOf(db: Queryable, scope: OrderScope, ids: number[]): Promise<OrderView[]> {
  const rows = await repo.listOrders(
    db,
    scope.businessId,
    { ids, ...visibleIn(scope) },
    { limit: ids.length, offset: 0 },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  return toViews(db, scope.businessId, ordered);
}

/** Stored orders as the service answers them, with their packages (one query for all). */
export async function toViews(
  db: Queryable,
  businessId: number,
  rows: repo.StoredOrder[],
): Promise<OrderView[]> {
  const packages = await repo.packagesOf(
    db,
    businessId,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toView(
      row,
      packages.filter((p) => p.order_id === row.id),
    ),
  );
}

function toView(row: repo.StoredOrder, packages: repo.StoredPackage[]): OrderView {
  const currency = row.currency ?? undefined;
  const major = (minor: number | null) =>
    minor === null || !currency ? undefined : toMajor(minor, currency);
  return {
    id: row.id,
    order_ref: row.order_ref,
    family: row.family,
    type: row.type,
    status: row.status,
    scheduled_date: row.scheduled_date,
    time_window:
      row.window_start && row.window_end
        ? { start: row.window_start.slice(0, 5), end: row.window_end.slice(0, 5) }
        : null,
    pickup: row.pickup,
    dropoff: row.dropoff,
    customer_id: row.customer_user_id,
    note: row.note,
    delivery_instruction: row.delivery_instruction,
    required_skills: row.required_skills,
    self_delivery: row.carrier === null,
    carrier: row.carrier,
    route_id: row.route_id,
    driver_id: row.driver_user_id,
    currency,
    shipping_price: major(row.shipping_price_minor),
    tax: major(row.tax_minor),
    surcharges:
      currency && row.surcharges
        ? row.surcharges.map((s) => ({ code: s.code, amount: toMajor(s.amount_minor, currency) }))
        : undefined,
    price_details:
      currency && row.price_details
        ? row.price_details.map((d) => ({ label: d.label, amount: toMajor(d.amount_minor, currency) }))
        : undefined,
    packages: packages.map(({ order_id: _o, business_id: _b, ...pkg }) => pkg),
    rerouted_from: row.rerouted_from,
    instant: row.instant,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
