import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gql } from 'graphql-request';
import {
  addRecord,
  admin,
  api,
  datasetId,
  employee,
  fieldsAtFault,
  geocoder,
  graphql,
  graphqlRefusal,
  type Json,
  records,
  SITES_FIELDS,
  search,
  server,
  setUpDatasets,
  tenant,
} from './support/datasets.ts';
import { createTenant, issuedToken, login } from './support/fixtures.ts';

describe('datasets', () => {
  before(setUpDatasets);
  after(() => server.close());

  it('keeps groups and datasets with their schema, and refuses a bad schema naming the field', async () => {
    const listed = await api.get('/api/v1/client/datasets', { token: employee });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const sites = listed.body.datasets.find((dataset: Json) => dataset.id === datasetId);
    assert.equal(sites.group.name, 'Customers');
    assert.deepEqual(
      sites.fields.map((field: Json) => [field.name, field.type, field.required]),
      [
        ['name', 'text', true],
        ['site', 'address', true],
        ['status', 'enum', true],
        ['docks', 'number', false],
        ['forklift', 'boolean', false],
        ['opened_on', 'date', false],
      ],
    );
    const groups = await api.get('/api/v1/client/dataset-groups', { token: employee });
    assert.deepEqual(
      groups.body.groups.map((group: Json) => [group.name, group.dataset_count]),
      [['Customers', 1]],
    );
    const badFields = async (fields: unknown[]) => {
      const answer = await api.post('/api/v1/client/datasets', { name: 'Broken', fields }, { token: admin });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      return fieldsAtFault(answer.body);
    };
    assert.deepEqual(
      await badFields([
        { name: 'Name', type: 'text' },
        { name: 'colour', type: 'colour' },
      ]),
      ['fields.0.name', 'fields.1.type'],
    );
    assert.deepEqual(
      await badFields([
        { name: 'kind', type: 'enum' },
        { name: 'where', type: 'address' },
        { name: 'point', type: 'geo_point' },
        { name: 'kind', type: 'number', values: ['a'] },
      ]),
      ['fields.0.values', 'fields.2.type', 'fields.3.name', 'fields.3.values'],
    );
    const duplicate = await api.post(
      '/api/v1/client/datasets',
      { name: 'customer SITES', fields: [{ name: 'x', type: 'text' }] },
      { token: admin },
    );
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.error_code, 'ALREADY_EXISTS');
  });

  it('places records: coordinates provided, geocoded, not found, or unavailable without losing the record', async () => {
    const calls = geocoder.calls.length;
    const provided = await addRecord({
      name: 'Perrache depot',
      site: { text: '8 Quai Perrache, 69002 Lyon', lat: 45.7486, lng: 4.8263 },
      status: 'open',
      docks: 6,
      forklift: true,
      opened_on: '2019-04-01',
    });
    assert.equal(provided.status, 200, JSON.stringify(provided.body));
    assert.equal(provided.body.record.geocoding.status, 'provided');
    assert.deepEqual(provided.body.record.location, { lat: 45.7486, lng: 4.8263 });
    assert.equal(geocoder.calls.length, calls, 'given coordinates are not geocoded again');

    const geocoded = await addRecord(
      {
        name: 'Bellecour shop',
        site: { text: '1 Place Bellecour, 69002 Lyon', country: 'FR' },
        status: 'open',
        docks: 1,
      },
      employee,
    );
    assert.equal(geocoded.body.record.geocoding.status, 'geocoded');
    assert.equal(geocoded.body.record.geocoding.provider, 'stand_in');
    assert.deepEqual(geocoded.body.record.location, { lat: 45.7578, lng: 4.832 });
    assert.deepEqual(geocoder.calls.at(-1), {
      businessId: tenant.businessId,
      text: '1 Place Bellecour, 69002 Lyon',
      country: 'FR',
    });

    const unknown = await addRecord({
      name: 'Nowhere',
      site: { text: '99 Rue Inconnue, Lyon' },
      status: 'closed',
    });
    assert.equal(unknown.body.record.geocoding.status, 'not_found');
    assert.equal(unknown.body.record.location, null);

    const down = await addRecord({
      name: 'Outage site',
      site: { text: '3 outage street' },
      status: 'seasonal',
    });
    assert.equal(down.status, 200, JSON.stringify(down.body));
    assert.equal(down.body.record.geocoding.status, 'unavailable');
    assert.equal(down.body.record.location, null);
    const kept = await api.get(`${records()}/${down.body.record.id}`, { token: employee });
    assert.equal(kept.body.record.values.name, 'Outage site');

    // A change elsewhere keeps the point; a new address is placed again.
    const before = geocoder.calls.length;
    const renamed = await api.call('PATCH', `${records()}/${geocoded.body.record.id}`, {
      token: employee,
      body: { values: { name: 'Bellecour flagship', docks: null } },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.record.values.name, 'Bellecour flagship');
    assert.equal(renamed.body.record.values.docks, undefined);
    assert.equal(renamed.body.record.geocoding.status, 'geocoded');
    assert.equal(geocoder.calls.length, before);
    const moved = await api.call('PATCH', `${records()}/${unknown.body.record.id}`, {
      token: employee,
      body: { values: { site: { text: '20 Rue de la Republique, 69002 Lyon' } } },
    });
    assert.equal(moved.body.record.geocoding.status, 'geocoded');
    assert.deepEqual(moved.body.record.location, { lat: 45.7625, lng: 4.8357 });
    const dataset = await api.get(`/api/v1/client/datasets/${datasetId}`, { token: employee });
    assert.equal(dataset.status, 200, JSON.stringify(dataset.body));
    assert.equal(dataset.body.dataset.record_count, 4);
    assert.deepEqual(dataset.body.dataset.geocoding, {
      none: 0,
      provided: 1,
      geocoded: 2,
      pending: 0,
      not_found: 0,
      unavailable: 1,
    });
  });

  it('keeps nothing of a dry run, geocoding included', async () => {
    const count = async () =>
      (await api.get(`/api/v1/client/datasets/${datasetId}`, { token: admin })).body.dataset.record_count;
    const before = await count();
    const dry = await api.post(
      records(),
      { values: { name: 'Dry site', status: 'open', site: { text: '1 Place Bellecour, 69002 Lyon' } } },
      { token: employee, headers: { 'x-dry-run': '1' } },
    );
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.record.geocoding.status, 'geocoded');
    assert.equal(await count(), before);
  });

  it('imports a CSV with a report per row, and saves nothing of a bad batch when asked all or nothing', async () => {
    const csv = [
      'name,site,site.lat,site.lng,status,docks,forklift,opened_on',
      'Vaise hub,"5 Rue de Bourgogne, 69009 Lyon",45.7736,4.8055,open,4,yes,2021-06-01',
      'Bad row,"6 Rue X, Lyon",,,unknown,three,maybe,',
      'Gerland yard,"1 Rue de Gerland, 69007 Lyon",45.7322,4.8318,closed,2,no,',
    ].join('\n');
    const count = async () =>
      (await api.get(`/api/v1/client/datasets/${datasetId}`, { token: admin })).body.dataset.record_count;
    const before = await count();
    const strict = await api.post(
      `/api/v1/client/datasets/${datasetId}/import/csv`,
      { csv, all_or_nothing: true },
      { token: employee },
    );
    assert.equal(strict.status, 200, JSON.stringify(strict.body));
    assert.equal(strict.body.result, false);
    assert.equal(strict.body.created, 0);
    assert.equal(strict.body.refused, 1);
    assert.deepEqual(
      strict.body.rows.map((row: Json) => [row.line, row.success, row.error_code]),
      [
        [2, false, 'NOT_SAVED'],
        [3, false, 'VALIDATION_FAILED'],
        [4, false, 'NOT_SAVED'],
      ],
    );
    assert.equal(await count(), before, 'all or nothing leaves nothing');
    const lenient = await api.post(
      `/api/v1/client/datasets/${datasetId}/import/csv`,
      { csv },
      { token: employee },
    );
    assert.equal(lenient.body.created, 2);
    assert.deepEqual(
      lenient.body.rows.map((row: Json) => [row.line, row.success]),
      [
        [2, true],
        [3, false],
        [4, true],
      ],
    );
    assert.deepEqual(fieldsAtFault(lenient.body.rows[1]), [
      'values.docks',
      'values.forklift',
      'values.status',
    ]);
    const vaise = await api.get(`${records()}/${lenient.body.rows[0].id}`, { token: admin });
    assert.deepEqual(vaise.body.record.values, {
      name: 'Vaise hub',
      site: { text: '5 Rue de Bourgogne, 69009 Lyon', lat: 45.7736, lng: 4.8055 },
      status: 'open',
      docks: 4,
      forklift: true,
      opened_on: '2021-06-01',
    });
    assert.equal(vaise.body.record.geocoding.status, 'provided');
    assert.equal(await count(), before + 2);
    const unreadable = await api.post(
      `/api/v1/client/datasets/${datasetId}/import/csv`,
      { csv: 'name,site\n"open' },
      { token: admin },
    );
    assert.equal(unreadable.status, 422);
    assert.equal(unreadable.body.error_code, 'CSV_UNREADABLE');
  });

  it('imports JSON records with a report by index, all or nothing when asked', async () => {
    const other = await api.post(
      '/api/v1/client/datasets',
      {
        name: 'Partner lockers',
        fields: [
          { name: 'code', type: 'text', required: true },
          { name: 'point', type: 'geo_point', required: true },
        ],
      },
      { token: admin },
    );
    const id = other.body.dataset.id;
    const batch = [
      { code: 'L1', point: { lat: 45.76, lng: 4.85 } },
      { code: 'L2', point: { lat: 91, lng: 4.85 } },
      { code: 'L3', point: { lat: 45.74, lng: 4.84 } },
    ];
    const strict = await api.post(
      `/api/v1/client/datasets/${id}/import`,
      { records: batch, all_or_nothing: true },
      { token: admin },
    );
    assert.equal(strict.status, 200, JSON.stringify(strict.body));
    assert.equal(strict.body.created, 0);
    assert.deepEqual(fieldsAtFault(strict.body.rows[1]), ['values.point.lat']);
    assert.equal(
      (await api.get(`/api/v1/client/datasets/${id}`, { token: admin })).body.dataset.record_count,
      0,
    );
    const lenient = await api.post(
      `/api/v1/client/datasets/${id}/import`,
      { records: batch },
      { token: admin },
    );
    assert.deepEqual(
      lenient.body.rows.map((row: Json) => [row.index, row.success]),
      [
        [0, true],
        [1, false],
        [2, true],
      ],
    );
    const near = await search(
      { near: { lat: 45.76, lng: 4.85, radius_m: 5_000 }, order: 'distance' },
      admin,
      id,
    );
    assert.deepEqual(
      near.body.records.map((record: Json) => [record.values.code, record.geocoding.status]),
      [
        ['L1', 'provided'],
        ['L3', 'provided'],
      ],
    );
    const tooMany = await api.post(
      `/api/v1/client/datasets/${id}/import`,
      { records: Array.from({ length: 5_001 }, (_, i) => ({ code: `C${i}` })) },
      { token: admin },
    );
    assert.equal(tooMany.status, 422);
    assert.deepEqual(fieldsAtFault(tooMany.body), ['records']);
  });

  it('searches by field conditions, words with a typo and distance, paged', async () => {
    const names = (answer: Json) => {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.records.map((record: Json) => record.values.name);
    };
    const open = await search({ where: { status: { eq: 'open' } }, per_page: 200 });
    assert.equal(open.status, 200, JSON.stringify(open.body));
    const any = await search({});
    assert.equal(any.status, 200, JSON.stringify(any.body));
    assert.deepEqual(names(open).sort(), ['Bellecour flagship', 'Perrache depot', 'Vaise hub']);
    const docks = await search({ where: { docks: { gte: 2, lt: 6 } } });
    assert.deepEqual(names(docks).sort(), ['Gerland yard', 'Vaise hub']);
    const statuses = await search({ where: { status: { in: ['closed', 'seasonal'] } } });
    assert.deepEqual(names(statuses).sort(), ['Gerland yard', 'Nowhere', 'Outage site']);
    const since = await search({ where: { opened_on: { gte: '2020-01-01' }, forklift: { eq: true } } });
    assert.deepEqual(names(since), ['Vaise hub']);

    const words = await search({ q: 'perache depo' });
    assert.equal(names(words)[0], 'Perrache depot');
    assert.ok(words.body.records[0].score > 0.4);
    assert.deepEqual(names(await search({ q: 'zzqqxx' })), []);

    // From the Perrache depot: Bellecour 1,128 m, the Republique site 1,722 m, Gerland 1,864 m, Vaise 3,220 m.
    const near = await search({ near: { lat: 45.7485, lng: 4.8262, radius_m: 1_800 }, order: 'distance' });
    assert.deepEqual(names(near), ['Perrache depot', 'Bellecour flagship', 'Nowhere']);
    const distances = near.body.records.map((record: Json) => record.distance_m);
    assert.ok(distances[0] < 20, JSON.stringify(distances));
    assert.deepEqual(distances.slice(1), [1_128, 1_722]);

    const page = await search({ per_page: 2, page: 2 });
    assert.equal(page.body.total, 6);
    assert.equal(page.body.page, 2);
    assert.equal(page.body.records.length, 2);

    const bad = await search({
      where: { docks: { gte: 'two' }, forklift: { gt: 1 }, colour: { eq: 'red' }, site: { eq: 'x' } },
      order: 'distance',
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(fieldsAtFault(bad.body), ['order']);
    const badWhere = await search({
      where: { docks: { gte: 'two' }, forklift: { gt: 1 }, colour: { eq: 'red' }, site: { eq: 'x' } },
    });
    assert.equal(badWhere.status, 422);
    assert.deepEqual(fieldsAtFault(badWhere.body), [
      'where.colour',
      'where.docks.gte',
      'where.forklift.gt',
      'where.site.eq',
    ]);
  });

  it('finds placed records by address for the address search and the geocoder (searchPlaces)', async () => {
    const places = await server.app.services.datasets.searchPlaces(
      server.db,
      tenant.businessId,
      'quai perache lyon',
      5,
    );
    assert.equal(places[0]?.label, 'Perrache depot');
    assert.equal(places[0]?.dataset_name, 'Customer sites');
    assert.equal(places[0]?.dataset_id, datasetId);
    assert.equal(places[0]?.address_text, '8 Quai Perrache, 69002 Lyon');
    assert.deepEqual([places[0]?.lat, places[0]?.lng], [45.7486, 4.8263]);
    assert.ok(places[0]!.score >= 0.4 && places[0]!.score <= 1);
    // Unplaced records (the outage) are never offered as places.
    assert.deepEqual(
      await server.app.services.datasets.searchPlaces(server.db, tenant.businessId, 'outage street', 5),
      [],
    );
    const other = await createTenant(server.db, server.app.services, 'datasets-places');
    assert.deepEqual(
      await server.app.services.datasets.searchPlaces(server.db, other.businessId, 'quai perrache', 5),
      [],
    );
  });

  it('changes a schema only when every record stays valid', async () => {
    const change = (fields: unknown[]) =>
      api.call('PATCH', `/api/v1/client/datasets/${datasetId}`, { token: admin, body: { fields } });
    const conflict = await change(
      SITES_FIELDS.map((field) => (field.name === 'docks' ? { ...field, required: true } : field)),
    );
    assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
    assert.equal(conflict.body.error_code, 'DATASET_SCHEMA_CONFLICT');
    assert.equal(conflict.body.details.records.length, 3, JSON.stringify(conflict.body.details));
    assert.deepEqual(
      conflict.body.details.records[0].fields.map((field: Json) => field.field),
      ['values.docks'],
    );
    const narrowed = await change(
      SITES_FIELDS.map((field) =>
        field.name === 'status' ? { ...field, values: ['open', 'closed'] } : field,
      ),
    );
    assert.equal(narrowed.body.error_code, 'DATASET_SCHEMA_CONFLICT');
    // Adding an optional field and dropping one keeps every record valid: the dropped values go.
    const widened = await change([
      ...SITES_FIELDS.filter((field) => field.name !== 'opened_on'),
      { name: 'manager', type: 'text' },
    ]);
    assert.equal(widened.status, 200, JSON.stringify(widened.body));
    assert.deepEqual(
      widened.body.dataset.fields.map((field: Json) => field.name),
      ['name', 'site', 'status', 'docks', 'forklift', 'manager'],
    );
    const vaise = await search({ q: 'vaise hub' });
    assert.equal(vaise.body.records[0].values.opened_on, undefined);
    const renamed = await api.call('PATCH', `/api/v1/client/datasets/${datasetId}`, {
      token: admin,
      body: { name: 'Customer sites (Lyon)', description: 'Where we deliver' },
    });
    assert.equal(renamed.body.dataset.name, 'Customer sites (Lyon)');
    assert.equal(renamed.body.dataset.fields.length, 6);
  });

  it("never shows or changes one business's datasets to another", async () => {
    const other = await createTenant(server.db, server.app.services, 'datasets-other');
    const intruder = await login(api, other.emails.client_admin);
    const listed = await api.get('/api/v1/client/datasets', { token: intruder });
    assert.deepEqual(listed.body.datasets, []);
    assert.deepEqual((await api.get('/api/v1/client/dataset-groups', { token: intruder })).body.groups, []);
    const [record] = (await search({ q: 'perrache' })).body.records;
    const refusals = [
      await api.get(`/api/v1/client/datasets/${datasetId}`, { token: intruder }),
      await search({ q: 'perrache' }, intruder),
      await api.get(`${records()}/${record.id}`, { token: intruder }),
      await addRecord({ name: 'x', status: 'open', site: { text: 'x street' } }, intruder),
      await api.call('PATCH', `${records()}/${record.id}`, {
        token: intruder,
        body: { values: { name: 'taken' } },
      }),
      await api.call('DELETE', `${records()}/${record.id}`, { token: intruder }),
      await api.post(
        `/api/v1/client/datasets/${datasetId}/import/csv`,
        { csv: 'name\nx' },
        { token: intruder },
      ),
      await api.post(
        `/api/v1/client/datasets/${datasetId}/import`,
        { records: [{ name: 'x' }] },
        { token: intruder },
      ),
      await api.call('PATCH', `/api/v1/client/datasets/${datasetId}`, {
        token: intruder,
        body: { name: 'taken' },
      }),
      await api.call('DELETE', `/api/v1/client/datasets/${datasetId}`, { token: intruder }),
    ];
    for (const answer of refusals) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'DATASET_NOT_FOUND');
    }
    const groupOfA = (await api.get('/api/v1/client/dataset-groups', { token: admin })).body.groups[0];
    const moved = await api.post(
      '/api/v1/client/datasets',
      { name: 'Into A', group_id: groupOfA.id, fields: [{ name: 'x', type: 'text' }] },
      { token: intruder },
    );
    assert.equal(moved.body.error_code, 'DATASET_GROUP_NOT_FOUND');
    const renamed = await api.call('PATCH', `/api/v1/client/dataset-groups/${groupOfA.id}`, {
      token: intruder,
      body: { name: 'taken' },
    });
    assert.equal(renamed.body.error_code, 'DATASET_GROUP_NOT_FOUND');
    const unchanged = await api.get(`${records()}/${record.id}`, { token: admin });
    const { score: _score, distance_m: _distance, ...asItWas } = record;
    assert.deepEqual(unchanged.body.record, asItWas);
  });

  it('answers the four agent tools to a datasets-readonly agent token', async () => {
    const token = await issuedToken(server, {
      userId: tenant.userIds.employee,
      kind: 'agent',
      profile: 'datasets-readonly',
    });
    const mcp = new McpClient({ name: 'datasets-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        ((await mcp.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Json })
          .structuredContent;
      const tools = (await mcp.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(tools.filter((name) => name.includes('dataset')).sort(), [
        'get_dataset',
        'list_dataset_groups',
        'list_datasets',
        'search_dataset_records',
      ]);
      assert.equal((await call('list_dataset_groups', {})).groups[0].name, 'Customers');
      const listed = await call('list_datasets', {});
      assert.ok(listed.datasets.some((dataset: Json) => dataset.id === datasetId));
      assert.equal((await call('get_dataset', { dataset_id: datasetId })).dataset.id, datasetId);
      const found = await call('search_dataset_records', {
        dataset_id: datasetId,
        where: { status: { eq: 'open' } },
        near: { lat: 45.7578, lng: 4.832, radius_m: 500 },
        order: 'distance',
      });
      assert.equal(found.records[0].values.name, 'Bellecour flagship');
      assert.equal(found.records[0].distance_m, 0);
    } finally {
      await mcp.close();
    }
  });

  it('answers GraphQL alike, refusals included', async () => {
    const answer = await graphql(employee).request<Json>(
      gql`
        query ($id: Int!) {
          dataset(dataset_id: $id) {
            dataset {
              name
              record_count
              fields {
                name
                type
              }
            }
          }
          searchDatasetRecords(dataset_id: $id, q: "bellecour flagship", per_page: 1) {
            total
            records {
              values
              score
              geocoding {
                status
              }
            }
          }
        }
      `,
      { id: datasetId },
    );
    assert.equal(answer.dataset.dataset.name, 'Customer sites (Lyon)');
    assert.equal(answer.searchDatasetRecords.records[0].values.name, 'Bellecour flagship');
    assert.equal(answer.searchDatasetRecords.records[0].geocoding.status, 'geocoded');
    const created = await graphql(employee).request<Json>(
      gql`
        mutation ($id: Int!, $values: JSON!) {
          createDatasetRecord(dataset_id: $id, values: $values) {
            record {
              id
              values
            }
          }
        }
      `,
      {
        id: datasetId,
        values: { name: 'GraphQL site', status: 'open', site: { text: '1 Place Bellecour, 69002 Lyon' } },
      },
    );
    assert.equal(created.createDatasetRecord.record.values.name, 'GraphQL site');
    const refused = await graphqlRefusal(
      graphql(employee, { 'accept-language': 'de' }).request(
        gql`
          mutation ($id: Int!, $values: JSON!) {
            createDatasetRecord(dataset_id: $id, values: $values) {
              record {
                id
              }
            }
          }
        `,
        { id: datasetId, values: { name: 'x', status: 'gone', site: { text: 'x street' } } },
      ),
    );
    assert.equal(refused.extensions.error_code, 'VALIDATION_FAILED');
    assert.equal(refused.extensions.status, 422);
    assert.deepEqual(
      refused.extensions.details.fields.map((field: Json) => field.field),
      ['values.status'],
    );
    const forbidden = await graphqlRefusal(
      graphql(employee).request(
        gql`
          mutation {
            deleteDataset(dataset_id: 1) {
              deleted
            }
          }
        `,
      ),
    );
    assert.equal(forbidden.extensions.error_code, 'FORBIDDEN');
  });
});
