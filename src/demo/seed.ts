import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { orderInputSchema } from '../modules/orders/index.ts';
import type { AccountKind, OperationContext } from '../platform/catalog/operation.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import type { Services } from '../services.ts';
import { seedDemoConsolidation } from './consolidation.ts';
import { demoContext } from './context.ts';
import { seedDemoDay } from './day.ts';
import { seedDemoFleet } from './fleets.ts';
import { seedDemoLockers } from './lockers.ts';
import { seedDemoPacking } from './packing.ts';
import { seedDemoReservations } from './reservations.ts';
import { seedDemoSms } from './sms.ts';
import { seedDemoThirdParty } from './third-party.ts';

export const DEMO_BUSINESS_CODE = 'demo';
export const DEMO_APP_CODE = 'courier';

/** The fixed demo accounts, one of every kind. */
export const DEMO_ACCOUNTS: ReadonlyArray<{ kind: AccountKind; email: string; name: string }> = [
  { kind: 'platform_admin', email: 'platform@demo.test', name: 'Pat Platform' },
  { kind: 'client_admin', email: 'admin@demo.test', name: 'Ada Admin' },
  { kind: 'employee', email: 'employee@demo.test', name: 'Emil Employee' },
  { kind: 'contractor', email: 'contractor@demo.test', name: 'Cora Contractor' },
  { kind: 'customer', email: 'customer@demo.test', name: 'Cyrus Customer' },
  { kind: 'driver', email: 'driver@demo.test', name: 'Dara Driver' },
];

/** The second demo business, in an alliance with the demo business and sharing its tracking with it. */
export const DEMO_PARTNER_CODE = 'demo-partner';
export const DEMO_PARTNER_ACCOUNTS: ReadonlyArray<{ kind: AccountKind; email: string; name: string }> = [
  { kind: 'client_admin', email: 'admin@partner.demo.test', name: 'Paula Partner' },
  { kind: 'employee', email: 'employee@partner.demo.test', name: 'Pierre Partner' },
];
export const DEMO_ALLIANCE_NAME = 'Paris Delivery Network';

export interface DemoCredentials {
  business: string;
  password: string;
  accounts: Array<{ kind: AccountKind; email: string }>;
  /** The allied second business and its accounts (same password). */
  partner: { business: string; accounts: Array<{ kind: AccountKind; email: string }> };
  /** The demo's published map: its link id, shown here once (only its digest is stored). */
  publicMap: { id: number; link: string };
  /** The demo's locker and its device credential, for the simulated device (shown once). */
  locker: { site_id: number; device_id: number; compartments: number; credential: string };
  /** The forwarding customer's suite and announced parcel, and the tracking webhook's secret (shown once). */
  forwarding: { business_id: number; suite: string; parcel: string; secret: string };
  /** The demo's bookable resource and its public booking page. */
  reservations: { resource_id: number; booking_page: string };
  /** The demo's SMS campaign, sent to a small confirmed list through the log provider. */
  sms: { campaign_id: number };
  /**
   * The connection to the demo marketplace and its push token (shown once). Absent from the
   * credentials of a demo seeded before the marketplace was played inside the service.
   */
  thirdParty?: { connection_id: number; push_token: string };
}

/** Where the demo's credentials are kept, in the data directory. */
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

/**
 * Seeds the demo business with one account of every kind and a day of work around today (see
 * seedDemoDay), in one transaction. Returns null when the demo business already exists (seeding
 * never runs twice).
 */
export async function seedDemo(
  db: Db,
  services: Services,
  password: string,
  clock: Clock = systemClock,
): Promise<DemoCredentials | null> {
  const { accounts } = services;
  return db.transaction().execute(async (trx) => {
    if (await accounts.findBusiness(trx, DEMO_BUSINESS_CODE)) return null;
    const businessId = await accounts.createBusiness(trx, {
      code: DEMO_BUSINESS_CODE,
      name: 'Demo Deliveries',
      timeZone: 'Europe/Paris',
    });
    const contractorCompanyId = await accounts.createContractorCompany(trx, {
      name: 'Swift Couriers',
      businessIds: [businessId],
    });
    const passwordHash = await accounts.hashPassword(password);
    const created = await accounts.createUsers(
      trx,
      DEMO_ACCOUNTS.map((account) => ({
        ...account,
        businessId: account.kind === 'platform_admin' || account.kind === 'contractor' ? null : businessId,
        contractorCompanyId: account.kind === 'contractor' ? contractorCompanyId : null,
      })),
      passwordHash,
    );
    const ids = Object.fromEntries(DEMO_ACCOUNTS.map((account, n) => [account.kind, created[n]!])) as Record<
      AccountKind,
      number
    >;
    await seedDemoDay(trx, services, clock, {
      businessId,
      adminId: ids.client_admin,
      driverId: ids.driver,
      contractorCompanyId,
      contractorId: ids.contractor,
      passwordHash,
    });
    await seedDemoApp(
      services,
      demoContext(trx, clock, { userId: ids.platform_admin, kind: 'platform_admin', businessId: null }),
    );
    await seedDemoPartner(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      passwordHash,
    );
    await seedDemoDatasets(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    await seedDemoWarehouses(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      { staff: [ids.employee, ids.driver] },
    );
    const publicMap = await seedDemoMaps(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    await seedDemoFleet(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      ids.driver,
    );
    await seedDemoChat(services, {
      admin: demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      driver: demoContext(trx, clock, { userId: ids.driver, kind: 'driver', businessId }),
    });
    await seedDemoPacking(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    const locker = await seedDemoLockers(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    const forwarding = await seedDemoConsolidation(services, {
      admin: demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      customer: demoContext(trx, clock, { userId: ids.customer, kind: 'customer', businessId }),
      customerId: ids.customer,
    });
    const reservations = await seedDemoReservations(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    await seedDemoAgent(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    await seedDemoRider(services, {
      admin: demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
      rider: demoContext(trx, clock, { userId: ids.driver, kind: 'driver', businessId }),
    });
    const thirdParty = await seedDemoThirdParty(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    const sms = await seedDemoSms(
      services,
      demoContext(trx, clock, { userId: ids.client_admin, kind: 'client_admin', businessId }),
    );
    return {
      business: DEMO_BUSINESS_CODE,
      password,
      accounts: DEMO_ACCOUNTS.map(({ kind, email }) => ({ kind, email })),
      partner: {
        business: DEMO_PARTNER_CODE,
        accounts: DEMO_PARTNER_ACCOUNTS.map(({ kind, email }) => ({ kind, email })),
      },
      publicMap,
      locker,
      forwarding,
      reservations,
      sms,
      thirdParty,
    };
  });
}

/**
 * A second business, Partner Parcels, with a client admin, an employee and a few parcels on their
 * way, in an alliance the demo business owns: the partner grants the demo business
 * `track_packages`, so the demo staff track the partner's parcels in full; the demo business
 * grants nothing back, so the partner sees only the public view of the demo's numbers.
 */
async function seedDemoPartner(
  services: Services,
  demo: OperationContext,
  passwordHash: string,
): Promise<void> {
  const { accounts, alliances, orders } = services;
  const partnerId = await accounts.createBusiness(demo.db, {
    code: DEMO_PARTNER_CODE,
    name: 'Partner Parcels',
    timeZone: 'Europe/Paris',
  });
  const [adminId] = await accounts.createUsers(
    demo.db,
    DEMO_PARTNER_ACCOUNTS.map((account) => ({ ...account, businessId: partnerId })),
    passwordHash,
  );
  const partner = demoContext(demo.db, demo.clock, {
    userId: adminId!,
    kind: 'client_admin',
    businessId: partnerId,
  });
  const parcels = await orders.intake.create(
    partner,
    ['Montmartre', 'Belleville'].map((name, n) =>
      orderInputSchema.parse({
        order_ref: `PARTNER-${String(n + 1).padStart(3, '0')}`,
        dropoff: {
          name: `Atelier ${name}`,
          phone: `+33 6 98 76 54 ${String(10 + n)}`,
          line1: `${5 + n} Rue des Abbesses`,
          city: 'Paris',
          postal_code: '75018',
          country: 'FR',
          lat: 48.8846,
          lng: 2.3372,
        },
        currency: 'EUR',
        shipping_price: '9.90',
        packages: [{ weight_grams: 1200 }],
      }),
    ),
  );
  await orders.changes.changeStatus(partner, parcels[0]!.id, 'PICKED_UP');
  const { alliance } = await alliances.create(demo, { name: DEMO_ALLIANCE_NAME });
  await alliances.invite(demo, alliance.id, DEMO_PARTNER_CODE);
  await alliances.accept(partner, alliance.id);
  await alliances.setGrants(partner, alliance.id, { track_packages: true });
}

/**
 * The customer app, assigned to the demo business: email sign-in, a wallet and sending on, lockers
 * off (so its shortcut stays hidden). Identity providers need the operator's own client ids.
 */
async function seedDemoApp(services: Services, ctx: OperationContext): Promise<void> {
  await services.apps.saveApp(ctx, {
    code: DEMO_APP_CODE,
    name: 'Demo Courier',
    type: 'customer',
    schema_version: 1,
    enabled: true,
    allowed_roles: ['customer'],
  });
  await services.apps.saveAssignment(ctx, {
    app_code: DEMO_APP_CODE,
    client_code: DEMO_BUSINESS_CODE,
    config: {
      capabilities: {
        'orders.send': true,
        'orders.return': true,
        'wallet.balance': true,
        'locker.pickup': false,
      },
      branding: { primary_color: '#0b5fff', accent_color: '#ff7a00' },
      version_policy: {
        ios: { minimum_version: '1.0.0', latest_version: '1.2.0' },
        android: { minimum_version: '1.0.0', latest_version: '1.2.0' },
      },
      quick_actions: { order: ['send', 'return', 'lockers', 'wallet'], hidden: [] },
    },
  });
}

/**
 * Two warehouses: Paris Bercy (Paris postal codes, beside the depot) with bins and a staging lane
 * per route, and Lyon Gerland. Today's planned packages but one route's, and one bound for Lyon,
 * are received at Paris Bercy, so a newcomer finds a mis-received parcel to transfer, routes to
 * sort and load, and a route's parcels still to receive.
 */
async function seedDemoWarehouses(services: Services, ctx: OperationContext, input: { staff: number[] }) {
  const { warehouses, orders, dispatch } = services;
  const businessId = ctx.business!;
  const today = await dispatch.today(ctx.db, businessId);
  const { warehouse: paris } = await warehouses.sites.createWarehouse(ctx, {
    code: 'PAR-BERCY',
    name: 'Paris Bercy warehouse',
    line1: '7 Quai de Bercy',
    postal_code: '75012',
    city: 'Paris',
    country: 'FR',
    lat: 48.8381,
    lng: 2.3835,
    time_zone: 'Europe/Paris',
    opening_hours: Object.fromEntries(
      (['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const).map((day) => [
        day,
        [{ from: '05:00', to: '21:00' }],
      ]),
    ),
    postal_prefixes: ['75', '92', '93', '94'],
  });
  await warehouses.sites.createWarehouse(ctx, {
    code: 'LYS-GERLAND',
    name: 'Lyon Gerland warehouse',
    line1: '20 Avenue Tony Garnier',
    postal_code: '69007',
    city: 'Lyon',
    country: 'FR',
    lat: 45.7323,
    lng: 4.8318,
    time_zone: 'Europe/Paris',
    postal_prefixes: ['69'],
  });
  await warehouses.sites.createLocation(ctx, paris.id, { code: 'A', kind: 'zone', capacity: 500 });
  for (const n of [1, 2, 3, 4]) {
    await warehouses.sites.createLocation(ctx, paris.id, { code: `A-0${n}`, kind: 'bin', capacity: 40 });
  }
  for (const n of [1, 2, 3, 4, 5, 6]) {
    await warehouses.sites.createLocation(ctx, paris.id, {
      code: `LANE-${n}`,
      kind: 'staging_lane',
      capacity: 80,
    });
  }
  await warehouses.sites.setStaff(ctx, paris.id, input.staff);
  const [lyon] = await orders.intake.create(ctx, [
    orderInputSchema.parse({
      order_ref: 'DEMO-LYON-1',
      scheduled_date: today,
      dropoff: { line1: '12 Rue Mercière', postal_code: '69002', city: 'Lyon', lat: 45.7622, lng: 4.8337 },
    }),
  ]);
  const { orders: planned } = await orders.queries.list(ctx, {
    scheduled_date: today,
    status: ['PLANNED'],
    page: 1,
    per_page: 200,
  });
  // One route's parcels are left to receive, so a newcomer can scan them in too.
  const lastRoute = Math.max(...planned.map((order) => order.route_id ?? 0));
  const received = planned.filter((order) => order.route_id !== lastRoute);
  const numbers = [...received, lyon!].flatMap((order) => order.packages.map((p) => p.tracking_number));
  for (let i = 0; i < numbers.length; i += 100)
    await warehouses.receiving.receive(ctx, paris.id, numbers.slice(i, i + 100));
}

/**
 * Order chat on and set up (customers take part), and a short exchange between dispatch and the
 * driver on one of the driver's orders of today, pushed live once the service runs.
 */
async function seedDemoChat(services: Services, as: { admin: OperationContext; driver: OperationContext }) {
  await services.accounts.setFamily(as.admin, 'order_chat', true);
  await services.chat.saveSettings(as.admin, { customer_chat: true });
  const driverId = as.driver.caller!.userId;
  const [order] = (
    await services.orders.queries.list(as.admin, { driver_id: driverId, page: 1, per_page: 1 })
  ).orders;
  if (!order) return;
  await services.chat.post(as.admin, order.id, {
    text: 'The side gate is open until noon: park in the courtyard.',
  });
  await services.chat.post(as.driver, order.id, { text: 'Thanks, I will be there around 11.' });
}

/**
 * The operations agent on and set up, so the dispatch console shows its panel; its turns answer
 * which AGENT_* variables to set until a model provider is configured.
 */
async function seedDemoAgent(services: Services, ctx: OperationContext) {
  await services.accounts.setFamily(ctx, 'operations_agent', true);
  await services.agent.saveSettings(ctx, {
    instructions: 'Call orders by their reference. Answer in the language of the question.',
  });
}

/** The customer sites the business delivers to, as a dataset of its own: placed, and searchable. */
async function seedDemoDatasets(services: Services, ctx: OperationContext): Promise<void> {
  const { datasets } = services;
  const { group } = await datasets.createGroup(ctx, {
    name: 'Customers',
    description: 'What we know about the places we deliver to',
  });
  const { dataset } = await datasets.create(ctx, {
    name: 'Customer sites',
    description: 'Delivery sites of our business customers, with their docks',
    group_id: group.id,
    fields: [
      { name: 'name', label: 'Site', type: 'text', required: true },
      { name: 'site', label: 'Address', type: 'address', required: true },
      {
        name: 'status',
        label: 'Opening status',
        type: 'enum',
        required: true,
        values: ['open', 'closed', 'seasonal'],
      },
      { name: 'docks', label: 'Dock count', type: 'number', required: false },
      { name: 'forklift', label: 'Forklift on site', type: 'boolean', required: false },
      { name: 'since', label: 'Customer since', type: 'date', required: false },
    ],
  });
  const sites = [
    {
      name: 'Galeries Lafayette goods-in',
      text: '40 Boulevard Haussmann, 75009 Paris',
      lat: 48.8738,
      lng: 2.332,
      status: 'open',
      docks: 4,
      forklift: true,
      since: '2021-03-15',
    },
    {
      name: 'Bercy wine cellar',
      text: '41 Cour Saint-Émilion, 75012 Paris',
      lat: 48.8331,
      lng: 2.3866,
      status: 'open',
      docks: 1,
      forklift: false,
      since: '2023-09-01',
    },
    {
      name: 'Montparnasse tower reception',
      text: '33 Avenue du Maine, 75015 Paris',
      lat: 48.8421,
      lng: 2.3219,
      status: 'open',
      docks: 2,
      forklift: true,
      since: '2020-01-06',
    },
    {
      name: 'Bastille market stall',
      text: 'Boulevard Richard-Lenoir, 75011 Paris',
      lat: 48.8566,
      lng: 2.3701,
      status: 'seasonal',
      docks: 0,
      since: '2024-05-02',
    },
    {
      name: 'Batignolles bakery',
      text: '12 Rue des Batignolles, 75017 Paris',
      lat: 48.8842,
      lng: 2.3198,
      status: 'closed',
      docks: 0,
      forklift: false,
    },
  ];
  for (const { text, lat, lng, ...values } of sites) {
    await datasets.createRecord(ctx, dataset.id, { ...values, site: { text, country: 'FR', lat, lng } });
  }
}

/**
 * A service zone over central Paris and a map of the day (the zone, the business's places, its
 * sites, the open customer sites, today's routes and the drivers), published: what a map page
 * shows at first start.
 */
async function seedDemoMaps(services: Services, ctx: OperationContext) {
  const { maps, datasets } = services;
  const { zone } = await maps.createZone(ctx, {
    name: 'Central Paris',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [2.25, 48.815],
          [2.42, 48.815],
          [2.42, 48.905],
          [2.25, 48.905],
          [2.25, 48.815],
        ],
      ],
    },
  });
  const sites = (await datasets.list(ctx, { page: 1, per_page: 10 })).datasets.find(
    (dataset) => dataset.name === 'Customer sites',
  );
  const { map } = await maps.create(ctx, {
    name: 'Today in Paris',
    style: { labels: true, clustering: false },
    layers: [
      { key: 'zones', kind: 'service_zones', name: 'Service area', zone_ids: [zone.id] },
      { key: 'places', kind: 'points_of_interest', name: 'Our places' },
      { key: 'sites', kind: 'sites', name: 'Warehouses and depots', include: ['warehouses', 'depots'] },
      ...(sites
        ? [
            {
              key: 'customer-sites',
              kind: 'dataset' as const,
              name: 'Open customer sites',
              dataset_id: sites.id,
              where: { status: { eq: 'open' } },
              public_fields: ['status', 'docks'],
            },
          ]
        : []),
      { key: 'routes', kind: 'routes', name: "Today's routes" },
      { key: 'drivers', kind: 'drivers', name: 'Drivers', within_minutes: 120 },
    ],
  });
  const { link } = await maps.publish(ctx, map.id, {});
  return { id: map.id, link: link.id };
}

/** One online rider: the demo driver, granted instant delivery, online near the Louvre (docs/riders.md). */
async function seedDemoRider(services: Services, ctx: { admin: OperationContext; rider: OperationContext }) {
  const { riders } = services;
  await riders.setGrant(ctx.admin, ctx.rider.caller!.userId, true);
  await riders.goOnline(ctx.rider);
  await riders.ping(ctx.rider, [
    { lat: 48.8606, lng: 2.3376, accuracy_meters: 10, at: ctx.rider.clock.now().toISOString() },
  ]);
}

export function demoPassword(configured: string | undefined): string {
  return configured ?? randomBytes(12).toString('base64url');
}

/** Keeps the generated credentials beside the data, readable by the owner only. */
export async function saveDemoCredentials(dataDir: string, credentials: DemoCredentials): Promise<string> {
  const file = path.join(dataDir, DEMO_CREDENTIALS_FILE);
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}
