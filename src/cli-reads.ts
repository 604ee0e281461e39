/**
 * The operator's read commands (`tms orders list`, `tms routes list`, `tms today`): each calls the
 * catalog's own operations through the executor, in one business, and prints their answers as a
 * table or as the operations' JSON.
 */
import { createCatalog } from './app.ts';
import type { RunningDatabase } from './database.ts';
import { PROFILES } from './modules/accounts/index.ts';
import type { OrderView } from './modules/orders/index.ts';
import { Executor } from './platform/catalog/executor.ts';
import type { Caller } from './platform/catalog/operation.ts';
import type { Catalog } from './platform/catalog/registry.ts';
import { type Clock, formatLocalDateTime } from './platform/clock.ts';
import type { Services } from './services.ts';

/** The profile the commands read under: they can read the business's day, and change nothing. */
const READ_PROFILE = 'ops-readonly';

/**
 * Calls of the catalog's operations from the command line, in one business: as its staff would
 * call them (client_admin) under the read-only profile, so a read command can change nothing. No
 * account stands behind the calls (whoever runs the command holds the database already): the
 * caller has no user of its own, and the calls go through the `cli` door.
 */
export class CommandReads {
  private readonly catalog: Catalog;
  private readonly executor: Executor;
  private readonly caller: Caller;

  private constructor(
    database: RunningDatabase,
    services: Services,
    private readonly clock: Clock,
    readonly business: { id: number; code: string; timeZone: string },
  ) {
    this.catalog = createCatalog(services);
    this.executor = new Executor({
      db: database.db,
      clock,
      authenticate: services.accounts.authenticate,
      requireFeature: services.accounts.requireFeature,
      businessAccess: services.accounts,
      alliedAccess: services.alliances,
      responsePolicies: [services.pricing.policy],
    });
    const scopes = PROFILES[READ_PROFILE];
    this.caller = {
      userId: 0,
      kind: 'client_admin',
      businessId: business.id,
      contractorCompanyId: null,
      tokenId: 0,
      scopes: scopes === 'all' ? 'all' : new Set(scopes),
    };
  }

  /** The reads of the business with this code (BUSINESS_NOT_FOUND otherwise). */
  static async of(database: RunningDatabase, services: Services, clock: Clock, code: string) {
    const found = await services.accounts.businessByCode(database.db, code);
    const timeZone = await services.accounts.timeZoneOf(database.db, found.id);
    return new CommandReads(database, services, clock, { id: found.id, code, timeZone });
  }

  /** The business's date today, on its own clock (YYYY-MM-DD). */
  today(): string {
    return formatLocalDateTime(this.clock.now(), this.business.timeZone).slice(0, 10);
  }

  /** One operation's answer, checked as any door's call is (scopes, input, business). */
  async call<T>(operation: string, input: Record<string, unknown>): Promise<T> {
    const found = this.catalog.get(operation);
    if (!found) throw new Error(`The catalog has no operation ${operation}`);
    return (await this.executor.execute(found, input, {
      bearer: undefined,
      signedIn: this.caller,
      door: 'cli',
      lang: 'en',
      requestId: `cli-${operation}`,
    })) as T;
  }
}

/** Rows under a header, each column as wide as its widest cell (cut at `MAX_CELL`). */
export function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map(cut));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const MAX_CELL = 32;
const cut = (text: string) => (text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text);

const window = (order: OrderView) =>
  order.time_window ? `${order.time_window.start}-${order.time_window.end}` : '';
const place = (order: OrderView) => {
  const address = order.type === 'P' ? order.pickup : (order.dropoff ?? order.pickup);
  return address ? [address.postal_code, address.city ?? address.line1].filter(Boolean).join(' ') : '';
};

/** The orders as a table: what an operator scans a list for. */
export function ordersTable(orders: readonly OrderView[]): string {
  return table(
    ['ID', 'REF', 'STATUS', 'DATE', 'WINDOW', 'WHERE', 'ROUTE', 'DRIVER'],
    orders.map((order) => [
      String(order.id),
      order.order_ref,
      order.status,
      order.scheduled_date ?? '',
      window(order),
      place(order),
      order.route_id === null ? '' : String(order.route_id),
      order.driver_id === null ? '' : String(order.driver_id),
    ]),
  );
}

export interface RouteRow {
  id: number;
  date: string;
  driver: { id: number; name: string } | null;
  status: string;
  locked: boolean;
  departure: string;
  return_time: string;
  distance_meters: number;
  stops: Array<{ status: string }>;
}

/** The routes as a table, each with how far its stops are. */
export function routesTable(routes: readonly RouteRow[]): string {
  return table(
    ['ID', 'DATE', 'DRIVER', 'STATUS', 'TIMES', 'KM', 'STOPS', 'DONE', 'FAILED'],
    routes.map((route) => [
      String(route.id),
      route.date,
      route.driver ? route.driver.name : '(open)',
      route.locked ? `${route.status}, locked` : route.status,
      `${route.departure}-${route.return_time}`,
      (route.distance_meters / 1000).toFixed(1),
      String(route.stops.length),
      String(route.stops.filter((stop) => stop.status === 'done').length),
      String(route.stops.filter((stop) => stop.status === 'failed').length),
    ]),
  );
}

export interface ExceptionRow {
  reason: string;
  order: OrderView;
}

/** The exceptions as a table: why each order needs attention first. */
export function exceptionsTable(exceptions: readonly ExceptionRow[]): string {
  return table(
    ['REASON', 'ID', 'REF', 'STATUS', 'DATE', 'WINDOW', 'WHERE'],
    exceptions.map(({ reason, order }) => [
      reason,
      String(order.id),
      order.order_ref,
      order.status,
      order.scheduled_date ?? '',
      window(order),
      place(order),
    ]),
  );
}

/** `status  count` for the statuses that have any, in the order given. */
export function counts(byStatus: Readonly<Record<string, number>>): string {
  const rows = Object.entries(byStatus)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => [status, String(count)]);
  return table(['STATUS', 'ORDERS'], rows);
}
