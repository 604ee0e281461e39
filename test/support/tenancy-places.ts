import assert from 'node:assert/strict';
import type { Answer } from './http.ts';
import { a, adminOfB, api, type Checks, tokenOfA, tokensOfB } from './tenancy.ts';

/** A saved address of A's own book, made by the first address-book check. */
let addressOfA: Promise<number> | undefined;
const savedAddressOfA = () => {
  addressOfA ??= api
    .post('/api/v1/client/addresses', { label: 'A secret place', line1: '1 A street' }, { token: tokenOfA })
    .then((answer) => answer.body.address.id as number);
  return addressOfA;
};
const addressOfAUnchanged = async () => {
  const id = await savedAddressOfA();
  const asA = await api.get('/api/v1/client/addresses', { token: tokenOfA });
  const address = asA.body.addresses.find((candidate: { id: number }) => candidate.id === id);
  assert.equal(address?.label, 'A secret place');
};

/** A point of interest of A, made by the first POI check. */
let poiOfA: Promise<number> | undefined;
const pointOfA = () => {
  poiOfA ??= api
    .post(
      '/api/v1/client/points-of-interest',
      { name: 'A hub', category: 'hub', line1: '1 A street', lat: 1, lng: 1 },
      { token: tokenOfA },
    )
    .then((answer) => answer.body.point.id as number);
  return poiOfA;
};
const pointOfAStays = async () => {
  const id = await pointOfA();
  const asA = await api.get('/api/v1/client/points-of-interest', { token: tokenOfA });
  assert.equal(asA.body.points.find((point: { id: number }) => point.id === id)?.name, 'A hub');
};

/** A dataset of A (in a group of A) with one record, made by the first dataset check. */
let mapOfAMade: Promise<{ mapId: number; zoneId: number }> | undefined;
const mapOfA = () => {
  mapOfAMade ??= (async () => {
    const ring = [
      [1, 1],
      [1.1, 1],
      [1.1, 1.1],
      [1, 1],
    ];
    const zone = await api.post(
      '/api/v1/client/service-zones',
      { name: 'A zone', geometry: { type: 'Polygon', coordinates: [ring] } },
      { token: tokenOfA },
    );
    const map = await api.post(
      '/api/v1/client/maps',
      { name: 'A map', layers: [{ key: 'zones', kind: 'service_zones', name: 'Zones' }] },
      { token: tokenOfA },
    );
    return { mapId: map.body.map.id as number, zoneId: zone.body.zone.id as number };
  })();
  return mapOfAMade;
};
/** B reaching A's map or zone by its id: 404, and A's map and zone as they were. */
const mapRefused =
  (
    code: 'MAP_NOT_FOUND' | 'SERVICE_ZONE_NOT_FOUND',
    method: string,
    path: (ids: { mapId: number; zoneId: number }) => string,
    body?: unknown,
  ) =>
  async () => {
    const ids = await mapOfA();
    const answer = await api.call(method, `/api/v1/client/${path(ids)}`, { token: adminOfB(), body });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    const map = await api.get(`/api/v1/client/maps/${ids.mapId}`, { token: tokenOfA });
    assert.equal(map.body.map.name, 'A map');
    assert.equal(map.body.map.visibility, 'authenticated');
    assert.equal(map.body.layers[0].geojson.features[0].properties.name, 'A zone');
  };

let datasetOfAMade: Promise<{ groupId: number; datasetId: number; recordId: number }> | undefined;
const datasetOfA = () => {
  datasetOfAMade ??= (async () => {
    const group = await api.post('/api/v1/client/dataset-groups', { name: 'A group' }, { token: tokenOfA });
    const dataset = await api.post(
      '/api/v1/client/datasets',
      {
        name: 'A sites',
        group_id: group.body.group.id,
        fields: [
          { name: 'name', type: 'text', required: true },
          { name: 'point', type: 'geo_point' },
        ],
      },
      { token: tokenOfA },
    );
    const datasetId = dataset.body.dataset.id as number;
    const record = await api.post(
      `/api/v1/client/datasets/${datasetId}/records`,
      { values: { name: 'A secret site', point: { lat: 1, lng: 1 } } },
      { token: tokenOfA },
    );
    return { groupId: group.body.group.id as number, datasetId, recordId: record.body.record.id as number };
  })();
  return datasetOfAMade;
};
/** A's dataset as A sees it, its group and its records unchanged by anything B does. */
const datasetOfAStays = async () => {
  const { datasetId, recordId } = await datasetOfA();
  const dataset = await api.get(`/api/v1/client/datasets/${datasetId}`, { token: tokenOfA });
  assert.equal(dataset.body.dataset.name, 'A sites');
  assert.equal(dataset.body.dataset.group?.name, 'A group');
  assert.equal(dataset.body.dataset.record_count, 1);
  const record = await api.get(`/api/v1/client/datasets/${datasetId}/records/${recordId}`, {
    token: tokenOfA,
  });
  assert.equal(record.body.record.values.name, 'A secret site');
};
/** B reaching A's dataset by its id: 404 DATASET_NOT_FOUND, and A's data as it was. */
const datasetRefused =
  (call: (ids: { datasetId: number; recordId: number }) => Promise<Answer>) => async () => {
    const ids = await datasetOfA();
    const answer = await call(ids);
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'DATASET_NOT_FOUND');
    await datasetOfAStays();
  };

/** Maps, zones, datasets, points of interest and addresses: what B must not reach of A. */
export const placeChecks: Checks = {
  list_maps: async () => {
    const { mapId } = await mapOfA();
    const answer = await api.get('/api/v1/client/maps', { token: adminOfB() });
    assert.ok(answer.body.maps.every((map: { id: number }) => map.id !== mapId));
  },
  get_map: mapRefused('MAP_NOT_FOUND', 'GET', ({ mapId }) => `maps/${mapId}`),
  create_map: async () => {
    const { zoneId } = await mapOfA();
    const answer = await api.post(
      '/api/v1/client/maps',
      { name: 'B', layers: [{ key: 'z', kind: 'service_zones', name: 'Z', zone_ids: [zoneId] }] },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 422, JSON.stringify(answer.body));
    assert.equal(answer.body.details.fields[0].field, 'layers.0.zone_ids.0');
  },
  update_map: mapRefused('MAP_NOT_FOUND', 'PATCH', ({ mapId }) => `maps/${mapId}`, { name: 'taken' }),
  delete_map: mapRefused('MAP_NOT_FOUND', 'DELETE', ({ mapId }) => `maps/${mapId}`),
  set_map_layers: mapRefused('MAP_NOT_FOUND', 'PUT', ({ mapId }) => `maps/${mapId}/layers`, { layers: [] }),
  export_map_geojson: mapRefused('MAP_NOT_FOUND', 'GET', ({ mapId }) => `maps/${mapId}/geojson`),
  publish_map: mapRefused('MAP_NOT_FOUND', 'POST', ({ mapId }) => `maps/${mapId}/publish`, {}),
  revoke_map_link: mapRefused('MAP_NOT_FOUND', 'POST', ({ mapId }) => `maps/${mapId}/revoke`, {}),
  list_service_zones: async () => {
    const { zoneId } = await mapOfA();
    const answer = await api.get('/api/v1/client/service-zones', { token: adminOfB() });
    assert.ok(answer.body.zones.every((zone: { id: number }) => zone.id !== zoneId));
  },
  upload_service_zone: async () => {
    // B's upload is B's own: A's map still draws A's zone only.
    const ring = [
      [2, 2],
      [2.1, 2],
      [2.1, 2.1],
      [2, 2],
    ];
    const answer = await api.post(
      '/api/v1/client/service-zones',
      { name: 'B zone', geometry: { type: 'Polygon', coordinates: [ring] } },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    const { mapId } = await mapOfA();
    const map = await api.get(`/api/v1/client/maps/${mapId}`, { token: tokenOfA });
    assert.deepEqual(
      map.body.layers[0].geojson.features.map((f: { properties: { name: string } }) => f.properties.name),
      ['A zone'],
    );
  },
  replace_service_zone: mapRefused(
    'SERVICE_ZONE_NOT_FOUND',
    'PUT',
    ({ zoneId }) => `service-zones/${zoneId}`,
    {
      name: 'taken',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
    },
  ),
  delete_service_zone: mapRefused(
    'SERVICE_ZONE_NOT_FOUND',
    'DELETE',
    ({ zoneId }) => `service-zones/${zoneId}`,
  ),
  list_dataset_groups: async () => {
    const { groupId } = await datasetOfA();
    const answer = await api.get('/api/v1/client/dataset-groups', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.groups.every((group: { id: number }) => group.id !== groupId));
  },
  create_dataset_group: async () => {
    await datasetOfA();
    // The same name as A's group is B's own: names are unique per business only.
    const answer = await api.post(
      '/api/v1/client/dataset-groups',
      { name: 'A group' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const asA = await api.get('/api/v1/client/dataset-groups', { token: tokenOfA });
    assert.deepEqual(
      asA.body.groups.map((group: { name: string }) => group.name),
      ['A group'],
    );
  },
  update_dataset_group: async () => {
    const { groupId } = await datasetOfA();
    const answer = await api.call('PATCH', `/api/v1/client/dataset-groups/${groupId}`, {
      token: adminOfB(),
      body: { name: 'taken' },
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
    await datasetOfAStays();
  },
  delete_dataset_group: async () => {
    const { groupId } = await datasetOfA();
    const answer = await api.call(
      'DELETE',
      `/api/v1/client/dataset-groups/${groupId}?ungroup_datasets=true`,
      {
        token: adminOfB(),
      },
    );
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
    await datasetOfAStays();
  },
  list_datasets: async () => {
    const { datasetId, groupId } = await datasetOfA();
    const answer = await api.get('/api/v1/client/datasets', { token: adminOfB() });
    assert.ok(answer.body.datasets.every((dataset: { id: number }) => dataset.id !== datasetId));
    const ofGroup = await api.get(`/api/v1/client/datasets?group_id=${groupId}`, { token: adminOfB() });
    assert.deepEqual(ofGroup.body.datasets, []);
  },
  get_dataset: datasetRefused(({ datasetId }) =>
    api.get(`/api/v1/client/datasets/${datasetId}`, { token: adminOfB() }),
  ),
  create_dataset: async () => {
    const { groupId } = await datasetOfA();
    const answer = await api.post(
      '/api/v1/client/datasets',
      { name: 'Into A', group_id: groupId, fields: [{ name: 'x', type: 'text' }] },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
    await datasetOfAStays();
  },
  update_dataset: datasetRefused(({ datasetId }) =>
    api.call('PATCH', `/api/v1/client/datasets/${datasetId}`, {
      token: adminOfB(),
      body: { name: 'taken', fields: [{ name: 'name', type: 'number' }] },
    }),
  ),
  delete_dataset: datasetRefused(({ datasetId }) =>
    api.call('DELETE', `/api/v1/client/datasets/${datasetId}`, { token: adminOfB() }),
  ),
  search_dataset_records: datasetRefused(({ datasetId }) =>
    api.post(
      `/api/v1/client/datasets/${datasetId}/records/search`,
      { q: 'secret site' },
      { token: adminOfB() },
    ),
  ),
  get_dataset_record: datasetRefused(({ datasetId, recordId }) =>
    api.get(`/api/v1/client/datasets/${datasetId}/records/${recordId}`, { token: adminOfB() }),
  ),
  create_dataset_record: datasetRefused(({ datasetId }) =>
    api.post(
      `/api/v1/client/datasets/${datasetId}/records`,
      { values: { name: 'x' } },
      { token: adminOfB() },
    ),
  ),
  update_dataset_record: datasetRefused(({ datasetId, recordId }) =>
    api.call('PATCH', `/api/v1/client/datasets/${datasetId}/records/${recordId}`, {
      token: adminOfB(),
      body: { values: { name: 'taken' } },
    }),
  ),
  delete_dataset_record: datasetRefused(({ datasetId, recordId }) =>
    api.call('DELETE', `/api/v1/client/datasets/${datasetId}/records/${recordId}`, { token: adminOfB() }),
  ),
  import_dataset_records_csv: datasetRefused(({ datasetId }) =>
    api.post(`/api/v1/client/datasets/${datasetId}/import/csv`, { csv: 'name\nx' }, { token: adminOfB() }),
  ),
  import_dataset_records: datasetRefused(({ datasetId }) =>
    api.post(
      `/api/v1/client/datasets/${datasetId}/import`,
      { records: [{ name: 'x' }] },
      { token: adminOfB() },
    ),
  ),
  list_points_of_interest: async () => {
    const id = await pointOfA();
    const answer = await api.get('/api/v1/client/points-of-interest', { token: adminOfB() });
    assert.ok(answer.body.points.every((point: { id: number }) => point.id !== id));
  },
  create_point_of_interest: async () => {
    const answer = await api.post(
      '/api/v1/client/points-of-interest',
      { name: 'B hub', category: 'hub', line1: '1 B street', lat: 1, lng: 1 },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    const asA = await api.get('/api/v1/client/points-of-interest', { token: tokenOfA });
    assert.ok(asA.body.points.every((point: { name: string }) => point.name !== 'B hub'));
  },
  update_point_of_interest: async () => {
    const id = await pointOfA();
    const answer = await api.call('PATCH', `/api/v1/client/points-of-interest/${id}`, {
      token: adminOfB(),
      body: { name: 'taken' },
    });
    assert.equal(answer.body.error_code, 'POI_NOT_FOUND');
    await pointOfAStays();
  },
  delete_point_of_interest: async () => {
    const id = await pointOfA();
    const answer = await api.call('DELETE', `/api/v1/client/points-of-interest/${id}`, {
      token: adminOfB(),
    });
    assert.equal(answer.body.error_code, 'POI_NOT_FOUND');
    await pointOfAStays();
  },
  geocode_address: async () => {
    await pointOfA();
    const ask = (token: string) => api.get('/api/v1/client/geocode?address=1%20A%20street', { token });
    assert.equal((await ask(tokenOfA)).body.found, true, "A's own hub places A's address");
    const answer = await ask(adminOfB());
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { result: true, found: false, place: null });
  },
  get_orders_summary: async () => {
    const ofA = await api.get('/api/v1/analytics/orders-summary?period=month', { token: tokenOfA });
    assert.ok(ofA.body.created >= 1, JSON.stringify(ofA.body));
    const ofB = await api.get('/api/v1/analytics/orders-summary?period=month', { token: adminOfB() });
    assert.equal(ofB.status, 200);
    assert.equal(ofB.body.created, 0);
    const named = await api.get(`/api/v1/analytics/orders-summary?customer_id=${a.userIds.customer}`, {
      token: adminOfB(),
    });
    assert.equal(named.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  daily_digest: async () => {
    const today = (await api.get('/api/v1/analytics/orders-summary', { token: tokenOfA })).body.period.from;
    const ofA = await api.get(`/api/v1/analytics/daily-digest?date=${today}`, { token: tokenOfA });
    assert.ok(ofA.body.figures.orders_in.value >= 1, JSON.stringify(ofA.body));
    const ofB = await api.get(`/api/v1/analytics/daily-digest?date=${today}`, { token: adminOfB() });
    assert.equal(ofB.status, 200);
    assert.equal(ofB.body.figures.orders_in.value, 0);
    assert.equal(ofB.body.exceptions.count, 0);
  },
  search_address: async () => {
    await savedAddressOfA();
    const answer = await api.get('/api/v1/client/addresses/search?q=secret%20place', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.matches, []);
  },
  list_saved_addresses: async () => {
    const id = await savedAddressOfA();
    const answer = await api.get('/api/v1/client/addresses', { token: adminOfB() });
    assert.ok(answer.body.addresses.every((address: { id: number }) => address.id !== id));
    const named = await api.get(`/api/v1/client/addresses?customer_id=${a.userIds.customer}`, {
      token: adminOfB(),
    });
    assert.equal(named.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  create_saved_address: async () => {
    const answer = await api.post(
      '/api/v1/client/addresses',
      { label: 'x', line1: 'y', customer_id: a.userIds.customer },
      { token: adminOfB() },
    );
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  update_saved_address: async () => {
    const id = await savedAddressOfA();
    const answer = await api.call('PATCH', `/api/v1/client/addresses/${id}`, {
      token: adminOfB(),
      body: { label: 'taken' },
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'ADDRESS_NOT_FOUND');
    await addressOfAUnchanged();
  },
  delete_saved_address: async () => {
    const id = await savedAddressOfA();
    for (const kind of ['client_admin', 'employee', 'customer'] as const) {
      const answer = await api.call('DELETE', `/api/v1/client/addresses/${id}`, { token: tokensOfB[kind] });
      assert.equal(answer.status, 404, `${kind} of B: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'ADDRESS_NOT_FOUND');
    }
    const overGraphql = await api.post(
      '/api/graphql',
      {
        query: 'mutation($id: Int!) { deleteSavedAddress(address_id: $id) { deleted } }',
        variables: { id },
      },
      { token: adminOfB() },
    );
    assert.equal(overGraphql.body.errors?.[0]?.extensions?.error_code, 'ADDRESS_NOT_FOUND');
    assert.equal(overGraphql.body.data?.deleteSavedAddress ?? null, null);
    await addressOfAUnchanged();
  },
  import_saved_addresses: async () => {
    const answer = await api.post(
      '/api/v1/client/addresses/import',
      { csv: 'label,line1\nx,y', customer_id: a.userIds.customer },
      { token: adminOfB() },
    );
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
};
