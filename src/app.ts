import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Config } from './config.ts';
import { registerDiscovery } from './doors/discovery/index.ts';
import { CatalogSurface } from './doors/discovery/surface.ts';
import { registerGraphqlDoor } from './doors/graphql/index.ts';
import { CONNECTION_HEADERS, registerMcpDoor } from './doors/mcp/index.ts';
import { inputOf, type Tool, toolsOf } from './doors/mcp/tools.ts';
import { API_VERSION } from './doors/openapi/document.ts';
import { registerOpenApiDoor } from './doors/openapi/index.ts';
import { registerApprovalsPage } from './doors/pages/approvals.ts';
import { registerDispatchPage } from './doors/pages/dispatch.ts';
import { registerMapAssets } from './doors/pages/map-assets.ts';
import { registerMapsPages } from './doors/pages/maps.ts';
import { registerOtepGuide } from './doors/pages/otep-guide.ts';
import { registerTrackingPage } from './doors/pages/track.ts';
import { registerRestDoor } from './doors/rest/index.ts';
import {
  AccountsService,
  accountsOperations,
  DriverRegistrations,
  driverRegistrationOperations,
  familySwitchOperations,
  moduleSwitchOperations,
  PROFILES,
  SCOPES,
} from './modules/accounts/index.ts';
import {
  AddressesService,
  addressesOperations,
  BusinessDataGeocoder,
  GeocoderChain,
  type PlaceSource,
  UrlGeocoder,
} from './modules/addresses/index.ts';
import {
  AgentService,
  type AgentTools,
  agentOperations,
  type ModelProvider,
  providerOf,
} from './modules/agent/index.ts';
import { AlliancesService, alliancesOperations } from './modules/alliances/index.ts';
import { AnalyticsRollup, AnalyticsService, analyticsOperations } from './modules/analytics/index.ts';
import {
  ApprovalsService,
  approvalsOperations,
  proposalSchema,
  type ToolCalls,
} from './modules/approvals/index.ts';
import { AppsService, appsOperations, IdTokenVerifier } from './modules/apps/index.ts';
import { CHAT_PUSH_TOPIC, ChatPush, ChatService, ChatTopics, chatOperations } from './modules/chat/index.ts';
import {
  AssignmentsService,
  ContractorsService,
  contractorsOperations,
} from './modules/contractors/index.ts';
import { DatasetsService, datasetsOperations, PLACING_TOPIC } from './modules/datasets/index.ts';
import { developerOperations } from './modules/developer/index.ts';
import {
  BoardFeed,
  boardOperations,
  DispatchBoard,
  DispatchService,
  DispatchSuggestions,
  DriverWork,
  dispatchOperations,
  driverOperations,
  OpenRoutes,
  PlanEdits,
  planEditOperations,
  roadNetwork,
  suggestionOperations,
} from './modules/dispatch/index.ts';
import { DocumentsService, documentsOperations } from './modules/documents/index.ts';
import {
  calendarOperations,
  FleetCalendar,
  FleetShiftWindows,
  FleetsService,
  fleetsOperations,
  RouteBoard,
  routeBoardOperations,
} from './modules/fleets/index.ts';
import { COMMAND_TOPIC, LockersService, PICKUP_DEADLINE_TOPIC } from './modules/lockers/index.ts';
import { MapsService, mapsOperations } from './modules/maps/index.ts';
import { OrdersService, ordersOperations } from './modules/orders/index.ts';
import {
  LoadPlans,
  loadingOperations,
  PackagingCatalog,
  PackingPlans,
  packingOperations,
} from './modules/packing/index.ts';
import {
  type PaymentProvider,
  PaymentsService,
  paymentsOperations,
  TestPaymentProvider,
} from './modules/payments/index.ts';
import { PricingService, pricingOperations } from './modules/pricing/index.ts';
import { ProofsService, proofsOperations } from './modules/proofs/index.ts';
import { OFFER_EXPIRY_TOPIC, RidersService, ridersOperations } from './modules/riders/index.ts';
import { ShippingService, shippingOperations } from './modules/shipping/index.ts';
import { SkillsService, skillsOperations } from './modules/skills/index.ts';
import { type Capabilities, systemOperations } from './modules/system/index.ts';
import {
  FORMAT_NAMES,
  INCIDENT_REASONS,
  OTEP_VERSION,
  publicTrackingOperations,
  TrackingService,
  trackingOperations,
} from './modules/tracking/index.ts';
import { WarehousesService, warehousesOperations } from './modules/warehouses/index.ts';
import { WEBHOOK_TOPIC, WebhooksService, webhooksOperations } from './modules/webhooks/index.ts';
import { CacheInvalidation } from './platform/cache/invalidation.ts';
import { Executor } from './platform/catalog/executor.ts';
import type { OperationContext } from './platform/catalog/operation.ts';
import { Catalog } from './platform/catalog/registry.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import type { Db } from './platform/db/database.ts';
import { DomainEvents } from './platform/events.ts';
import type { Geocoder } from './platform/geocoding.ts';
import { createHttpServer } from './platform/http/server.ts';
import { RequestLimits } from './platform/limits.ts';
import { Metrics } from './platform/metrics.ts';
import { EmbeddedBroker, ExternalBroker, type MqttPublisher, routedPolicy } from './platform/mqtt/broker.ts';
import { DRIVER_PUSH_TOPIC, driverPushHandler } from './platform/mqtt/driver-push.ts';
import { OutboxWorker } from './platform/outbox/outbox.ts';
import { type FileStorage, storageOf } from './platform/storage/index.ts';
import { WorkerPool, workerEntry } from './platform/workers.ts';

/** The module services, wired once; the CLI and the tests reach use cases through these. */
export interface Services {
  accounts: AccountsService;
  driverRegistrations: DriverRegistrations;
  contractors: ContractorsService;
  assignments: AssignmentsService;
  orders: OrdersService;
  dispatch: DispatchService;
  skills: SkillsService;
  planEdits: PlanEdits;
  tracking: TrackingService;
  pricing: PricingService;
  payments: PaymentsService;
  documents: DocumentsService;
  proofs: ProofsService;
  shipping: ShippingService;
  webhooks: WebhooksService;
  apps: AppsService;
  approvals: ApprovalsService;
  addresses: AddressesService;
  alliances: AlliancesService;
  analytics: AnalyticsService;
  datasets: DatasetsService;
  warehouses: WarehousesService;
  maps: MapsService;
  fleets: FleetsService;
  fleetCalendar: FleetCalendar;
  /** Fleets' route boards: drivers claim published routes, queue as standby, withdraw. */
  routeBoard: RouteBoard;
  chat: ChatService;
  /** Order chat's live push: the outbox handler and the embedded broker's rules. */
  chatPush: ChatPush;
  /** The user agent server's tools, as the approval queue runs them (connected by createApp). */
  agentTools: AgentToolCalls;
  /** What integrators learn the API from (connected by createApp). */
  apiSurface: CatalogSurface;
  /** A driver's working day on their own routes. */
  driverWork: DriverWork;
  /** Tells the in-memory caches of every instance what changed (public timelines); listens once started. */
  cacheInvalidation: CacheInvalidation;
  /** The dispatch board's reads. */
  dispatchBoard: DispatchBoard;
  /** Dispatcher suggestions of a day (the operations AI agent family), proposed through the approval queue. */
  dispatchSuggestions: DispatchSuggestions;
  /** Live dispatch boards: hears changes committed on any instance once started. */
  boardFeed: BoardFeed;
  /** Instant riders and the instant orders offered to them. */
  riders: RidersService;
  /** The operations AI agent: conversations over the caller's read tools, writes proposed for approval. */
  agent: AgentService;
  /** The business's carton types, and the packing plans that choose among them. */
  packaging: PackagingCatalog;
  packingPlans: PackingPlans;
  /** Loading spaces and load plans (containers, air ULDs, vans, trucks). */
  loadPlans: LoadPlans;
  /** The threads the packing and loading solvers run on; closed with the HTTP server. */
  solvers: WorkerPool;
  /** Locker sites and devices, their bookings, the device protocol and the ledger of handlings. */
  lockers: LockersService;
}

/** Outside systems the service calls through an interface; the defaults are the built-in ones. */
export interface Ports {
  paymentProvider: PaymentProvider;
  /** Places addresses on the map (dataset records, ...); the default searches the business's own data. */
  geocoder: Geocoder;
  /** Where files (proofs of delivery) go; the default is the configured one (data directory or S3). */
  storage: FileStorage;
  /** The operations agent's model; the default is the configured provider (AGENT_PROVIDER), or none. */
  modelProvider: ModelProvider | undefined;
}

export function createServices(config: Config, clock: Clock, ports: Partial<Ports> = {}): Services {
  const accounts = new AccountsService(clock, { tokenTtlHours: config.tokenTtlHours, login: config.login });
  const contractors = new ContractorsService(clock, accounts);
  // What happens in one module, told to the others (webhooks) inside the same transaction.
  const events = new DomainEvents();
  // Placed dataset records answer the address search and the built-in geocoder, which in turn
  // places the records as they are written: the geocoder reaches the datasets only when it runs.
  const places = (): PlaceSource => datasets;
  const ownData = ports.geocoder ?? new BusinessDataGeocoder(places);
  const publicGeocoder = config.geocoder
    ? new UrlGeocoder({ ...config.geocoder, userAgent: `tms/${API_VERSION} (+${config.publicBaseUrl})` })
    : null;
  // What the business's own data does not know, the public geocoder (if any) places in the background.
  const datasets: DatasetsService = new DatasetsService(clock, { now: ownData, later: publicGeocoder });
  // Where an address is placed on request: the business's own data first, then the public geocoder.
  const geocoder = new GeocoderChain([ownData, ...(publicGeocoder ? [publicGeocoder] : [])]);
  const addresses = new AddressesService(clock, { places, publicGeocoder, geocoder, ownData });
  const orders = new OrdersService(clock, accounts, contractors, events, addresses);
  // Who shares what with whom; tracking and the executor ask it before every cross-business read.
  const alliances = new AlliancesService(clock, accounts);
  const cacheInvalidation = new CacheInvalidation();
  accounts.keepSignIns(cacheInvalidation);
  const tracking = new TrackingService(
    clock,
    orders,
    config.publicBaseUrl,
    events,
    alliances,
    accounts,
    cacheInvalidation,
  );
  const proofs = new ProofsService(clock, orders, ports.storage ?? storageOf(config.storage), {
    secret: config.proofLinkSecret,
    dataDir: config.dataDir,
    baseUrl: config.publicBaseUrl,
  });
  // A status change naming proof files that are not the order's own is refused before it is told on.
  orders.journal.onStatusChange(proofs);
  // Every status change of a self-delivery order appends its OTEP event, in the same transaction.
  orders.journal.onStatusChange(tracking);
  orders.journal.onStatusChange(DispatchService.stopsFollowOrders);
  // The analytics rollup counts every creation and status change in the change's own transaction.
  orders.journal.onStatusChange(new AnalyticsRollup(accounts));
  // One road network for planning and plan edits: a routing engine when OSRM_URL is set, else
  // straight lines at the business's circuity and speed; its matrices are cached per business and day.
  const roads = roadNetwork(config.osrm);
  // Route building reads the drivers' working windows from the fleets' shift calendar.
  const shiftWindows = new FleetShiftWindows();
  const dispatch = new DispatchService(clock, accounts, orders, roads, shiftWindows);
  const warehouses = new WarehousesService(clock, accounts, orders, tracking, dispatch);
  // An order that leaves by any door (out for delivery, delivered, returned) leaves the warehouse inventory too.
  orders.journal.onStatusChange(warehouses);
  const pricing = new PricingService(clock);
  const documents = new DocumentsService(clock, {
    signingKey: config.documentSigningKey,
    dataDir: config.dataDir,
  });
  const webhooks = new WebhooksService(clock, accounts, config.webhooks);
  events.subscribe(webhooks.onEvents);
  // Every order status change tells the live dispatch boards of its business, once it commits.
  events.subscribe(BoardFeed.hearsOrders);
  const dispatchBoard = new DispatchBoard(clock, accounts, orders);
  const riders = new RidersService(clock, accounts, orders, dispatch, events);
  // A new instant order is offered to riders in its creating transaction; an order leaving the
  // pool withdraws its offers, and a rider's order that ends frees the rider.
  events.subscribe(riders.instant.onEvents);
  const agentTools = new AgentToolCalls();
  const chat = new ChatService(clock, accounts, orders, contractors);
  const planEdits = new PlanEdits(clock, accounts, orders, dispatch, tracking, roads, shiftWindows);
  const approvals = new ApprovalsService(clock, accounts, orders, agentTools);
  // A dispatch suggestion becomes a proposal of the approval queue (dispatch does not know approvals).
  const dispatchSuggestions = new DispatchSuggestions(
    clock,
    accounts,
    orders,
    dispatch,
    roads,
    { propose: (ctx, input) => approvals.propose(ctx, input) },
    shiftWindows,
  );
  const fleets = new FleetsService(accounts, clock);
  const routeBoard = new RouteBoard(clock, accounts, fleets, new OpenRoutes(orders, planEdits), events);
  // A fleet deleted gives the routes open on its boards back to the drivers they were built for.
  fleets.onDelete(routeBoard.handBackOpenRoutes);
  // Order chat is "migrated" for a business once the business saved its chat settings.
  accounts.setUpCheck('order_chat', chat.isSetUp);
  // The agent reads through the user agent server's tools and proposes to the approval queue.
  const agent = new AgentService(
    clock,
    accounts,
    'modelProvider' in ports ? ports.modelProvider : providerOf(config.agent.provider),
    config.agent.dailyTurns,
    agentTools,
    {
      propose: (ctx, input, origin) => approvals.propose(ctx, input, origin),
      viewsOf: (ctx, ids) => approvals.viewsOf(ctx, ids),
    },
  );
  // The operations agent is "migrated" for a business once the business saved its agent settings.
  accounts.setUpCheck('operations_agent', agent.isSetUp);
  // The packing and loading solvers run on threads of their own, never on the event loop.
  const solvers = new WorkerPool(workerEntry('solver-worker'), { threads: config.solverThreads });
  const packaging = new PackagingCatalog(clock);
  const apiSurface = new CatalogSurface({
    publicBaseUrl: config.publicBaseUrl,
    budgets: config.graphqlBudgets,
    apiVersion: API_VERSION,
  });
  return {
    accounts,
    driverRegistrations: new DriverRegistrations(clock, config.login),
    contractors,
    assignments: new AssignmentsService(clock, accounts, orders, events),
    orders,
    dispatch,
    skills: new SkillsService(clock, dispatch, orders),
    planEdits,
    tracking,
    pricing,
    payments: new PaymentsService(clock, orders, pricing, ports.paymentProvider ?? new TestPaymentProvider()),
    documents,
    proofs,
    shipping: new ShippingService(clock, orders, tracking, documents, events),
    webhooks,
    apps: new AppsService(clock, accounts, new IdTokenVerifier(config.identity)),
    approvals,
    addresses,
    alliances,
    analytics: new AnalyticsService(clock, accounts, orders, dispatch),
    datasets,
    warehouses,
    // Custom maps draw each layer through the service of the module that owns its data.
    maps: new MapsService(clock, { addresses, datasets, warehouses, dispatch }, config.publicBaseUrl),
    fleets,
    fleetCalendar: new FleetCalendar(clock, accounts, fleets, dispatch),
    routeBoard,
    chat,
    chatPush: new ChatPush(
      chat,
      accounts,
      new ChatTopics(config.mqtt.topicPrefix),
      clock,
      config.mqtt.retryMs,
    ),
    agentTools,
    apiSurface,
    packaging,
    packingPlans: new PackingPlans(clock, packaging, solvers, orders),
    loadPlans: new LoadPlans(clock, solvers, dispatch, orders),
    solvers,
    lockers: new LockersService(
      clock,
      {
        topicPrefix: config.mqtt.topicPrefix,
        offlineAfterMs: config.mqtt.lockerOfflineAfterMs,
        commandTtlMs: config.mqtt.lockerCommandTtlMs,
        retryMs: config.mqtt.retryMs,
      },
      orders,
      tracking,
      (db, id) => accounts.businessExists(db, id),
    ),
    driverWork: new DriverWork(clock, orders, dispatch),
    cacheInvalidation,
    dispatchBoard,
    dispatchSuggestions,
    boardFeed: new BoardFeed(dispatchBoard),
    riders,
    agent,
  };
}

/** Each agent profile and the scopes it grants (['*']: all), as discovery documents show them. */
function profileScopes(): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(PROFILES).map(([name, scopes]) => [name, scopes === 'all' ? ['*'] : [...scopes]]),
  );
}

/** What the service offers agents, read from the catalog when asked. */
function capabilitiesOf(catalog: Catalog): Capabilities {
  return {
    api_version: API_VERSION,
    agent_servers: [
      { server: 'user', path: '/mcp', tools: [...toolsOf(catalog, 'user').keys()].sort() },
      {
        server: 'developer',
        path: '/mcp/developer',
        tools: [...toolsOf(catalog, 'developer').keys()].sort(),
      },
    ],
    profiles: profileScopes(),
    scopes: [...SCOPES],
    tracking_formats: [...FORMAT_NAMES],
    connection_headers: [...CONNECTION_HEADERS],
  };
}

/**
 * The user agent server's tools as the approval queue runs its writes (as the approver) and the
 * operations agent runs its reads (as the person it talks with): through the executor, once the
 * catalog and the executor exist.
 */
export class AgentToolCalls implements ToolCalls, AgentTools {
  private connected?: { tools: Map<string, Tool>; executor: Executor };

  connect(catalog: Catalog, executor: Executor): void {
    this.connected = { tools: toolsOf(catalog, 'user'), executor };
  }

  isWrite(name: string): boolean {
    return this.runtime().tools.get(name)?.operation.kind === 'mutation';
  }

  titleOf(name: string): string {
    return this.toolNamed(name).operation.summary;
  }

  run(
    ctx: OperationContext,
    name: string,
    args: Record<string, unknown>,
    options?: { preview?: boolean; confirmed?: boolean },
  ) {
    const tool = this.toolNamed(name);
    return this.runtime().executor.runWithin(ctx, tool.operation, inputOf(tool, args), options);
  }

  refusal(ctx: OperationContext, name: string) {
    return this.runtime().executor.refusal(this.toolNamed(name).operation, ctx.caller, ctx.door);
  }

  readToolsFor(ctx: OperationContext) {
    const { tools, executor } = this.runtime();
    return [...tools.values()]
      .filter((tool) => tool.operation.kind === 'query' && executor.mayCall(tool.operation, ctx.caller))
      .map((tool) => ({
        name: tool.name,
        description: tool.definition.description,
        input_schema: { ...tool.definition.inputSchema },
      }));
  }

  mayPropose(ctx: OperationContext, name?: string): boolean {
    const { tools, executor } = this.runtime();
    const callable = (tool: Tool | undefined) =>
      tool !== undefined && executor.mayCall(tool.operation, ctx.caller);
    if (!callable(tools.get('propose_write'))) return false;
    if (name === undefined) return true;
    const tool = tools.get(name);
    return tool?.operation.kind === 'mutation' && name !== 'propose_write' && callable(tool);
  }

  runRead(ctx: OperationContext, name: string, args: Record<string, unknown>) {
    const tool = this.toolNamed(name);
    if (tool.operation.kind !== 'query') throw new Error(`${name} is not a read tool`);
    return this.runtime().executor.runWithin(ctx, tool.operation, inputOf(tool, args));
  }

  private toolNamed(name: string): Tool {
    const tool = this.runtime().tools.get(name);
    if (!tool) throw new Error(`No tool ${name} on the user agent server`);
    return tool;
  }

  private runtime() {
    if (!this.connected) throw new Error('The agent tools are not connected to a catalog and executor yet');
    return this.connected;
  }
}

export function createCatalog(services: Services): Catalog {
  const catalog: Catalog = new Catalog();
  return catalog
    .register(systemOperations(() => capabilitiesOf(catalog)))
    .register(accountsOperations(services.accounts))
    .register(moduleSwitchOperations(services.accounts))
    .register(familySwitchOperations(services.accounts))
    .register(driverRegistrationOperations(services.driverRegistrations))
    .register(contractorsOperations(services.contractors, services.assignments))
    .register(ordersOperations(services.orders, services.accounts, { incidentReasons: INCIDENT_REASONS }))
    .register(dispatchOperations(services.dispatch))
    .register(boardOperations(services.dispatchBoard, services.boardFeed))
    .register(skillsOperations(services.skills))
    .register(planEditOperations(services.planEdits))
    .register(suggestionOperations(services.dispatchSuggestions, proposalSchema))
    .register(trackingOperations(services.tracking))
    .register(publicTrackingOperations(services.tracking, services.proofs.links))
    .register(pricingOperations(services.pricing))
    .register(paymentsOperations(services.payments))
    .register(documentsOperations(services.documents))
    .register(proofsOperations(services.proofs))
    .register(shippingOperations(services.shipping))
    .register(webhooksOperations(services.webhooks))
    .register(appsOperations(services.apps))
    .register(approvalsOperations(services.approvals))
    .register(developerOperations(services.apiSurface))
    .register(addressesOperations(services.addresses))
    .register(alliancesOperations(services.alliances))
    .register(analyticsOperations(services.analytics))
    .register(datasetsOperations(services.datasets))
    .register(warehousesOperations(services.warehouses))
    .register(mapsOperations(services.maps))
    .register(fleetsOperations(services.fleets))
    .register(calendarOperations(services.fleetCalendar))
    .register(routeBoardOperations(services.routeBoard))
    .register(chatOperations(services.chat))
    .register(driverOperations(services.driverWork, { incidentReasons: INCIDENT_REASONS }))
    .register(ridersOperations(services.riders))
    .register(agentOperations(services.agent, proposalSchema))
    .register(packingOperations(services.packaging, services.packingPlans))
    .register(loadingOperations(services.loadPlans))
    .register(services.lockers.operations());
}

export interface App {
  http: FastifyInstance;
  services: Services;
  catalog: Catalog;
  executor: Executor;
  /** Drains the outbox (webhook deliveries, ...); started by `tms serve`, or by a test that needs it. */
  outbox: OutboxWorker;
  /**
   * Where live pushes go: the embedded MQTT broker (started with the background work), or the
   * external broker at MQTT_URL.
   */
  mqtt: MqttPublisher;
  /** Starts the background work: the MQTT broker (or the connection to it), the outbox worker (listening on the pool) and the hourly pruning. */
  startBackground(pool?: pg.Pool): Promise<void>;
  /** Stops it, letting deliveries in hand finish. */
  stopBackground(): Promise<void>;
}

/** Assembles the service on an open database: modules, their catalog, and the doors over it. */
export async function createApp(
  config: Config,
  db: Db,
  clock: Clock = systemClock,
  ports: Partial<Ports> = {},
): Promise<App> {
  const services = createServices(config, clock, ports);
  const limits = new RequestLimits(config.limits);
  const catalog = createCatalog(services);
  const metrics = new Metrics();
  const executor = new Executor({
    db,
    clock,
    authenticate: services.accounts.authenticate,
    authenticateProvider: services.tracking.authenticateProvider,
    requireFeature: services.accounts.requireFeature,
    businessAccess: services.accounts,
    alliedAccess: services.alliances,
    responsePolicies: [services.pricing.policy],
    limits,
    observe: metrics.observeOperation,
    cacheInvalidation: services.cacheInvalidation,
  });
  services.agentTools.connect(catalog, executor);
  services.apiSurface.connect(catalog, executor);
  services.boardFeed.connect(db);
  const http = createHttpServer(config, metrics);
  http.addHook('onClose', () => limits.close());
  http.addHook('onClose', () => services.solvers.close());
  await registerRestDoor(http, catalog, executor);
  registerTrackingPage(http, catalog, executor);
  const pageSettings = {
    secureCookies: config.publicBaseUrl.startsWith('https:'),
    mapTiles: config.mapTiles,
  };
  registerApprovalsPage(http, catalog, executor, services.approvals.sessions.on(db), pageSettings);
  registerMapAssets(http);
  registerDispatchPage(http, catalog, executor, services.approvals.sessions.on(db), pageSettings);
  registerMapsPages(http, catalog, executor, services.approvals.sessions.on(db), pageSettings);
  registerOtepGuide(http, config.publicBaseUrl);
  // Before the OpenAPI door, so the GraphQL routes stay out of the OpenAPI paths.
  await registerGraphqlDoor(http, catalog, executor, config.graphqlBudgets);
  registerMcpDoor(http, catalog, executor, {
    publicBaseUrl: config.publicBaseUrl,
    version: API_VERSION,
    clock,
  });
  registerDiscovery(http, catalog, services.apiSurface, {
    publicBaseUrl: config.publicBaseUrl,
    apiVersion: API_VERSION,
    otepVersion: OTEP_VERSION,
    bodyLimitBytes: config.bodyLimitBytes,
    profiles: profileScopes(),
    trackingFormats: FORMAT_NAMES,
    systemModules: () => services.accounts.systemModules(db),
  });
  await registerOpenApiDoor(http, catalog, {
    publicBaseUrl: config.publicBaseUrl,
    contactUrl: config.apiContactUrl,
  });

  const outbox = new OutboxWorker(db, clock, {
    leaseMs: config.outboxLeaseMs,
    concurrency: config.outboxConcurrency,
    perBusiness: config.outboxPerBusiness,
  });
  outbox.handle(WEBHOOK_TOPIC, services.webhooks.deliverer(db));
  outbox.handle(PLACING_TOPIC, services.datasets.placer(db));
  // An offer wave's deadline: its open offers expire and the next wave goes out (within the poll, 2 s).
  outbox.handle(OFFER_EXPIRY_TOPIC, services.riders.instant.expiryHandler(db));
  const embedded = config.mqtt.url
    ? undefined
    : new EmbeddedBroker(routedPolicy([services.lockers.link.policy(db)], services.chatPush.policy(db)), {
        port: config.mqtt.port,
        host: config.host,
      });
  const lockerLink = services.lockers.link;
  // On an external broker the devices' messages come through a shared subscription (one instance each).
  const mqtt: MqttPublisher =
    embedded ??
    new ExternalBroker(config.mqtt.url!, {
      timeoutMs: 5_000,
      listen: {
        topic: lockerLink.topics.sharedUp(),
        receive: (topic, payload) => {
          const device = lockerLink.topics.parse(topic);
          if (device?.direction === 'up')
            void lockerLink.receive(db, device.deviceId, payload).catch(() => {});
        },
      },
    });
  outbox.handle(COMMAND_TOPIC, services.lockers.commands.publisher(db, mqtt));
  outbox.handle(PICKUP_DEADLINE_TOPIC, services.lockers.bookings.pickupDeadlineHandler(db));
  outbox.handle(CHAT_PUSH_TOPIC, services.chatPush.handler(db, mqtt));
  const topics = services.chatPush.topics;
  outbox.handle(
    DRIVER_PUSH_TOPIC,
    driverPushHandler(
      mqtt,
      (business, driver) => topics.driver(business, driver),
      clock,
      config.mqtt.retryMs,
    ),
  );
  // MQTT over WebSocket on the HTTP server's port, at its own path.
  http.server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    if (embedded && path === config.mqtt.wsPath) embedded.upgrade(request, socket, head);
    else socket.destroy();
  });
  let pruning: NodeJS.Timeout | undefined;
  let overdueCommands: NodeJS.Timeout | undefined;
  return {
    http,
    services,
    catalog,
    executor,
    outbox,
    mqtt,
    startBackground: async (pool) => {
      await mqtt.start();
      await outbox.start(pool);
      // Public timelines are kept in memory only while this instance hears every change.
      if (pool) await services.cacheInvalidation.start(pool);
      // Live dispatch boards hear what every instance commits.
      if (pool) await services.boardFeed.start(pool);
      // Delivery logs past their retention, drivers' writes past any replay and the approvals
      // page's ended sessions, hourly.
      const prune = () => {
        void services.webhooks.pruneLogs(db).catch(() => {});
        void services.driverWork.pruneWrites(db).catch(() => {});
        void services.approvals.sessions.prune(db).catch(() => {});
      };
      prune();
      pruning = setInterval(prune, 3_600_000);
      pruning.unref();
      // Locker commands not answered by their deadline fail within a second of it.
      overdueCommands = setInterval(
        () => void services.lockers.bookings.failOverdueCommands(db).catch(() => {}),
        1_000,
      );
      overdueCommands.unref();
    },
    stopBackground: async () => {
      clearInterval(pruning);
      clearInterval(overdueCommands);
      await services.cacheInvalidation.stop();
      await services.boardFeed.stop();
      await outbox.stop();
      await mqtt.stop();
    },
  };
}
