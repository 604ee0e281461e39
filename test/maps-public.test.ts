import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { everyLayer, geojsonProblems, type MapData, personalWords, seedMapData } from './support/maps.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Answers are read field by field, as a test reads JSON.
// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

/** Published maps: an unguessable, revocable link, read anonymously, with no personal data. */
describe('published maps', () => {
  let server: TestServer;
  let api: Http;
  let shop: Tenant;
  let admin: string;
  let data: MapData;
  let mapId: number;

  const call = (
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, `/api${path}`, { token, body, headers });
  const publish = async (body: unknown = {}) => {
    const answer = await call('POST', `/v1/client/maps/${mapId}/publish`, admin, body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    shop = await createTenant(server.db, server.app.services, 'public-maps');
    admin = await login(api, shop.emails.client_admin);
    data = await seedMapData(server, api, shop, admin);
    const created = await call('POST', '/v1/client/maps', admin, {
      name: 'Where we work',
      layers: everyLayer(data),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    mapId = created.body.map.id;
  });
  after(() => server.close());

  it('gives an unguessable link once, keeps only its digest, and reads it without a session', async () => {
    const published = await publish({
      embed_origins: ['https://Shop.Example.com', 'http://localhost:8080/'],
    });
    const link = published.link;
    assert.match(link.id, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(link.url, `${server.config.publicBaseUrl}/maps/${link.id}`);
    assert.equal(published.map.visibility, 'public');
    assert.deepEqual(published.map.embed_origins, ['https://shop.example.com', 'http://localhost:8080']);

    // The id is in no later answer, nor in the database.
    const staff = await call('GET', `/v1/client/maps/${mapId}`, admin);
    assert.ok(!JSON.stringify(staff.body).includes(link.id));
    assert.ok(!JSON.stringify((await call('GET', '/v1/client/maps', admin)).body).includes(link.id));
    const stored = await server.db
      .selectFrom('maps')
      .selectAll()
      .where('id', '=', mapId)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(link.id));
    assert.equal((stored.link_hash as Buffer).length, 32);

    const anonymous = await call('GET', `/v1/maps/${link.id}`);
    assert.equal(anonymous.status, 200, JSON.stringify(anonymous.body));
    assert.deepEqual(anonymous.body.map, {
      name: 'Where we work',
      style: { labels: true, clustering: false },
    });
    assert.deepEqual(anonymous.body.frame_ancestors, ['https://shop.example.com', 'http://localhost:8080']);
    assert.deepEqual(
      anonymous.body.layers.map((layer: Json) => [layer.key, layer.kind, layer.colour]),
      staff.body.layers.map((layer: Json) => [layer.key, layer.kind, layer.colour]),
      'style and layers in one read, as staff see them',
    );
    for (const layer of anonymous.body.layers) assert.equal(geojsonProblems(layer.geojson), '', layer.key);
  });

  it('shows what names nobody: no names, phones, emails or street addresses, no ids', async () => {
    const { link } = await publish();
    const body = (await call('GET', `/v1/maps/${link.id}`)).body;
    const text = JSON.stringify(body);
    const forbidden = [
      ...personalWords(data),
      '1 Rue du Nord',
      'Bercy hub street',
      ...Object.values(shop.emails),
      'order_id',
      'driver_id',
      'record_id',
    ];
    for (const words of forbidden) assert.ok(!text.includes(words), `${words} is on the published map`);

    const layer = (key: string) => body.layers.find((l: Json) => l.key === key).geojson.features;
    assert.deepEqual(
      layer('places').map((f: Json) => f.properties),
      [{ layer: 'places', name: 'Bercy hub', category: 'hub' }],
      'the business’s own places only: not a customer’s site',
    );
    assert.deepEqual(layer('book'), [], 'the address book is the recipients’: not even its points');
    assert.deepEqual(
      layer('lockers').map((f: Json) => f.properties),
      [{ layer: 'lockers', values: { status: 'open', slots: 24 } }],
      'the safe fields named, and the point',
    );
    assert.deepEqual(
      layer('sites').map((f: Json) => f.properties),
      [
        { layer: 'sites', site: 'warehouse', name: 'North warehouse' },
        { layer: 'sites', site: 'depot', name: 'Hub' },
      ],
    );
    assert.deepEqual(layer('zones')[0].properties, { layer: 'zones', name: 'Paris centre' });
    // Stops and lines on a coarse grid: a neighbourhood, never a door.
    const routes = layer('routes');
    const coordinates = routes.flatMap((f: Json) =>
      f.geometry.type === 'Point' ? [f.geometry.coordinates] : f.geometry.coordinates,
    );
    for (const [lng, lat] of coordinates) {
      assert.equal(Math.round(lng * 100) / 100, lng);
      assert.equal(Math.round(lat * 100) / 100, lat);
    }
    assert.deepEqual(
      routes.map((f: Json) => Object.keys(f.properties).sort()),
      [
        ['feature', 'layer', 'status', 'stops'],
        ...data.orderIds.map(() => ['feature', 'layer', 'sequence', 'status']),
      ],
    );
    const [driver] = layer('drivers');
    assert.deepEqual(Object.keys(driver.properties).sort(), ['at', 'layer']);
    assert.ok(body.layers.every((l: Json) => l.geojson.features.every((f: Json) => f.id === undefined)));
  });

  it('answers 404 in the error shape, in the caller’s language, for a revoked, replaced or unknown link', async () => {
    const first = (await publish()).link.id;
    const second = (await publish()).link.id;
    assert.notEqual(first, second);
    const replaced = await call('GET', `/v1/maps/${first}`);
    assert.equal(replaced.status, 404);
    assert.deepEqual(Object.keys(replaced.body).sort(), ['error_code', 'message', 'result']);
    assert.equal(replaced.body.error_code, 'MAP_LINK_NOT_FOUND');
    assert.equal((await call('GET', `/v1/maps/${second}`)).status, 200);

    const revoked = await call('POST', `/v1/client/maps/${mapId}/revoke`, admin, {});
    assert.equal(revoked.body.revoked, true);
    assert.equal(revoked.body.map.visibility, 'authenticated');
    const gone = await call('GET', `/v1/maps/${second}`, undefined, undefined, { 'accept-language': 'fr' });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'MAP_LINK_NOT_FOUND');
    assert.equal(gone.body.message, 'Aucune carte publiée n’a ce lien : il a peut-être été révoqué.');
    assert.equal((await call('POST', `/v1/client/maps/${mapId}/revoke`, admin, {})).body.revoked, false);
    assert.equal((await call('GET', '/v1/maps/not-a-link-at-all')).status, 404);

    const third = (await publish()).link.id;
    await call('DELETE', `/v1/client/maps/${mapId}`, admin);
    assert.equal((await call('GET', `/v1/maps/${third}`)).body.error_code, 'MAP_LINK_NOT_FOUND');
  });
});
