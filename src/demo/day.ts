import { loadConfig } from '../config.ts';
import { type OrderInput, orderInputSchema } from '../modules/orders/index.ts';
import { seedDemoCarriers } from '../modules/shipping/index.ts';
import type { OperationContext } from '../platform/catalog/operation.ts';
import { type Clock, ManualClock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import { createServices, type Services } from '../services.ts';
import { DEMO_SEARCH_MS, demoContext, localTime, shiftDate } from './context.ts';
import { type HistoryServices, seedHistory } from './history.ts';

/** Where the demo business works from: a depot in the east of Paris. */
const DEPOT = { name: 'Paris Bercy', lat: 48.8386, lng: 2.3822 };

/** Paris arrondissements the demo orders go to: postal code and a point inside it. */
const ARRONDISSEMENTS: ReadonlyArray<{ postal: string; lat: number; lng: number; street: string }> = [
  { postal: '75001', lat: 48.8625, lng: 2.3363, street: 'Rue de Rivoli' },
  { postal: '75003', lat: 48.8628, lng: 2.3597, street: 'Rue de Bretagne' },
  { postal: '75005', lat: 48.8445, lng: 2.3471, street: 'Rue Mouffetard' },
  { postal: '75007', lat: 48.8566, lng: 2.3126, street: 'Rue Cler' },
  { postal: '75009', lat: 48.8769, lng: 2.3375, street: 'Rue des Martyrs' },
  { postal: '75011', lat: 48.8591, lng: 2.3795, street: 'Rue Oberkampf' },
  { postal: '75012', lat: 48.8412, lng: 2.3876, street: 'Avenue Daumesnil' },
  { postal: '75014', lat: 48.8331, lng: 2.3264, street: "Rue d'Alésia" },
  { postal: '75015', lat: 48.8421, lng: 2.2988, street: 'Rue du Commerce' },
  { postal: '75017', lat: 48.8835, lng: 2.3219, street: 'Rue de Lévis' },
  { postal: '75018', lat: 48.8925, lng: 2.3444, street: 'Rue Lepic' },
  { postal: '75020', lat: 48.8638, lng: 2.3985, street: 'Rue des Pyrénées' },
];

const RECIPIENTS = [
  'Léa Martin',
  'Hugo Bernard',
  'Chloé Petit',
  'Louis Durand',
  'Inès Moreau',
  'Nathan Roux',
];

/** The business's own drivers beside the demo driver account, and one of the contractor's. */
const EXTRA_DRIVERS = [
  { email: 'driver2@demo.test', name: 'Noé Navette', contractor: false },
  { email: 'driver3@demo.test', name: 'Zoé Camion', contractor: false },
  { email: 'swift-rider@demo.test', name: 'Sam Swift', contractor: true },
];

export interface DemoDayInput {
  businessId: number;
  adminId: number;
  driverId: number;
  contractorCompanyId: number;
  /** The contractor company's dispatcher account. */
  contractorId: number;
  /** The demo accounts' one password, hashed once (AccountsService.hashPassword). */
  passwordHash: string;
}

/**
 * A living day for the demo business: a depot, four drivers with vans (one driving for the
 * contractor company), a contractor rule, orders of every family across the lifecycle (yesterday
 * delivered or failed, today's planned by build-route, tomorrow's waiting in the pools, one of
 * them assigned to the contractor, with the assignment module on), all made
 * through the modules' use cases, so audit trails and statuses are as real use would leave them:
 * the orders and their changes in a few set-based batches, each change at its own moment.
 */
/** The places dispatchers reuse: saved addresses, points of interest, and the reasons of returns. */
async function seedPlaces(ctx: OperationContext, services: Services) {
  const { addresses, orders } = services;
  for (const address of [
    {
      label: 'Head office',
      name: 'Reception',
      line1: '12 Rue de Rivoli',
      postal_code: '75001',
      city: 'Paris',
    },
    {
      label: 'Galeries shop',
      name: 'Goods in',
      line1: '40 Boulevard Haussmann',
      postal_code: '75009',
      city: 'Paris',
    },
    { label: 'Montparnasse office', line1: '33 Avenue du Maine', postal_code: '75015', city: 'Paris' },
  ]) {
    await addresses.create(ctx, { ...address, country: 'FR', delivery_notes: 'Loading bay at the back' });
  }
  const weekdays = Object.fromEntries(
    (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => [day, [{ from: '07:00', to: '19:00' }]]),
  );
  await addresses.createPoi(ctx, {
    name: DEPOT.name,
    category: 'depot',
    line1: '5 Quai de Bercy',
    postal_code: '75012',
    city: 'Paris',
    country: 'FR',
    lat: DEPOT.lat,
    lng: DEPOT.lng,
    opening_hours: weekdays,
  });
  await addresses.createPoi(ctx, {
    name: 'Bastille parcel locker',
    category: 'locker',
    line1: '1 Place de la Bastille',
    postal_code: '75011',
    city: 'Paris',
    country: 'FR',
    lat: 48.853,
    lng: 2.369,
    opening_hours: Object.fromEntries(
      (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((day) => [
        day,
        [{ from: '06:00', to: '23:00' }],
      ]),
    ),
  });
  await orders.returns.save(ctx, {
    code: 'refused',
    labels: {
      en: 'Refused by the recipient',
      fr: 'Refusé par le destinataire',
      de: 'Vom Empfänger abgelehnt',
    },
    photo_required: false,
  });
  await orders.returns.save(ctx, {
    code: 'damaged',
    labels: { en: 'Damaged', fr: 'Endommagé', de: 'Beschädigt' },
    photo_required: true,
  });
}

export async function seedDemoDay(
  db: Queryable,
  services: Services,
  clock: Clock,
  input: DemoDayInput,
  // Route building plans at its clock's now: past mornings' plans are built on a clock set to them.
  // They share the solver threads of `services`, which the caller stops.
  history: () => HistoryServices = () => {
    const at = new ManualClock();
    return { services: createServices(loadConfig(), at, { solvers: services.solvers }), clock: at };
  },
) {
  const { accounts, assignments, contractors, dispatch, orders, skills } = services;
  const ctx = demoContext(db, clock, {
    userId: input.adminId,
    kind: 'client_admin',
    businessId: input.businessId,
  });

  const today = await dispatch.today(db, input.businessId);
  const tomorrow = shiftDate(today, 1);

  const { depot } = await dispatch.createDepot(ctx, DEPOT);
  await seedPlaces(ctx, services);
  const van = (driverId: number, contractor: boolean, skills: string[] = []) =>
    dispatch.setDriverProfile(ctx, {
      driver_id: driverId,
      depot_id: depot.id,
      contractor_company_id: contractor ? input.contractorCompanyId : null,
      vehicle_type: 'van',
      capacity: { weight_grams: 600_000, volume_cm3: 4_000_000, count: 60 },
      shift: { start: '08:00', end: '18:00' },
      skills,
    });
  // The catalogue names the skill the demo's driver holds and one order needs.
  await skills.save(ctx, { code: 'fragile', label: 'Fragile goods' });
  await van(input.driverId, false, ['fragile']);
  const extra = await accounts.createUsers(
    db,
    EXTRA_DRIVERS.map((driver) => ({
      kind: 'driver' as const,
      email: driver.email,
      name: driver.name,
      businessId: input.businessId,
    })),
    input.passwordHash,
  );
  for (const [n, driver] of EXTRA_DRIVERS.entries()) await van(extra[n]!, driver.contractor);
  const delivery = (n: number, date: string, extra: Partial<OrderInput> = {}) => {
    const place = ARRONDISSEMENTS[n % ARRONDISSEMENTS.length]!;
    // Spread the stops a few hundred metres around the arrondissement's point.
    const jitter = (k: number) => (((n * 7919 + k * 104_729) % 1000) / 1000 - 0.5) * 0.012;
    return orderInputSchema.parse({
      order_ref: `DEMO-${date.replaceAll('-', '')}-${String(n).padStart(3, '0')}`,
      scheduled_date: date,
      dropoff: {
        name: RECIPIENTS[n % RECIPIENTS.length],
        phone: `+33 6 12 34 ${String(10 + n).padStart(2, '0')} 00`,
        line1: `${10 + n} ${place.street}`,
        city: 'Paris',
        postal_code: place.postal,
        country: 'FR',
        lat: Number((place.lat + jitter(1)).toFixed(5)),
        lng: Number((place.lng + jitter(2)).toFixed(5)),
      },
      time_window:
        n % 3 === 0
          ? { start: '09:00', end: '12:00' }
          : n % 3 === 1
            ? { start: '13:00', end: '18:00' }
            : undefined,
      currency: 'EUR',
      shipping_price: (6.5 + (n % 4)).toFixed(2),
      packages: [{ weight_grams: 800 + (n % 5) * 900, length_mm: 300, width_mm: 200, height_mm: 150 }],
      ...extra,
    });
  };

  const past = history();
  await seedHistory(db, services, past, input, today, delivery);
  // Swift Couriers serves the north of Paris from tomorrow on.
  await contractors.createRule(ctx, {
    contractor_company_id: input.contractorCompanyId,
    postal_prefixes: ['75017', '75018'],
    valid_from: tomorrow,
    note: 'North of Paris',
  });

  // Today: deliveries, a pickup and a peer-to-peer order, then route building.
  const now = clock.now();
  const todays = await orders.intake.createMany(
    ctx,
    [
      ...Array.from({ length: 24 }, (_, n) => delivery(n, today)),
      delivery(24, today, {
        delivery_instruction: 'Fragile glassware, keep upright',
        required_skills: ['fragile'],
      }),
      delivery(25, today, {
        type: 'P',
        pickup: {
          line1: '3 Rue du Faubourg Saint-Antoine',
          city: 'Paris',
          postal_code: '75011',
          lat: 48.8532,
          lng: 2.3713,
        },
        dropoff: undefined,
        note: 'Customer return, collect two boxes',
      }),
      delivery(26, today, {
        type: 'P2P',
        pickup: {
          line1: '40 Rue de Charonne',
          city: 'Paris',
          postal_code: '75011',
          lat: 48.8537,
          lng: 2.3787,
        },
      }),
    ].map((order) => ({ input: order, at: now })),
  );
  await orders.changes.advanceAt(ctx, [
    { orderId: todays[3]!.id, to: 'HOLD', at: now },
    { orderId: todays[7]!.id, to: 'CANCELLED', at: now },
  ]);
  // Planned this morning at 07:00, as a dispatcher does, whatever the hour the demo is created at:
  // planning today never starts a van before now, so an evening start would plan nothing.
  past.clock.set(localTime(today, 7 * 60, await accounts.timeZoneOf(db, input.businessId)));
  await past.services.dispatch.buildRoutes(
    demoContext(db, past.clock, {
      userId: input.adminId,
      kind: 'client_admin',
      businessId: input.businessId,
    }),
    { date: today, service_minutes: 5, time_limit_ms: DEMO_SEARCH_MS },
  );
  // Late orders of the morning, on two routes of their own for the business's two other vans:
  // the ones the Paris Est fleet's board offers (src/demo/fleets.ts).
  await orders.intake.createMany(
    ctx,
    Array.from({ length: 8 }, (_, n) => delivery(n + 60, today)).map((order) => ({ input: order, at: now })),
  );
  await past.services.dispatch.buildRoutes(
    demoContext(db, past.clock, {
      userId: input.adminId,
      kind: 'client_admin',
      businessId: input.businessId,
    }),
    {
      date: today,
      driver_ids: extra.slice(0, 2),
      objective: 'balanced',
      service_minutes: 5,
      time_limit_ms: DEMO_SEARCH_MS,
    },
  );

  // Tomorrow: waiting to be planned; the north of Paris is also in Swift Couriers' pool, and
  // one order in the south is handed to its dispatcher outright.
  const tomorrows = Array.from({ length: 12 }, (_, n) => delivery(n + 30, tomorrow));
  const tomorrowIds = await orders.intake.createMany(
    ctx,
    tomorrows.map((order) => ({ input: order, at: now })),
  );
  await accounts.setPlatformModule(ctx, 'contractor_assignment', true);
  await accounts.setBusinessModule(ctx, input.businessId, 'contractor_assignment', true);
  const south = tomorrows.findIndex((order) => order.dropoff?.postal_code === '75014');
  await assignments.assign(ctx, {
    order_ids: [tomorrowIds[south]!.id],
    broker_id: input.contractorId,
    note: 'Fragile furniture, needs two people',
  });

  // The other families: labels, parcels with carriers, freight, storage, a move, a device.
  const address = (n: number) => delivery(n, tomorrow).dropoff!;
  await orders.intake.createMany(
    ctx,
    [
      { family: 'label_service', dropoff: address(50), order_ref: 'DEMO-LABEL-1' },
      {
        family: 'shipping_service',
        dropoff: { ...address(51), city: 'Lyon', postal_code: '69002' },
        carrier: 'UPS',
        order_ref: 'DEMO-SHIP-1',
      },
      {
        family: 'ltl_service',
        dropoff: { ...address(52), city: 'Lille', postal_code: '59000' },
        carrier: 'Geodis',
        order_ref: 'DEMO-LTL-1',
      },
      { family: 'storage_service', dropoff: address(53), order_ref: 'DEMO-STORE-1' },
      { family: 'moving_service', pickup: address(54), dropoff: address(55), order_ref: 'DEMO-MOVE-1' },
      { family: 'device_order', dropoff: address(56), order_ref: 'DEMO-DEVICE-1' },
    ].map((order) => ({
      input: orderInputSchema.parse({
        scheduled_date: tomorrow,
        currency: 'EUR',
        shipping_price: '24.90',
        ...order,
      }),
      at: now,
    })),
  );
  await seedDemoCarriers(services, ctx);
  return { today, tomorrow };
}
