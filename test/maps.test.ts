import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import {
  DEPOT,
  everyLayer,
  geojsonProblems,
  type MapData,
  PERSONAL,
  seedMapData,
  TODAY,
} from './support/maps.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Answers are read field by field, as a test reads JSON.
// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

/** Custom maps for the business's staff: definitions, scoping, every layer kind's content, GeoJSON. */
describe('custom maps', () => {
  let server: TestServer;
  let api: Http;
  let shop: Tenant;
  let other: Tenant;
  let admin: string;
  let employee: string;
  let otherAdmin: string;
  let data: MapData;
  let mapId: number;

  const call = (
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, `/api${path}`, { token, body, headers });
  const layerOf = (answer: Json, key: string) => answer.layers.find((layer: Json) => layer.key === key);

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    shop = await createTenant(server.db, server.app.services, 'maps');
    other = await createTenant(server.db, server.app.services, 'maps-other');
    admin = await login(api, shop.emails.client_admin);
    employee = await login(api, shop.emails.employee);
    otherAdmin = await login(api, other.emails.client_admin);
    data = await seedMapData(server, api, shop, admin);
    const created = await call('POST', '/v1/client/maps', employee, {
      name: 'Operations',
      style: { clustering: true },
      layers: everyLayer(data),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    mapId = created.body.map.id;
  });
  after(() => server.close());

  it('creates, lists, renames, restyles and deletes maps, with layer colours from a palette', async () => {
    const created = (await call('GET', `/v1/client/maps/${mapId}`, admin)).body.map;
    assert.equal(created.name, 'Operations');
    assert.deepEqual(created.style, { labels: true, clustering: true });
    assert.equal(created.visibility, 'authenticated');
    assert.deepEqual(
      created.layers.map((layer: Json) => [layer.key, layer.kind]),
      everyLayer(data).map((layer) => [layer.key, layer.kind]),
    );
    assert.equal(created.layers[0].colour, '#0a7ea4', 'a colour given is kept');
    assert.match(created.layers[1].colour, /^#[0-9a-f]{6}$/);

    const second = await call('POST', '/v1/client/maps', admin, { name: 'Empty' });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body.map.layers, []);
    const listed = await call('GET', '/v1/client/maps?per_page=10', employee);
    assert.equal(listed.body.total, 2);
    assert.deepEqual(
      listed.body.maps.map((map: Json) => map.name),
      ['Empty', 'Operations'],
    );
    const renamed = await call('PATCH', `/v1/client/maps/${second.body.map.id}`, employee, {
      name: 'Renamed',
      style: { labels: false },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.map.name, 'Renamed');
    assert.deepEqual(renamed.body.map.style, { labels: false, clustering: false });
    const restyled = await call('PATCH', `/v1/client/maps/${mapId}`, employee, { style: { labels: false } });
    assert.deepEqual(restyled.body.map.style, { labels: false, clustering: true }, 'what is left out stays');
    await call('PATCH', `/v1/client/maps/${mapId}`, employee, { style: { labels: true } });
    const empty = await call('GET', `/v1/client/maps/${second.body.map.id}/geojson`, employee);
    assert.deepEqual(empty.body.geojson, { type: 'FeatureCollection', features: [] }, 'a map without layers');
    const deleted = await call('DELETE', `/v1/client/maps/${second.body.map.id}`, employee);
    assert.deepEqual(deleted.body, { result: true, deleted: second.body.map.id });
    const gone = await call('GET', `/v1/client/maps/${second.body.map.id}`, admin);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'MAP_NOT_FOUND');
    assert.equal(typeof gone.body.message, 'string');
  });

  it("keeps another business and other account kinds away from a business's maps", async () => {
    for (const [method, path, body] of [
      ['GET', `/v1/client/maps/${mapId}`],
      ['PATCH', `/v1/client/maps/${mapId}`, { name: 'Taken' }],
      ['PUT', `/v1/client/maps/${mapId}/layers`, { layers: [] }],
      ['GET', `/v1/client/maps/${mapId}/geojson`],
      ['POST', `/v1/client/maps/${mapId}/publish`, {}],
      ['POST', `/v1/client/maps/${mapId}/revoke`, {}],
      ['DELETE', `/v1/client/maps/${mapId}`],
    ] as Array<[string, string, unknown?]>) {
      const answer = await call(method, path, otherAdmin, body);
      assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'MAP_NOT_FOUND');
      assert.equal(answer.body.result, false);
    }
    assert.equal((await call('GET', '/v1/client/maps', otherAdmin)).body.total, 0);
    // The zone and the dataset are the business's own: another's layers may not name them.
    const foreign = await call('POST', '/v1/client/maps', otherAdmin, {
      name: 'Borrowed',
      layers: [
        { key: 'z', kind: 'service_zones', name: 'Z', zone_ids: [data.zoneId] },
        { key: 'd', kind: 'dataset', name: 'D', dataset_id: data.datasetId },
      ],
    });
    assert.equal(foreign.status, 422);
    assert.deepEqual(
      foreign.body.details.fields.map((field: Json) => field.field),
      ['layers.0.zone_ids.0', 'layers.1.dataset_id'],
    );
    assert.equal(
      (await call('DELETE', `/v1/client/service-zones/${data.zoneId}`, otherAdmin)).body.error_code,
      'SERVICE_ZONE_NOT_FOUND',
    );
    for (const kind of ['customer', 'driver', 'contractor'] as const) {
      const token = await login(api, shop.emails[kind]);
      const answer = await call('GET', '/v1/client/maps', token);
      assert.equal(answer.status, 403, `${kind}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'FORBIDDEN');
    }
    const employeePublishes = await call('POST', `/v1/client/maps/${mapId}/publish`, employee, {});
    assert.equal(employeePublishes.status, 403, 'publishing is the admin’s decision');
  });

  it('refuses layers that do not fit their sources, each at its place', async () => {
    const refused = await call('PUT', `/v1/client/maps/${mapId}/layers`, admin, {
      layers: [
        {
          key: 'a',
          kind: 'dataset',
          name: 'A',
          dataset_id: data.datasetId,
          where: { colour: { eq: 'red' } },
        },
      ],
    });
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.details.fields.map((field: Json) => field.field),
      ['layers.0.where.colour'],
    );
    const malformed = await call('PUT', `/v1/client/maps/${mapId}/layers`, admin, {
      layers: [
        { key: 'a', kind: 'routes', name: 'A', colour: 'red' },
        { key: 'b', kind: 'teleporters', name: 'B' },
      ],
    });
    assert.equal(malformed.status, 422);
    assert.deepEqual(malformed.body.details.fields.map((field: Json) => field.field).sort(), [
      'layers.0.colour',
      'layers.1.kind',
    ]);
    const twice = await call('PUT', `/v1/client/maps/${mapId}/layers`, admin, {
      layers: [
        { key: 'a', kind: 'routes', name: 'A' },
        { key: 'a', kind: 'drivers', name: 'Also A' },
      ],
    });
    assert.deepEqual(
      twice.body.details.fields.map((field: Json) => field.field),
      ['layers.1.key'],
    );
    const fields = await call(
      'PUT',
      `/v1/client/maps/${mapId}/layers`,
      admin,
      {
        layers: [
          {
            key: 'a',
            kind: 'dataset',
            name: 'A',
            dataset_id: data.datasetId,
            public_fields: ['owner', 'nope'],
          },
        ],
      },
      { 'accept-language': 'fr' },
    );
    assert.deepEqual(
      Object.fromEntries(fields.body.details.fields.map((field: Json) => [field.field, field.message])),
      {
        'layers.0.public_fields.0':
          'Une carte publiée ne montre que des champs nombre, booléen, date et énumération ; owner n’en est pas un.',
        'layers.0.public_fields.1': 'Aucun champ nope dans ce jeu de données.',
      },
    );
    // Nothing changed.
    assert.equal((await call('GET', `/v1/client/maps/${mapId}`, admin)).body.map.layers.length, 7);
  });

  it("draws each layer kind from the business's data, as staff may read it", async () => {
    const answer = await call('GET', `/v1/client/maps/${mapId}`, employee);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const body = answer.body;
    const props = (key: string) => layerOf(body, key).geojson.features.map((f: Json) => f.properties);

    const zones = layerOf(body, 'zones').geojson.features;
    assert.equal(zones.length, 1);
    assert.equal(zones[0].geometry.type, 'Polygon');
    assert.deepEqual(zones[0].properties, { layer: 'zones', id: data.zoneId, name: 'Paris centre' });

    assert.deepEqual(
      props('places').map((p: Json) => [p.name, p.category]),
      [
        ['Bercy hub', 'hub'],
        [PERSONAL.customerSite, 'customer_site'],
      ],
    );
    const hub = layerOf(body, 'places').geojson.features[0];
    assert.deepEqual(hub.geometry, { type: 'Point', coordinates: [2.36, 48.84] }, 'longitude first');

    const [entry] = props('book');
    assert.equal(entry.id, data.addressId);
    assert.equal(entry.name, PERSONAL.bookEntry.name, 'staff read the whole entry');
    assert.equal(entry.phone, PERSONAL.bookEntry.phone);

    const lockers = layerOf(body, 'lockers').geojson.features;
    assert.deepEqual(
      lockers.map((f: Json) => f.properties.record_id),
      [data.lockers.open],
      'the layer keeps the search: open lockers only',
    );
    assert.deepEqual(lockers[0].geometry.coordinates, [2.31, 48.81]);
    assert.equal(lockers[0].properties.values.owner, PERSONAL.lockerOwner.text);

    assert.deepEqual(
      props('sites').map((p: Json) => [p.site, p.id]),
      [
        ['warehouse', data.warehouseId],
        ['depot', data.depotId],
      ],
    );

    const routes = layerOf(body, 'routes').geojson.features;
    const line = routes.find((f: Json) => f.properties.feature === 'route');
    assert.equal(line.properties.route_id, data.routeId);
    assert.equal(line.properties.date, TODAY);
    assert.equal(line.properties.driver_name, data.driver.name);
    assert.equal(line.geometry.type, 'LineString');
    assert.deepEqual(line.geometry.coordinates[0], [DEPOT.lng, DEPOT.lat], 'from the depot');
    assert.deepEqual(line.geometry.coordinates.at(-1), [DEPOT.lng, DEPOT.lat], 'and back');
    const stops = routes.filter((f: Json) => f.properties.feature === 'stop');
    assert.deepEqual(stops.map((f: Json) => f.properties.order_id).sort(), [...data.orderIds].sort());
    assert.ok(stops.every((f: Json) => f.properties.status === 'pending'));
    assert.equal(line.geometry.coordinates.length, stops.length + 2);

    const [driver] = layerOf(body, 'drivers').geojson.features;
    assert.deepEqual(driver.geometry.coordinates, [2.353, 48.853], 'the last position');
    assert.equal(driver.properties.driver_id, data.driver.id);
    assert.equal(driver.properties.age_seconds, 60);
    assert.equal(driver.properties.accuracy_meters, 8);
    assert.ok(body.layers.every((layer: Json) => layer.truncated === false));
  });

  it('forgets drivers silent for longer than the layer looks back', async () => {
    const saved = server.clock.now();
    server.clock.set(new Date(saved.getTime() + 31 * 60_000));
    try {
      const answer = await call('GET', `/v1/client/maps/${mapId}`, admin);
      assert.deepEqual(layerOf(answer.body, 'drivers').geojson.features, []);
    } finally {
      server.clock.set(saved);
    }
  });

  it('answers GeoJSON that the GeoJSON schema accepts: each layer, the export, and the bare file', async () => {
    const map = (await call('GET', `/v1/client/maps/${mapId}`, admin)).body;
    for (const layer of map.layers) assert.equal(geojsonProblems(layer.geojson), '', layer.key);

    const exported = await call('GET', `/v1/client/maps/${mapId}/geojson`, admin);
    assert.equal(exported.status, 200);
    assert.equal(geojsonProblems(exported.body.geojson), '');
    const all = map.layers.flatMap((layer: Json) => layer.geojson.features);
    assert.deepEqual(exported.body.geojson.features, all, 'every layer, tagged with its key');

    const file = await call('GET', `/v1/client/maps/${mapId}/geojson?layer=zones`, admin, undefined, {
      accept: 'application/geo+json',
    });
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type')!, /^application\/geo\+json/);
    assert.match(file.headers.get('content-disposition')!, /map-\d+-zones\.geojson/);
    assert.equal(file.body.type, 'FeatureCollection');
    assert.equal(file.body.result, undefined, 'the bare document');
    assert.equal(geojsonProblems(file.body), '');
    assert.deepEqual(
      file.body.features.map((f: Json) => f.properties.layer),
      ['zones'],
    );

    const unknown = await call('GET', `/v1/client/maps/${mapId}/geojson?layer=nope`, admin);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'MAP_LAYER_NOT_FOUND');

    // The oracle refuses what is not GeoJSON.
    assert.notEqual(geojsonProblems({ type: 'FeatureCollection', features: [{ type: 'Feature' }] }), '');
    assert.match(
      geojsonProblems({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [0, 0],
                  [1, 0],
                  [1, 1],
                  [0, 1],
                ],
              ],
            },
          },
        ],
      }),
      /open ring/,
    );
  });

  it('is the same map over GraphQL and for an agent', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${employee}` },
    });
    const answer = await graphql.request<Json>(
      gql`query ($id: Int!) { map(map_id: $id) { map { name } layers { key truncated geojson { type features { properties } } } } }`,
      { id: mapId },
    );
    assert.equal(answer.map.map.name, 'Operations');
    assert.deepEqual(
      answer.map.layers.map((layer: Json) => layer.key),
      everyLayer(data).map((layer) => layer.key),
    );

    const agent = new Client({ name: 'maps-test', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${employee}` } },
      }),
    );
    try {
      const tools = (await agent.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes('list_maps') && tools.includes('get_map'));
      const result = (await agent.callTool({
        name: 'get_map',
        arguments: { map_id: mapId },
      })) as CallToolResult & {
        structuredContent: Json;
      };
      assert.equal(result.isError, undefined);
      assert.equal(layerOf(result.structuredContent, 'sites').geojson.features.length, 2);
    } finally {
      await agent.close();
    }
  });
});
