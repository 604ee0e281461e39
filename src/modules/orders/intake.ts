import { randomInt } from 'node:crypto';
import { validationFailed } from '../../platform/catalog/executor.ts';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { underSavepoint } from '../../platform/db/savepoint.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import { toMinor } from '../../platform/money.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { AddressesService } from '../addresses/index.ts';
import type { OrderJournal } from './journal.ts';
import { type AddressPlaces, locationWarnings, type OrderLocations, type OrderWarning } from './locations.ts';
import * as repack from './repack-repository.ts';
import * as repo from './repository.ts';
import {
  MAX_PACKAGES_PER_ORDER,
  type OrderInput,
  type OrderView,
  type PackageInput,
  RefusedOrder,
} from './schemas.ts';
import { BEFORE_PICKUP, OFF_ROUTE_CHANGES } from './statuses.ts';
import { viewsOf, wholeBusiness } from './views.ts';

/** The saved addresses an order may name instead of writing one out, and the geocoder that places the others. */
export type AddressBook = Pick<AddressesService, 'orderAddress'> & AddressPlaces;

const TRACKING_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const UNIQUE_VIOLATION = '23505';

/** Taking orders in: one by one, all together, or in bulk with a report per order. */
export class OrderIntake {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly journal: OrderJournal,
    private readonly addressBook: AddressBook,
    private readonly locations: OrderLocations,
  ) {}

  /**
   * Creates orders all together: one refusal and none is created. `origin` says who handed them
   * over when it is not the business itself (`third_party:<connection id>`).
   */
  async create(
    ctx: OperationContext,
    inputs: OrderInput[],
    origin: string | null = null,
  ): Promise<OrderView[]> {
    const businessId = businessOf(ctx);
    const ids: number[] = [];
    for (const input of inputs) ids.push(await this.insert(ctx, businessId, input, origin));
    return viewsOf(ctx.db, wholeBusiness(businessId), ids);
  }

  /** Creates each order on its own: a bad order is reported and never sinks the others. */
  async bulkCreate(ctx: OperationContext, orders: Array<OrderInput | RefusedOrder>) {
    const businessId = businessOf(ctx);
    const results: Array<
      | {
          index: number;
          success: true;
          order_id: number;
          order_ref: string;
          tracking_numbers: string[];
          warnings: OrderWarning[];
        }
      | {
          index: number;
          success: false;
          error_code: string;
          message: string;
          details?: Record<string, unknown>;
        }
    > = [];
    for (const [index, order] of orders.entries()) {
      try {
        // A refused order undoes its own writes only; the others go on.
        const view = await underSavepoint(ctx.db, async () => {
          if (order instanceof RefusedOrder) throw validationFailed(order.error);
          const id = await this.insert(ctx, businessId, order, null);
          return (await viewsOf(ctx.db, wholeBusiness(businessId), [id]))[0]!;
        });
        results.push({
          index,
          success: true,
          order_id: view.id,
          order_ref: view.order_ref,
          tracking_numbers: view.packages.map((p) => p.tracking_number),
          warnings: locationWarnings(view, ctx.lang),
        });
      } catch (error) {
        if (!isAppError(error)) throw error;
        const message = errorMessage(error.code, ctx.lang, error.options.params);
        results.push({
          index,
          success: false,
          error_code: error.code,
          message,
          details: error.options.details,
        });
      }
    }
    const created = results.filter((r) => r.success).length;
    return { result: created > 0, created, failed: results.length - created, results };
  }

  /** The saved address an order names for one leg, written out; refused when the caller's books hold none. */
  private async savedAddress(ctx: OperationContext, input: OrderInput, leg: 'pickup' | 'dropoff') {
    const id = input[`${leg}_address_id`];
    if (id === undefined) return null;
    const saved = await this.addressBook.orderAddress(ctx, id, input.customer_id ?? null);
    if (!saved) {
      throw new AppError('SAVED_ADDRESS_NOT_FOUND', {
        params: { id },
        details: { field: `${leg}_address_id` },
      });
    }
    return saved;
  }

  /** The row an order input makes, at `at`: the customer and saved addresses checked, the addresses placed. */
  private async rowOf(
    ctx: OperationContext,
    businessId: number,
    given: OrderInput,
    at: Date,
    origin: string | null,
  ) {
    const input = ctx.caller?.kind === 'customer' ? { ...given, customer_id: ctx.caller.userId } : given;
    if (input.customer_id !== undefined) {
      await this.accounts.requireCustomerOf(ctx.db, input.customer_id, businessId);
    }
    const pickup = await this.savedAddress(ctx, input, 'pickup');
    const dropoff = await this.savedAddress(ctx, input, 'dropoff');
    const family = input.family;
    const type = family === 'local_delivery' ? (input.type ?? 'D') : null;
    const legs = await this.locations.placeNew(ctx, {
      family,
      type,
      carrier: input.carrier ?? null,
      pickup: input.pickup ?? pickup?.address ?? null,
      dropoff: input.dropoff ?? dropoff?.address ?? null,
    });
    return {
      business_id: businessId,
      order_ref: input.order_ref ?? this.generatedRef(),
      family,
      type,
      status: 'NEW_ORDER' as const,
      scheduled_date: input.scheduled_date ?? null,
      window_start: input.time_window?.start ?? null,
      window_end: input.time_window?.end ?? null,
      pickup: legs.pickup,
      dropoff: legs.dropoff,
      customer_user_id: input.customer_id ?? null,
      note: input.note ?? null,
      delivery_instruction: input.delivery_instruction ?? dropoff?.deliveryNotes ?? null,
      required_skills: [...new Set(input.required_skills ?? [])].sort(),
      carrier: input.carrier ?? null,
      rerouted_from: null,
      origin,
      instant: input.instant ?? false,
      ...OFF_ROUTE_CHANGES,
      created_at: at,
      updated_at: at,
      ...pricesInMinor(input),
    };
  }

  private packageRows(businessId: number, orderId: number, input: OrderInput, prefix: string) {
    return (input.packages ?? [{}]).map((pkg) => ({
      business_id: businessId,
      order_id: orderId,
      tracking_number: trackingNumber(prefix),
      weight_grams: pkg.weight_grams ?? null,
      length_mm: pkg.length_mm ?? null,
      width_mm: pkg.width_mm ?? null,
      height_mm: pkg.height_mm ?? null,
      description: pkg.description ?? null,
    }));
  }

  private async insert(
    ctx: OperationContext,
    businessId: number,
    input: OrderInput,
    origin: string | null,
  ): Promise<number> {
    const row = await this.rowOf(ctx, businessId, input, this.clock.now(), origin);
    let id: number;
    try {
      // A savepoint keeps a duplicate reference from aborting the caller's whole transaction.
      id = await underSavepoint(ctx.db, () => repo.insertOrder(ctx.db, row));
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new AppError('ORDER_REF_TAKEN', { params: { order_ref: row.order_ref } });
      }
      throw error;
    }
    const prefix = await this.trackingPrefix(ctx.db, businessId);
    for (const pkg of this.packageRows(businessId, id, input, prefix)) await repo.insertPackage(ctx.db, pkg);
    await this.journal.recordEvent(ctx, businessId, id, 'created', {
      status: { from: null, to: 'NEW_ORDER' },
    });
    await this.journal.notify(ctx, businessId, id, null, 'NEW_ORDER');
    return id;
  }

  /**
   * Creates many orders set-based, each at its own time (a history loaded in one go): the same
   * rows, audit events and word to the listeners as `create`, in a handful of statements. One
   * refusal and none is created; a reference already taken fails the caller's transaction.
   */
  async createMany(
    ctx: OperationContext,
    orders: ReadonlyArray<{ input: OrderInput; at: Date }>,
  ): Promise<Array<{ id: number; packages: Array<{ id: number; tracking_number: string }> }>> {
    if (orders.length === 0) return [];
    const businessId = businessOf(ctx);
    const rows = [];
    for (const { input, at } of orders) rows.push(await this.rowOf(ctx, businessId, input, at, null));
    let ids: Map<string, number>;
    try {
      ids = await repo.insertOrders(ctx.db, rows);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      const taken = /=\(\d+, (.*)\) already exists/.exec((error as { detail?: string }).detail ?? '')?.[1];
      throw new AppError('ORDER_REF_TAKEN', { params: { order_ref: taken ?? '' } });
    }
    const prefix = await this.trackingPrefix(ctx.db, businessId);
    const packages = await repo.insertPackages(
      ctx.db,
      rows.flatMap((row, n) =>
        this.packageRows(businessId, ids.get(row.order_ref)!, orders[n]!.input, prefix),
      ),
    );
    const byOrder = new Map<number, Array<{ id: number; tracking_number: string }>>();
    for (const p of packages) {
      byOrder.set(p.order_id, [
        ...(byOrder.get(p.order_id) ?? []),
        { id: p.id, tracking_number: p.tracking_number },
      ]);
    }
    const created = rows.map((row) => ({ ...row, id: ids.get(row.order_ref)! }));
    await repo.insertEvents(
      ctx.db,
      created.flatMap((order) =>
        this.journal.rows(ctx, businessId, order.created_at, [
          { orderId: order.id, action: 'created', changes: { status: { from: null, to: 'NEW_ORDER' } } },
        ]),
      ),
    );
    await this.journal.notifyChanges(
      ctx,
      created.map((order) => ({
        businessId,
        order,
        packages: byOrder.get(order.id) ?? [],
        from: null,
        to: 'NEW_ORDER' as const,
        at: order.created_at,
      })),
    );
    return created.map((order) => ({ id: order.id, packages: byOrder.get(order.id) ?? [] }));
  }

  /**
   * Replaces an order's packages with packed ones (a packing plan applied): the first keep their
   * tracking numbers with the new sizes and weights, extra ones get new numbers, surplus ones go.
   * Only before pickup, and never for a label-service order, whose labels name its packages.
   */
  async repack(ctx: OperationContext, orderId: number, packages: readonly PackageInput[]) {
    const businessId = businessOf(ctx);
    const order = await repo.findOrder(ctx.db, businessId, orderId, { lock: true });
    if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    if (!BEFORE_PICKUP.includes(order.status) || order.family === 'label_service') {
      throw new AppError('ORDER_PACKAGES_LOCKED', {
        params: { order: order.order_ref, status: order.status },
      });
    }
    if (packages.length > MAX_PACKAGES_PER_ORDER) {
      throw new AppError('ORDER_TOO_MANY_PACKAGES', {
        params: { max: MAX_PACKAGES_PER_ORDER, count: packages.length },
      });
    }
    const existing = await repo.packagesOf(ctx.db, businessId, [orderId]);
    const values = (pkg: PackageInput) => ({
      weight_grams: pkg.weight_grams ?? null,
      length_mm: pkg.length_mm ?? null,
      width_mm: pkg.width_mm ?? null,
      height_mm: pkg.height_mm ?? null,
      description: pkg.description ?? null,
    });
    for (const [index, pkg] of packages.entries()) {
      const kept = existing[index];
      if (kept) await repack.resizePackage(ctx.db, businessId, kept.id, values(pkg));
    }
    await repack.deletePackages(
      ctx.db,
      businessId,
      existing.slice(packages.length).map((pkg) => pkg.id),
    );
    const prefix = await this.trackingPrefix(ctx.db, businessId);
    await repo.insertPackages(
      ctx.db,
      packages.slice(existing.length).map((pkg) => ({
        business_id: businessId,
        order_id: orderId,
        tracking_number: trackingNumber(prefix),
        ...values(pkg),
      })),
    );
    await this.journal.recordEvent(ctx, businessId, orderId, 'packages_replaced', {
      packages: { from: existing.length, to: packages.length },
    });
    return repo.packagesOf(ctx.db, businessId, [orderId]);
  }

  /** ORD-<UTC date>-<6 random characters>; a clash is as unlikely as it is reported (ORDER_REF_TAKEN). */
  private generatedRef(): string {
    const day = this.clock.now().toISOString().slice(0, 10).replaceAll('-', '');
    return `ORD-${day}-${randomCode(6)}`;
  }

  private async trackingPrefix(db: Queryable, businessId: number): Promise<string> {
    return (await repo.trackingPrefix(db, businessId)) ?? 'TMS';
  }
}

function pricesInMinor(input: OrderInput) {
  const currency = input.currency;
  if (!currency) {
    return {
      currency: null,
      shipping_price_minor: null,
      tax_minor: null,
      surcharges: null,
      price_details: null,
    };
  }
  const minor = (amount: number | string) => {
    const value = toMinor(amount, currency);
    if (value === null) throw new AppError('AMOUNT_TOO_PRECISE', { params: { amount, currency } });
    return value;
  };
  return {
    currency,
    shipping_price_minor: input.shipping_price === undefined ? null : minor(input.shipping_price),
    tax_minor: input.tax === undefined ? null : minor(input.tax),
    surcharges: input.surcharges?.map((s) => ({ code: s.code, amount_minor: minor(s.amount) })) ?? null,
    price_details:
      input.price_details?.map((d) => ({ label: d.label, amount_minor: minor(d.amount) })) ?? null,
  };
}

function randomCode(length: number): string {
  return Array.from({ length }, () => TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)]).join('');
}

/** Prefix plus 10 characters of Crockford base32: 50 bits, so collisions are negligible. */
function trackingNumber(prefix: string): string {
  return prefix + randomCode(10);
}
