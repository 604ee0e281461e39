import type { FastifyInstance } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config.ts';
import { registerOpenApiDoor } from './doors/openapi/index.ts';
import { registerRestDoor } from './doors/rest/index.ts';
import { accountsOperations } from './modules/accounts/operations.ts';
import { AccountsService } from './modules/accounts/service.ts';
import { dispatchOperations } from './modules/dispatch/operations.ts';
import { DispatchService } from './modules/dispatch/service.ts';
import { ordersOperations } from './modules/orders/operations.ts';
import { OrdersService } from './modules/orders/service.ts';
import { systemOperations } from './modules/system/operations.ts';
import { Executor } from './platform/catalog/executor.ts';
import { Catalog } from './platform/catalog/registry.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import type { Db } from './platform/db/database.ts';
import { createHttpServer } from './platform/http/server.ts';
import { Metrics } from './platform/metrics.ts';

export const VERSION = packageJson.version;

/** The module services, wired once; the CLI and the tests reach use cases through these. */
export interface Services {
  accounts: AccountsService;
  orders: OrdersService;
  dispatch: DispatchService;
}

export function createServices(config: Config, clock: Clock): Services {
  const accounts = new AccountsService(clock, { tokenTtlHours: config.tokenTtlHours, login: config.login });
  const orders = new OrdersService(clock, accounts);
  return { accounts, orders, dispatch: new DispatchService(clock, accounts, orders) };
}

export function createCatalog(services: Services): Catalog {
  return new Catalog()
    .register(systemOperations())
    .register(accountsOperations(services.accounts))
    .register(ordersOperations(services.orders, services.accounts))
    .register(dispatchOperations(services.dispatch));
}

export interface App {
  http: FastifyInstance;
  services: Services;
  catalog: Catalog;
  executor: Executor;
}

/** Assembles the service on an open database: modules, their catalog, and the doors over it. */
export async function createApp(config: Config, db: Db, clock: Clock = systemClock): Promise<App> {
  const services = createServices(config, clock);
  const catalog = createCatalog(services);
  const metrics = new Metrics();
  const executor = new Executor({
    db,
    clock,
    authenticate: services.accounts.authenticate,
    observe: metrics.observeOperation,
  });
  const http = createHttpServer(config, metrics);
  registerRestDoor(http, catalog, executor);
  await registerOpenApiDoor(http, catalog, { publicBaseUrl: config.publicBaseUrl });
  return { http, services, catalog, executor };
}
