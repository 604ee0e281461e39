/**
 * The operator's read commands: `tms orders list`, `tms routes list`, `tms today`. They load what
 * they call (src/cli-reads.ts: the catalog, the executor) only when run, as every command does.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { CommandReads, ExceptionRow, RouteRow } from './cli-reads.ts';
import type { Config } from './config.ts';
import type { RunningDatabase } from './database.ts';
import type { OrderView } from './modules/orders/index.ts';
import type { Services } from './services.ts';

type CliReads = typeof import('./cli-reads.ts');

/** What the read commands take from the command line around them (src/cli.ts). */
export interface ReadCommandTools {
  withDatabase<S, T>(
    load: (config: Config) => Promise<S>,
    work: (database: RunningDatabase, loaded: S, config: Config) => Promise<T>,
  ): Promise<T>;
  servicesOf(config: Config): Promise<Services>;
  say(line: string): void;
  positiveInteger(value: string): number;
}

/** A calendar day as YYYY-MM-DD. */
function calendarDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const day = match && new Date(`${value}T00:00:00Z`);
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value)
    throw new InvalidArgumentError('must be a day as YYYY-MM-DD (2025-01-31)');
  return value;
}

export function addReadCommands(
  program: Command,
  { withDatabase, servicesOf, say, positiveInteger }: ReadCommandTools,
): void {
  /** A read command's business and output: what every one of them takes. */
  const readsIn = (command: Command) =>
    command
      .requiredOption('--business <code>', 'code of the business')
      .option('--json', "print the operations' answers as JSON instead of tables");

  /** Runs a read command on the business's data, through the catalog's operations (src/cli-reads.ts). */
  const withReads = (business: string, work: (reads: CommandReads, view: CliReads) => Promise<void>) =>
    withDatabase(
      async (config) => {
        const [services, view, clock] = await Promise.all([
          servicesOf(config),
          import('./cli-reads.ts'),
          import('./platform/clock.ts'),
        ]);
        return { services, view, clock: clock.systemClock };
      },
      async (database, { services, view, clock }) =>
        work(await view.CommandReads.of(database, services, clock, business), view),
    );
  const json = (answer: unknown) => say(JSON.stringify(answer, null, 2));

  readsIn(
    program
      .command('orders')
      .description("The business's orders (docs/orders.md)")
      .command('list')
      .description('List orders, newest first, a page at a time (get_orders)'),
  )
    .option('--status <status...>', 'only orders in these statuses (NEW_ORDER, PLANNED, DELIVERED, ...)')
    .option('--date <YYYY-MM-DD>', 'only orders scheduled that day', calendarDay)
    .option('--ref <order_ref>', 'only the order of this reference')
    .option('--route <id>', 'only orders on this route', positiveInteger)
    .option('--driver <id>', 'only orders planned with this driver', positiveInteger)
    .option('--page <n>', 'which page, from 1', positiveInteger, 1)
    .option('--per-page <n>', 'orders a page holds, at most 200', positiveInteger, 20)
    .action(
      (options: {
        business: string;
        json?: boolean;
        status?: string[];
        date?: string;
        ref?: string;
        route?: number;
        driver?: number;
        page: number;
        perPage: number;
      }) =>
        withReads(options.business, async (reads, view) => {
          const answer = await reads.call<{ total: number; orders: OrderView[] }>('get_orders', {
            status: options.status,
            scheduled_date: options.date,
            order_ref: options.ref,
            route_id: options.route,
            driver_id: options.driver,
            page: options.page,
            per_page: options.perPage,
          });
          if (options.json) return json(answer);
          const first = (options.page - 1) * options.perPage;
          if (answer.orders.length === 0) {
            say(answer.total === 0 ? 'No orders.' : `No orders on page ${options.page} of ${answer.total}.`);
            return;
          }
          say(view.ordersTable(answer.orders));
          const pages = Math.ceil(answer.total / options.perPage);
          say(
            `\nOrders ${first + 1}-${first + answer.orders.length} of ${answer.total}, page ${options.page} of ${pages}` +
              (options.page < pages ? `; --page ${options.page + 1} for the next.` : '.'),
          );
        }),
    );

  readsIn(
    program
      .command('routes')
      .description("The business's routes (docs/dispatch.md)")
      .command('list')
      .description("List a day's routes with their drivers and stops (get_routes)"),
  )
    .option('--date <YYYY-MM-DD>', "the day (default: today, on the business's clock)", calendarDay)
    .option('--driver <id>', "only this driver's routes", positiveInteger)
    .action((options: { business: string; json?: boolean; date?: string; driver?: number }) =>
      withReads(options.business, async (reads, view) => {
        const date = options.date ?? reads.today();
        const answer = await reads.call<{ routes: RouteRow[] }>('get_routes', {
          date,
          driver_id: options.driver,
        });
        if (options.json) return json(answer);
        if (answer.routes.length === 0) return say(`No routes on ${date}.`);
        say(view.routesTable(answer.routes));
        const stops = answer.routes.reduce((sum, route) => sum + route.stops.length, 0);
        say(`\n${answer.routes.length} routes on ${date}, ${stops} stops.`);
      }),
    );

  readsIn(
    program
      .command('today')
      .description(
        "The business's day: today's orders by status, its routes, and the orders needing attention " +
          '(order_snapshot, get_routes, list_exceptions)',
      ),
  )
    .option('--limit <n>', 'exceptions shown, at most 200', positiveInteger, 20)
    .action((options: { business: string; json?: boolean; limit: number }) =>
      withReads(options.business, async (reads, view) => {
        const date = reads.today();
        const [snapshot, { routes }, { exceptions }] = await Promise.all([
          reads.call<{ total: number; by_status: Record<string, number> }>('order_snapshot', { date }),
          reads.call<{ routes: RouteRow[] }>('get_routes', { date }),
          reads.call<{ exceptions: ExceptionRow[] }>('list_exceptions', { per_page: options.limit }),
        ]);
        const { code, timeZone } = reads.business;
        if (options.json) {
          const { total, by_status } = snapshot;
          return json({
            business: code,
            date,
            time_zone: timeZone,
            orders: { total, by_status },
            routes,
            exceptions,
          });
        }
        say(`${code}, ${date} (${timeZone})\n`);
        say(
          snapshot.total === 0
            ? 'No orders today.'
            : `${snapshot.total} orders today\n${view.counts(snapshot.by_status)}`,
        );
        const stops = routes.reduce((sum, route) => sum + route.stops.length, 0);
        say(
          routes.length === 0
            ? '\nNo routes today.'
            : `\n${routes.length} routes, ${stops} stops\n${view.routesTable(routes)}`,
        );
        say(
          exceptions.length === 0
            ? '\nNo orders need attention.'
            : `\n${exceptions.length} orders need attention${exceptions.length === options.limit ? ` (the first ${options.limit}; --limit for more)` : ''}\n${view.exceptionsTable(exceptions)}`,
        );
      }),
    );
}
