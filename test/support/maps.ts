import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { signedInDriversAtDepot, type Tenant } from './fixtures.ts';
import type { Client } from './http.ts';
import type { TestServer } from './server.ts';

// A business's data of every kind a map draws, made through the API, for the maps tests; and the
// GeoJSON oracle they check answers with.

/** The test clock's day in the tenant's time zone (Asia/Shanghai): today's routes are on it. */
export const TODAY = '2026-11-02';
export const DEPOT = { lat: 48.85, lng: 2.35 };

/** Personal data the business's records hold: none of it may reach a published map. */
export const PERSONAL = {
  recipient: { name: 'Léa Martin', phone: '+33 6 12 34 56 78', line1: '12 Rue de Rivoli' },
  bookEntry: { name: 'Hugo Bernard', phone: '+33 6 98 76 54 32', line1: '7 Impasse des Lilas' },
  customerSite: 'Résidence Dupont',
  lockerOwner: { text: 'Chloé Garnier', phone: '+33 7 11 22 33 44' },
};

/** Every word of PERSONAL, and the driver's name: what a published map must never show. */
export function personalWords(data: MapData): string[] {
  return [
    PERSONAL.recipient.name,
    PERSONAL.recipient.phone,
    PERSONAL.recipient.line1,
    PERSONAL.bookEntry.name,
    PERSONAL.bookEntry.phone,
    PERSONAL.bookEntry.line1,
    PERSONAL.customerSite,
    PERSONAL.lockerOwner.text,
    PERSONAL.lockerOwner.phone,
    data.driver.name,
  ];
}

export interface MapData {
  pois: { hub: number; customerSite: number };
  addressId: number;
  datasetId: number;
  lockers: { open: number; closed: number };
  warehouseId: number;
  depotId: number;
  zoneId: number;
  routeId: number;
  orderIds: number[];
  driver: { id: number; token: string; name: string };
}

export async function seedMapData(
  server: TestServer,
  api: Client,
  tenant: Tenant,
  admin: string,
): Promise<MapData> {
  const post = async (path: string, body: unknown, token = admin) => {
    const answer = await api.post(`/api${path}`, body, { token });
    assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const poi = (name: string, category: string, lat: number) =>
    post('/v1/client/points-of-interest', { name, category, line1: `${name} street`, lat, lng: 2.36 });
  const hub = (await poi('Bercy hub', 'hub', 48.84)).point.id;
  const customerSite = (await poi(PERSONAL.customerSite, 'customer_site', 48.87)).point.id;
  const address = await post('/v1/client/addresses', {
    label: 'Regular recipient',
    ...PERSONAL.bookEntry,
    city: 'Paris',
    country: 'FR',
    lat: 48.88,
    lng: 2.33,
  });
  const dataset = await post('/v1/client/datasets', {
    name: 'Lockers',
    fields: [
      { name: 'owner', type: 'text', required: true },
      { name: 'owner_phone', type: 'text' },
      { name: 'point', type: 'geo_point', required: true },
      { name: 'status', type: 'enum', values: ['open', 'closed'], required: true },
      { name: 'slots', type: 'number' },
    ],
  });
  const datasetId = dataset.dataset.id as number;
  const locker = async (status: string, lat: number) =>
    (
      await post(`/v1/client/datasets/${datasetId}/records`, {
        values: {
          owner: PERSONAL.lockerOwner.text,
          owner_phone: PERSONAL.lockerOwner.phone,
          point: { lat, lng: 2.31 },
          status,
          slots: 24,
        },
      })
    ).record.id as number;
  const lockers = { open: await locker('open', 48.81), closed: await locker('closed', 48.82) };
  const [driver] = await signedInDriversAtDepot(server, api, tenant, admin, {
    depot: DEPOT,
    names: ['mapper'],
    shift: { start: '08:00', end: '22:00' },
  });
  const warehouse = await post('/v1/client/warehouses', {
    code: 'NORTH',
    name: 'North warehouse',
    line1: '1 Rue du Nord',
    city: 'Paris',
    country: 'FR',
    lat: 48.9,
    lng: 2.36,
    time_zone: 'Europe/Paris',
  });
  const zone = await post('/v1/client/service-zones', {
    name: 'Paris centre',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [2.3, 48.83],
          [2.4, 48.83],
          [2.4, 48.89],
          [2.3, 48.89],
          [2.3, 48.83],
        ],
      ],
    },
  });
  const orderIds: number[] = [];
  for (const [index, dlat] of [0, 0.01].entries()) {
    const created = await post('/v1/client/orderCreate', {
      order_ref: `MAP-${index}`,
      scheduled_date: TODAY,
      dropoff: { ...PERSONAL.recipient, city: 'Paris', country: 'FR', lat: 48.8606 + dlat, lng: 2.3376 },
    });
    orderIds.push(created.order_id);
  }
  const built = await post('/v3/client/build-route', {
    date: TODAY,
    driver_ids: [driver!.id],
    time_limit_ms: 100,
  });
  const routeId = built.routes[0].id as number;
  const at = (minutes: number) => new Date(server.clock.now().getTime() - minutes * 60_000).toISOString();
  await post(
    `/v1/driver/routes/${routeId}/positions`,
    {
      client_id: 'map-positions',
      positions: [
        { lat: 48.851, lng: 2.351, device_time: at(5) },
        { lat: 48.853, lng: 2.353, accuracy_meters: 8, device_time: at(1) },
      ],
    },
    driver!.token,
  );
  const drivers = (await api.get('/api/v1/client/drivers', { token: admin })).body.drivers;
  const depotId = drivers.find((d: { id: number }) => d.id === driver!.id).profile.depot_id as number;
  return {
    pois: { hub, customerSite },
    addressId: address.address.id,
    datasetId,
    lockers,
    warehouseId: warehouse.warehouse.id,
    depotId,
    zoneId: zone.zone.id,
    routeId,
    orderIds,
    driver: { ...driver!, name: 'Driver mapper' },
  };
}

/** One layer of every kind, over the seeded data. */
export function everyLayer(data: MapData) {
  return [
    { key: 'zones', kind: 'service_zones', name: 'Service zones', colour: '#0a7ea4' },
    { key: 'places', kind: 'points_of_interest', name: 'Our places' },
    { key: 'book', kind: 'address_book', name: 'Address book' },
    {
      key: 'lockers',
      kind: 'dataset',
      name: 'Open lockers',
      dataset_id: data.datasetId,
      where: { status: { eq: 'open' } },
      public_fields: ['status', 'slots'],
    },
    { key: 'sites', kind: 'sites', name: 'Warehouses and depots' },
    { key: 'routes', kind: 'routes', name: "Today's routes" },
    { key: 'drivers', kind: 'drivers', name: 'Drivers', within_minutes: 30 },
  ];
}

/**
 * The oracle: geojson.org's own FeatureCollection schema (test/standards/geojson/SOURCE.md), plus
 * what it cannot say (closed rings). Answers the problems found, '' when none.
 */
const schema = JSON.parse(
  readFileSync(new URL('../standards/geojson/FeatureCollection.json', import.meta.url), 'utf8'),
);
const ajv = new Ajv({ strict: false, allErrors: true });
const validateCollection = ajv.compile(schema);

export function geojsonProblems(document: unknown): string {
  if (!validateCollection(document)) return ajv.errorsText(validateCollection.errors);
  const problems: string[] = [];
  for (const feature of (
    document as { features: Array<{ geometry: { type: string; coordinates: unknown } }> }
  ).features) {
    const { type, coordinates } = feature.geometry;
    const polygons =
      type === 'Polygon'
        ? [coordinates as number[][][]]
        : type === 'MultiPolygon'
          ? (coordinates as number[][][][])
          : [];
    for (const ring of polygons.flat()) {
      if (ring[0]!.join() !== ring.at(-1)!.join()) problems.push(`open ring in ${type}`);
    }
  }
  return problems.join('; ');
}
