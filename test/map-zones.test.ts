import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client as Http, client as http } from './support/http.ts';
import { geojsonProblems } from './support/maps.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Answers are read field by field, as a test reads JSON.
// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

const square = (lng: number, lat: number, size = 0.01) => [
  [lng, lat],
  [lng + size, lat],
  [lng + size, lat + size],
  [lng, lat + size],
  [lng, lat],
];

/** Field -> message of a VALIDATION_FAILED answer. */
function refusals(answer: Answer): Record<string, string> {
  assert.equal(answer.status, 422, JSON.stringify(answer.body));
  assert.equal(answer.body.result, false);
  assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
  return Object.fromEntries(answer.body.details.fields.map((field: Json) => [field.field, field.message]));
}

/** Service zones: GeoJSON checked strictly on upload, refusals in the caller’s language, bounded; and the bounds of maps. */
describe('service zones', () => {
  let server: TestServer;
  let api: Http;
  let shop: Tenant;
  let admin: string;

  const upload = (geometry: unknown, lang = 'en', name = 'Zone') =>
    api.post(
      '/api/v1/client/service-zones',
      { name, geometry },
      { token: admin, headers: { 'accept-language': lang } },
    );

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    shop = await createTenant(server.db, server.app.services, 'zones');
    admin = await login(api, shop.emails.client_admin);
  });
  after(() => server.close());

  it('takes a Polygon with a hole and a MultiPolygon, and gives them back as they were sent', async () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [square(2.3, 48.8, 0.1), square(2.32, 48.82, 0.01).reverse()],
    };
    const created = await upload(polygon);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.zone.geometry, polygon);
    assert.equal(created.body.zone.vertices, 10);
    const multi = { type: 'MultiPolygon', coordinates: [[square(2.3, 48.8)], [square(4.8, 45.7)]] };
    const second = await upload(multi, 'en', 'Paris and Lyon');
    assert.equal(second.status, 200, JSON.stringify(second.body));

    const replaced = await api.call('PUT', `/api/v1/client/service-zones/${second.body.zone.id}`, {
      token: admin,
      body: { name: 'Lyon only', geometry: { type: 'Polygon', coordinates: [square(4.8, 45.7)] } },
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal(replaced.body.zone.name, 'Lyon only');
    const listed = (await api.get('/api/v1/client/service-zones', { token: admin })).body.zones;
    assert.deepEqual(
      listed.map((zone: Json) => zone.name),
      ['Zone', 'Lyon only'],
    );
    const collection = {
      type: 'FeatureCollection',
      features: listed.map((zone: Json) => ({ type: 'Feature', properties: {}, geometry: zone.geometry })),
    };
    assert.equal(geojsonProblems(collection), '');

    const removed = await api.call('DELETE', `/api/v1/client/service-zones/${second.body.zone.id}`, {
      token: admin,
    });
    assert.deepEqual(removed.body, { result: true, deleted: second.body.zone.id });
    const again = await api.call('DELETE', `/api/v1/client/service-zones/${second.body.zone.id}`, {
      token: admin,
    });
    assert.equal(again.status, 404);
    assert.equal(again.body.error_code, 'SERVICE_ZONE_NOT_FOUND');
  });

  it('refuses open rings, short rings, coordinates out of range and other types, each at its place, in French', async () => {
    const open = square(2.3, 48.8)
      .slice(0, 4)
      .concat([[2.3, 48.81]]);
    assert.deepEqual(refusals(await upload({ type: 'Polygon', coordinates: [open] }, 'fr')), {
      'geometry.coordinates.0.4': 'Un anneau linéaire doit finir à la position où il commence.',
    });
    assert.deepEqual(
      refusals(
        await upload(
          {
            type: 'Polygon',
            coordinates: [
              [
                [2.3, 48.8],
                [2.4, 48.8],
                [2.3, 48.8],
              ],
            ],
          },
          'fr',
        ),
      ),
      { 'geometry.coordinates.0': 'Un anneau linéaire demande au moins 4 positions.' },
    );
    // Latitude first, as people often write it: 248.8 is no longitude, nor 120 a latitude.
    const swapped = [
      [48.8, 2.3],
      [248.8, 2.3],
      [48.8, 120],
      [48.8, 2.3],
    ];
    assert.deepEqual(refusals(await upload({ type: 'MultiPolygon', coordinates: [[swapped]] }, 'fr')), {
      'geometry.coordinates.0.0.1.0':
        'Une longitude de -180 à 180 est attendue (GeoJSON place la longitude en premier).',
      'geometry.coordinates.0.0.2.1':
        'Une latitude de -90 à 90 est attendue (GeoJSON place la latitude en second).',
    });
    for (const geometry of [
      { type: 'Point', coordinates: [2.3, 48.8] },
      { type: 'Feature', geometry: { type: 'Polygon', coordinates: [square(2.3, 48.8)] } },
      { type: 'Polygon', coordinates: [[['2.3', '48.8']]] },
      { type: 'Polygon', coordinates: [] },
      'POLYGON((2.3 48.8, 2.4 48.8, 2.4 48.9, 2.3 48.8))',
    ]) {
      const fields = Object.keys(refusals(await upload(geometry, 'fr')));
      assert.ok(
        fields.every((field) => field.startsWith('geometry')),
        `${JSON.stringify(geometry)}: ${fields}`,
      );
    }
  });

  it('bounds the positions of a zone and the zones of a business', async () => {
    const ring = Array.from({ length: 10_001 }, (_, i) => [
      2.3 + 0.01 * Math.cos((2 * Math.PI * i) / 10_000),
      48.8 + 0.01 * Math.sin((2 * Math.PI * i) / 10_000),
    ]);
    ring[10_000] = ring[0]!;
    assert.deepEqual(refusals(await upload({ type: 'Polygon', coordinates: [ring] }, 'de')), {
      'geometry.coordinates': 'Eine Zone umfasst höchstens 10000 Positionen.',
    });
    const have = (await api.get('/api/v1/client/service-zones', { token: admin })).body.zones.length;
    for (let i = have; i < 200; i++) {
      assert.equal((await upload({ type: 'Polygon', coordinates: [square(2, 48)] })).status, 200);
    }
    const full = await upload({ type: 'Polygon', coordinates: [square(2, 48)] }, 'es');
    assert.equal(full.status, 422);
    assert.equal(full.body.error_code, 'SERVICE_ZONES_FULL');
    assert.equal(
      full.body.message,
      'Una empresa guarda como máximo 200 zonas de servicio: elimine una primero.',
    );
  });

  it('refuses a site that may frame a map unless it is an origin, in German', async () => {
    const map = await api.post('/api/v1/client/maps', { name: 'Embedded' }, { token: admin });
    const answer = await api.call('PATCH', `/api/v1/client/maps/${map.body.map.id}`, {
      token: admin,
      headers: { 'accept-language': 'de' },
      body: {
        embed_origins: [
          'https://shop.example.com',
          'https://shop.example.com/maps',
          'ftp://files.example.com',
          'https://*.example.com',
          'https://user:pw@example.com',
          'shop.example.com',
        ],
      },
    });
    const message =
      'Erwartet wird der Ursprung einer Website wie https://shop.example.com: http oder https, ein Host und ein optionaler Port, nichts danach.';
    assert.deepEqual(refusals(answer), {
      'embed_origins.1': message,
      'embed_origins.2': message,
      'embed_origins.3': message,
      'embed_origins.4': message,
      'embed_origins.5': message,
    });
  });
  it('bounds the maps of a business', async () => {
    const have = (await api.get('/api/v1/client/maps', { token: admin })).body.total;
    for (let i = have; i < 100; i++) {
      assert.equal(
        (await api.post('/api/v1/client/maps', { name: `Map ${i}` }, { token: admin })).status,
        200,
      );
    }
    const full = await api.post('/api/v1/client/maps', { name: 'One too many' }, { token: admin });
    assert.equal(full.status, 422);
    assert.equal(full.body.error_code, 'MAPS_FULL');
    assert.equal(full.body.message, 'A business keeps at most 100 maps: delete one first.');
  });
});
