import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Config } from './config.ts';
import { registerDiscovery } from './doors/discovery/index.ts';
import { registerGraphqlDoor } from './doors/graphql/index.ts';
import { takeConvertedSchemas } from './doors/json-schema.ts';
import { CONNECTION_HEADERS, registerMcpDoor } from './doors/mcp/index.ts';
import { toolsOf } from './doors/mcp/tools.ts';
import { API_VERSION } from './doors/openapi/document.ts';
import { registerOpenApiDoor } from './doors/openapi/index.ts';
import { dispatchMqttSession } from './doors/pages/dispatch.ts';
import { registerPages } from './doors/pages/index.ts';
import { registerRestDoor } from './doors/rest/index.ts';
import { HISTORY_MAINTENANCE_MS, maintainHistories } from './history.ts';
import {
  accountsOperations,
  driverRegistrationOperations,
  familySwitchOperations,
  moduleSwitchOperations,
  PROFILES,
  SCOPES,
} from './modules/accounts/index.ts';
import { addressesOperations } from './modules/addresses/index.ts';
import { agentOperations } from './modules/agent/index.ts';
import { alliancesOperations } from './modules/alliances/index.ts';
import { analyticsOperations } from './modules/analytics/index.ts';
import { approvalsOperations, proposalSchema } from './modules/approvals/index.ts';
import { appsOperations } from './modules/apps/index.ts';
import { CHAT_PUSH_TOPIC, chatOperations } from './modules/chat/index.ts';
import { contractorsOperations } from './modules/contractors/index.ts';
import { datasetsOperations, PLACING_TOPIC } from './modules/datasets/index.ts';
import { developerOperations } from './modules/developer/index.ts';
import {
  boardOperations,
  dispatchOperations,
  driverOperations,
  planEditOperations,
  suggestionOperations,
} from './modules/dispatch/index.ts';
import { documentsOperations } from './modules/documents/index.ts';
import { calendarOperations, fleetsOperations, routeBoardOperations } from './modules/fleets/index.ts';
import { JobBoard, jobsOperations } from './modules/jobs/index.ts';
import { COMMAND_TOPIC, PICKUP_DEADLINE_TOPIC } from './modules/lockers/index.ts';
import { mapsOperations } from './modules/maps/index.ts';
import { LABEL_IMAGE_EXPIRY_TOPIC, ocrOperations } from './modules/ocr/index.ts';
import { ordersOperations } from './modules/orders/index.ts';
import { loadingOperations, packingOperations } from './modules/packing/index.ts';
import { paymentsOperations } from './modules/payments/index.ts';
import { pricingOperations } from './modules/pricing/index.ts';
import { proofsOperations } from './modules/proofs/index.ts';
import { CONTACT_TOPIC, DEADLINE_TOPIC } from './modules/reservations/index.ts';
import { OFFER_EXPIRY_TOPIC, ridersOperations } from './modules/riders/index.ts';
import { shippingOperations } from './modules/shipping/index.ts';
import { skillsOperations } from './modules/skills/index.ts';
import {
  CAMPAIGN_TICK_TOPIC as SMS_CAMPAIGN_TICK_TOPIC,
  SEND_TOPIC as SMS_SEND_TOPIC,
} from './modules/sms/index.ts';
import { type Capabilities, systemOperations } from './modules/system/index.ts';
import { STATUS_PUSH_TOPIC as THIRD_PARTY_STATUS_TOPIC } from './modules/third-party/index.ts';
import {
  FORMAT_NAMES,
  INCIDENT_REASONS,
  OTEP_VERSION,
  publicTrackingOperations,
  trackingOperations,
} from './modules/tracking/index.ts';
import { warehousesOperations } from './modules/warehouses/index.ts';
import { WEBHOOK_TOPIC, webhooksOperations } from './modules/webhooks/index.ts';
import { Executor } from './platform/catalog/executor.ts';
import { ReadRouting } from './platform/catalog/reads.ts';
import { Catalog } from './platform/catalog/registry.ts';
import { SharedWriters } from './platform/catalog/shared-writers.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { type Db, openDatabase } from './platform/db/database.ts';
import { ReadReplica } from './platform/db/replica.ts';
import { createHttpServer } from './platform/http/server.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import { RequestLimits } from './platform/limits.ts';
import { Metrics } from './platform/metrics.ts';
import { EmbeddedBroker, ExternalBroker, type MqttPublisher, routedPolicy } from './platform/mqtt/broker.ts';
import {
  DRIVER_PUSH_TOPIC,
  enqueueUserPushes,
  personalPushHandler,
  USER_PUSH_TOPIC,
} from './platform/mqtt/driver-push.ts';
import { OutboxLanes } from './platform/outbox/lanes.ts';

import { createServices, type Ports, type Services } from './services.ts';

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
    .register(jobsOperations(services.jobs))
    .register(planEditOperations(services.planEdits))
    .register(suggestionOperations(services.dispatchSuggestions, proposalSchema))
    .register(trackingOperations(services.tracking))
    .register(publicTrackingOperations(services.tracking, services.proofs.links))
    .register(pricingOperations(services.pricing))
    .register(paymentsOperations(services.payments))
    .register(documentsOperations(services.documents))
    .register(proofsOperations(services.proofs))
    .register(shippingOperations(services.shipping))
    .register(ocrOperations(services.ocr, services.orders))
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
    .register(services.lockers.operations())
    .register(services.consolidation.operations())
    .register(services.thirdParty.operations())
    .register(services.reservations.operations())
    .register(services.sms.operations());
}

export interface App {
  http: FastifyInstance;
  services: Services;
  catalog: Catalog;
  executor: Executor;
  /** The address of every GET route of the pages door (pages, their scripts and reads), as registered. */
  pageRoutes: readonly string[];
  /**
   * Drains the outbox in two lanes, live pushes apart from deliveries (webhooks, ...); started by
   * `tms serve`, or by a test that needs it.
   */
  outbox: OutboxLanes;
  /**
   * Where live pushes go: the embedded MQTT broker (started with the background work), or the
   * external broker at MQTT_URL.
   */
  mqtt: MqttPublisher;
  /** Operation calls run in the background (docs/jobs.md): `tms worker` starts only these. */
  jobs: JobBoard;
  /**
   * Starts the background work: the MQTT broker (or the connection to it), the outbox worker
   * (listening on the pool), the hourly pruning and the daily partitions of the history tables.
   */
  startBackground(pool?: pg.Pool): Promise<void>;
  /** Stops it, letting deliveries in hand finish. */
  stopBackground(): Promise<void>;
}

/** The outbox messages of the live lane: pushes over MQTT and locker commands (docs/webhooks.md). */
const LIVE_TOPICS: ReadonlySet<string> = new Set([
  CHAT_PUSH_TOPIC,
  DRIVER_PUSH_TOPIC,
  USER_PUSH_TOPIC,
  COMMAND_TOPIC,
]);

/** How long a stopping instance lets the jobs in hand finish (within `tms serve`'s 15 s shutdown). */
export const JOB_STOP_GRACE_MS = 12_000;

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
  takeConvertedSchemas(catalog.list());
  const metrics = new Metrics();
  const replica = readReplicaOf(config, db, services, metrics);
  // Behind a load balancer, a writer's next read may reach another instance: the mark is shared.
  const sharedWriters =
    replica && config.redisUrl ? new SharedWriters(config.redisUrl, config.redisPrefix) : undefined;
  const http = createHttpServer(config, metrics);
  const jobs = new JobBoard({
    db,
    clock,
    catalog,
    queue: new JobQueue(db, config.jobs, (error) => http.log.error({ err: error }, 'jobs: the queue failed')),
    callerOfToken: (on, tokenId, now) => services.accounts.callerOfTokenId(on, tokenId, now),
    expiryMarginSeconds: config.jobs.expiryMarginSeconds,
    onFault: (error, id) => http.log.error({ err: error, job: id }, 'jobs: a job failed'),
    tell: (on, businessId, userId, news) =>
      enqueueUserPushes(on, clock, [{ businessId, userId, body: news }]),
  });
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
    reads: replica && new ReadRouting(replica, metrics.observeReplicaRead, sharedWriters),
    jobs,
  });
  jobs.connect(executor);
  // A stale load plan is planned again as a job, where its business says so.
  services.loadPlans.queueJobsOn(jobs);
  services.agentTools.connect(catalog, executor);
  services.apiSurface.connect(catalog, executor);
  services.boardFeed.connect(db);
  http.addHook('onClose', () => limits.close());
  if (replica) http.addHook('onClose', () => replica.stop());
  if (sharedWriters) http.addHook('onClose', () => sharedWriters.close());
  http.addHook('onClose', () => services.solvers.close());
  http.addHook('onClose', () => services.labelReader.close());
  await registerRestDoor(http, catalog, executor);
  const pageRoutes = await registerPages(http, {
    catalog,
    executor,
    sessions: services.approvals.sessions.on(db),
    publicBaseUrl: config.publicBaseUrl,
    mapTiles: config.mapTiles,
    // The console's live chat rides the embedded broker; with an external one it reads on changes only.
    livePush: config.mqtt.url ? null : { topicPrefix: config.mqtt.topicPrefix },
  });
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

  const outbox = new OutboxLanes(
    db,
    clock,
    {
      leaseMs: config.outboxLeaseMs,
      concurrency: config.outboxConcurrency,
      perBusiness: config.outboxPerBusiness,
    },
    // Someone waits on a push at once; a webhook receiver may hang for its whole timeout.
    (topic) => (LIVE_TOPICS.has(topic) ? 'live' : 'deliveries'),
  );
  outbox.handle(WEBHOOK_TOPIC, services.webhooks.deliverer(db));
  outbox.handle(PLACING_TOPIC, services.datasets.placer(db));
  // An offer wave's deadline: its open offers expire and the next wave goes out (within the poll, 2 s).
  outbox.handle(OFFER_EXPIRY_TOPIC, services.riders.instant.expiryHandler(db));
  // Status changes of accepted provider orders, back to their provider in order per order.
  outbox.handle(THIRD_PARTY_STATUS_TOPIC, services.thirdParty.statusSync.sender(db));
  const userPolicy = services.chatPush.policy(db);
  const embedded = config.mqtt.url
    ? undefined
    : new EmbeddedBroker(routedPolicy([services.lockers.link.policy(db)], userPolicy), {
        port: config.mqtt.port,
        host: config.host,
        onError: (error, what) => http.log.error({ err: error }, `mqtt: a client's ${what} was not taken`),
        // Every instance's broker on one bus: a push published here reaches clients connected anywhere.
        ...(config.redisUrl && {
          redis: { url: config.redisUrl, prefix: config.mqtt.redisPrefix },
          onBusDown: (error: unknown) =>
            http.log.error({ err: error }, 'mqtt: Redis does not answer; pushes wait in the outbox'),
        }),
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
            void lockerLink
              .receive(db, device.deviceId, payload)
              .catch((error) => http.log.error({ err: error }, "mqtt: a device's message was not taken"));
        },
      },
    });
  outbox.handle(COMMAND_TOPIC, services.lockers.commands.publisher(db, mqtt));
  outbox.handle(PICKUP_DEADLINE_TOPIC, services.lockers.bookings.pickupDeadlineHandler(db));
  outbox.handle(CONTACT_TOPIC, services.reservations.bookings.contactHandler(db));
  outbox.handle(DEADLINE_TOPIC, services.reservations.bookings.deadlineHandler(db));
  outbox.handle(SMS_SEND_TOPIC, services.sms.sendHandler(db));
  outbox.handle(LABEL_IMAGE_EXPIRY_TOPIC, services.ocr.images.expiryHandler(db));
  outbox.handle(SMS_CAMPAIGN_TICK_TOPIC, services.sms.campaignTickHandler(db));
  outbox.handle(CHAT_PUSH_TOPIC, services.chatPush.handler(db, mqtt));
  const topics = services.chatPush.topics;
  outbox.handle(
    DRIVER_PUSH_TOPIC,
    personalPushHandler(
      mqtt,
      (business, driver) => topics.driver(business, driver),
      clock,
      config.mqtt.retryMs,
    ),
  );
  outbox.handle(
    USER_PUSH_TOPIC,
    personalPushHandler(mqtt, (business, user) => topics.user(business, user), clock, config.mqtt.retryMs),
  );
  // MQTT over WebSocket on the HTTP server's port, at its own path.
  // The dispatch console's, at a path of its page: the browser sends the page's session cookie,
  // which authenticates the connection (docs/chat.md), so the page never holds a bearer token.
  const consoleSession = dispatchMqttSession(services.approvals.sessions.on(db));
  http.server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    if (embedded && path === config.mqtt.wsPath) embedded.upgrade(request, socket, head);
    else if (embedded && path === consoleSession.path) {
      const who = async () => {
        const person = await consoleSession.personOf(request);
        return person && { policy: userPolicy, principal: person };
      };
      who().then(
        (principal) => {
          if (principal) embedded.upgradeAs(request, socket, head, who);
          else socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        },
        () => socket.destroy(),
      );
    } else socket.destroy();
  });
  let pruning: NodeJS.Timeout | undefined;
  let overdueCommands: NodeJS.Timeout | undefined;
  let providerPulls: NodeJS.Timeout | undefined;
  let historyMaintenance: NodeJS.Timeout | undefined;
  let historyRun: Promise<void> | undefined;
  return {
    http,
    services,
    catalog,
    executor,
    pageRoutes,
    outbox,
    mqtt,
    jobs,
    startBackground: async (pool) => {
      await mqtt.start();
      if (config.jobs.run) await jobs.start();
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
      // Third-party providers whose pull is due are pulled each second; a down one backs off on its own.
      let pulling = false;
      providerPulls = setInterval(() => {
        if (pulling) return;
        pulling = true;
        void services.thirdParty.intake
          .pullDue(db)
          .catch(() => {})
          .finally(() => (pulling = false));
      }, 1_000);
      providerPulls.unref();
      // The months ahead of the partitioned history tables, at start and daily (docs/history.md).
      const maintainHistory = () => {
        historyRun = maintainHistories(db, clock.now(), (history, outcome) => {
          if ('error' in outcome)
            http.log.error(
              { err: outcome.error },
              `history: the partitions of ${history.table} were not made`,
            );
          for (const { name, moved } of 'created' in outcome ? outcome.created : [])
            http.log.info(
              `history: created ${name}${moved > 0 ? ` with ${moved} rows from the default partition` : ''}`,
            );
        });
      };
      maintainHistory();
      historyMaintenance = setInterval(maintainHistory, HISTORY_MAINTENANCE_MS);
      historyMaintenance.unref();
    },
    stopBackground: async () => {
      // A job in hand gets the time a route building may take; past it, another worker takes it up.
      await jobs.stop(JOB_STOP_GRACE_MS);
      clearInterval(pruning);
      clearInterval(overdueCommands);
      clearInterval(providerPulls);
      clearInterval(historyMaintenance);
      // Its transactions end before the pool closes.
      await historyRun;
      await services.cacheInvalidation.stop();
      await services.boardFeed.stop();
      await outbox.stop();
      await mqtt.stop();
    },
  };
}

/**
 * The read replica at DATABASE_READ_URL, watched from now on (docs/read-replicas.md). Caches keep
 * nothing a read up to its lag bound (and one check) behind could have missed.
 */
function readReplicaOf(
  config: Config,
  db: Db,
  services: Services,
  metrics: Metrics,
): ReadReplica | undefined {
  if (!config.databaseRead) return undefined;
  const handle = openDatabase(config.databaseRead.url, { timeouts: config.databaseTimeouts });
  const replica = new ReadReplica(db, handle, config.databaseRead.maxLagMs);
  services.cacheInvalidation.toleratesStaleReads(replica.maxLagMs + replica.checkIntervalMs);
  metrics.watchReplica(replica);
  replica.start();
  return replica;
}
