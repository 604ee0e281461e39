import type { Config } from './config.ts';
import { CatalogSurface } from './doors/discovery/surface.ts';
import { inputOf, type Tool, toolsOf } from './doors/mcp/tools.ts';
import { API_VERSION } from './doors/openapi/document.ts';
import { AccountsService, DriverRegistrations } from './modules/accounts/index.ts';
import {
  AddressesService,
  BusinessDataGeocoder,
  GeocoderChain,
  type PlaceSource,
  UrlGeocoder,
} from './modules/addresses/index.ts';
import { AgentService, type AgentTools, type ModelProvider, providerOf } from './modules/agent/index.ts';
import { AlliancesService } from './modules/alliances/index.ts';
import { AnalyticsRollup, AnalyticsService } from './modules/analytics/index.ts';
import { ApprovalsService, isProposable, type ToolCalls } from './modules/approvals/index.ts';
import { AppsService, IdTokenVerifier } from './modules/apps/index.ts';
import { ChatPush, ChatService, ChatTopics } from './modules/chat/index.ts';
import { ConsolidationService } from './modules/consolidation/index.ts';
import { AssignmentsService, ContractorsService } from './modules/contractors/index.ts';
import { DatasetsService } from './modules/datasets/index.ts';
import {
  BoardFeed,
  DispatchBoard,
  DispatchService,
  DispatchSuggestions,
  DriverWork,
  LockerStops,
  OpenRoutes,
  PlanEdits,
  roadNetwork,
  routeSearch,
} from './modules/dispatch/index.ts';
import { DocumentsService } from './modules/documents/index.ts';
import { FleetCalendar, FleetShiftWindows, FleetsService, RouteBoard } from './modules/fleets/index.ts';
import { JobsService } from './modules/jobs/index.ts';
import { LockersService } from './modules/lockers/index.ts';
import { MapsService } from './modules/maps/index.ts';
import { type LabelReader, OcrService, serviceLabelReader } from './modules/ocr/index.ts';
import { OrdersService, RecipientPhones } from './modules/orders/index.ts';
import { LoadPlans, PackagingCatalog, PackingPlans } from './modules/packing/index.ts';
import { type PaymentProvider, PaymentsService, TestPaymentProvider } from './modules/payments/index.ts';
import { PricingService } from './modules/pricing/index.ts';
import { ProofsService } from './modules/proofs/index.ts';
import { type ContactSender, LogContactSender, ReservationsService } from './modules/reservations/index.ts';
import { RidersService } from './modules/riders/index.ts';
import { ShippingService } from './modules/shipping/index.ts';
import { SkillsService } from './modules/skills/index.ts';
import { BuiltInSmsProviders, SmsMarketingService, type SmsProviders } from './modules/sms/index.ts';
import { ThirdPartyService } from './modules/third-party/index.ts';
import { TrackingService } from './modules/tracking/index.ts';
import { WarehousesService } from './modules/warehouses/index.ts';
import { WebhooksService } from './modules/webhooks/index.ts';
import { CacheInvalidation } from './platform/cache/invalidation.ts';
import type { Executor } from './platform/catalog/executor.ts';
import type { OperationContext } from './platform/catalog/operation.ts';
import type { Catalog } from './platform/catalog/registry.ts';
import type { Clock } from './platform/clock.ts';
import { DomainEvents } from './platform/events.ts';
import type { Geocoder } from './platform/geocoding.ts';
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
  jobs: JobsService;
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
  /** The one label reader (its threads and queue), closed with the HTTP server. */
  labelReader: LabelReader;
  /** Label reading: what a label says, what of the business it names, and orders drafted from it. */
  ocr: OcrService;
  /** Locker sites and devices, their bookings, the device protocol and the ledger of handlings. */
  lockers: LockersService;
  consolidation: ConsolidationService;
  /** Third-party delivery providers: their orders pulled or pushed in, accepted, and their statuses sent back. */
  thirdParty: ThirdPartyService;
  /** Bookable resources, public booking without an account, waitlists. */
  reservations: ReservationsService;
  /** SMS marketing: subscribers and their consent, segments, campaigns, offer codes. */
  sms: SmsMarketingService;
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
  /** Where booking codes and waitlist offers go (email or SMS); the default writes them to the log. */
  contactSender: ContactSender;
  /** Where SMS marketing messages go; the default is each business's configured provider (docs/sms-marketing.md). */
  smsProviders: SmsProviders;
  /** The threads the solvers run on; the default starts SOLVER_THREADS of its own. */
  solvers: WorkerPool;
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
  // One file storage: proofs of delivery and the label images a business keeps.
  const storage = ports.storage ?? storageOf(config.storage);
  const proofs = new ProofsService(clock, orders, storage, {
    secret: config.proofLinkSecret,
    dataDir: config.dataDir,
    baseUrl: config.publicBaseUrl,
  });
  // A status change naming proof files that are not the order's own is refused before it is told on.
  orders.journal.onStatusChange(proofs);
  // Every status change of a self-delivery order appends its OTEP event, in the same transaction.
  orders.journal.onStatusChange(tracking);
  // The analytics rollup counts every creation and status change in the change's own transaction.
  orders.journal.onStatusChange(new AnalyticsRollup(accounts));
  // One road network for planning and plan edits: a routing engine when OSRM_URL is set, else
  // straight lines at the business's circuity and speed; its matrices are cached per business and day.
  const roads = roadNetwork(config.osrm);
  // Route building reads the drivers' working windows from the fleets' shift calendar.
  const shiftWindows = new FleetShiftWindows();
  // The solvers (routes, packing, loading) run on threads of their own (SOLVER_THREADS); a route
  // build searches on every one of them at once.
  const solvers =
    ports.solvers ?? new WorkerPool(workerEntry('solver-worker'), { threads: config.solverThreads });
  const dispatch = new DispatchService(
    clock,
    accounts,
    orders,
    roads,
    routeSearch(solvers, config.solverThreads),
    shiftWindows,
  );
  // An order that leaves its route (held, cancelled, back to the pool) stops being one of its stops.
  orders.journal.onStatusChange(dispatch.stopsFollowOrders);
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
  const packaging = new PackagingCatalog(clock);
  // A route's load plans hear of every change of its stops, in the change's transaction.
  const loadPlans = new LoadPlans(clock, solvers, dispatch, orders);
  dispatch.onRouteStopsChange(loadPlans);
  const thirdParty = new ThirdPartyService(clock, accounts, orders, {
    outbound: config.thirdParty,
    credentials: { key: config.thirdParty.credentialKey, dataDir: config.dataDir },
    publicBaseUrl: config.publicBaseUrl,
  });
  // A status change of an accepted provider order is queued for its provider in the change's transaction.
  orders.journal.onStatusChange(thirdParty.statusSync);
  // Segments over order history ask the orders module which recipient phones ordered lately.
  const sms = new SmsMarketingService(
    clock,
    ports.smsProviders ?? new BuiltInSmsProviders({ ...config.sms, publicBaseUrl: config.publicBaseUrl }),
    {
      outbound: config.sms,
      credentials: { key: config.thirdParty.credentialKey, dataDir: config.dataDir },
      publicBaseUrl: config.publicBaseUrl,
      subscribesPerAddressPerHour: config.smsSubscribe.perAddressPerHour,
      businesses: {
        idOf: async (db, code) => (await accounts.findBusiness(db, code))?.id,
        timeZoneOf: (db, id) => accounts.timeZoneOf(db, id),
        familyStateOf: (db, id) => accounts.familyState(db, id, 'sms_marketing'),
      },
    },
    new RecipientPhones(),
  );
  // SMS marketing is "migrated" for a business once the business saved its SMS settings.
  accounts.setUpCheck('sms_marketing', sms.settings.isSetUp);
  const apiSurface = new CatalogSurface({
    publicBaseUrl: config.publicBaseUrl,
    budgets: config.graphqlBudgets,
    apiVersion: API_VERSION,
  });
  const shipping = new ShippingService(clock, orders, tracking, documents, events);
  // Reading labels runs on threads of its own; one reader for the whole service, so its queue bounds it.
  // The service's own labels link their QR code to its tracking page: a number there is one of ours.
  const labelReader = serviceLabelReader(config.publicBaseUrl, {
    threads: config.labelReader.threads,
    ...(config.labelReader.queueLimit !== undefined ? { queueLimit: config.labelReader.queueLimit } : {}),
  });
  return {
    accounts,
    driverRegistrations: new DriverRegistrations(clock, config.login),
    contractors,
    assignments: new AssignmentsService(clock, accounts, orders, events),
    orders,
    dispatch,
    skills: new SkillsService(clock, dispatch, orders),
    jobs: new JobsService(),
    planEdits,
    tracking,
    pricing,
    payments: new PaymentsService(clock, orders, pricing, ports.paymentProvider ?? new TestPaymentProvider()),
    documents,
    proofs,
    shipping,
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
    loadPlans,
    solvers,
    labelReader,
    ocr: new OcrService(clock, labelReader, orders, shipping, warehouses, storage),
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
      // A delivery booking sends its order's route stop to the locker (or off the route), and its
      // deposit and collection close it: dispatch's, so lockers name no route.
      new LockerStops(clock, orders, planEdits),
    ),
    consolidation: new ConsolidationService(clock, tracking, warehouses, shipping, { packaging, solvers }),
    reservations: new ReservationsService(
      clock,
      { baseUrl: config.publicBaseUrl, ...config.reservations },
      ports.contactSender ?? new LogContactSender(),
      {
        idOf: async (db, code) => (await accounts.findBusiness(db, code))?.id,
        codeOf: async (db, id) => (await accounts.businessCodesOf(db, [id])).get(id) ?? String(id),
        timeZoneOf: (db, id) => accounts.timeZoneOf(db, id),
      },
    ),
    driverWork: new DriverWork(clock, orders, dispatch),
    cacheInvalidation,
    dispatchBoard,
    dispatchSuggestions,
    boardFeed: new BoardFeed(dispatchBoard),
    riders,
    agent,
    thirdParty,
    sms,
  };
}

/**
 * The user agent server's tools as the approval queue runs its writes (as the approver) and the
 * operations agent runs its reads (as the person it talks with): through the executor, once the
 * catalog and the executor exist.
 */
export class AgentToolCalls implements ToolCalls, AgentTools {
  private connected?: { catalog: Catalog; executor: Executor };

  connect(catalog: Catalog, executor: Executor): void {
    this.connected = { catalog, executor };
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
    return isProposable(this, name) && callable(tools.get(name));
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
    // The user server's tools, built at the first use (toolsOf keeps them for the catalog).
    return { tools: toolsOf(this.connected.catalog, 'user'), executor: this.connected.executor };
  }
}
