/**
 * The dataset tests' world: a stand-in geocoder, the customer sites schema, and a business with
 * a dataset of that schema. Each test/datasets-*.test.ts sets up one of its own.
 */
import assert from 'node:assert/strict';
import { ClientError, GraphQLClient } from 'graphql-request';
import type { Queryable } from '../../src/platform/db/database.ts';
import type { GeocodeQuery, GeocodeResult, Geocoder } from '../../src/platform/geocoding.ts';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import { startTestServer, type TestServer } from './server.ts';

/** Places a few known Lyon addresses, knows nothing else, and fails on "outage": records each call. */
export class StandInGeocoder implements Geocoder {
  readonly calls: GeocodeQuery[] = [];
  private readonly known: Record<string, { lat: number; lng: number }> = {
    '8 quai perrache, 69002 lyon': { lat: 45.7485, lng: 4.8262 },
    '1 place bellecour, 69002 lyon': { lat: 45.7578, lng: 4.832 },
    '20 rue de la republique, 69002 lyon': { lat: 45.7625, lng: 4.8357 },
  };

  async geocode(_db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    this.calls.push(query);
    if (query.text.includes('outage')) throw new Error('geocoder unreachable');
    const point = this.known[query.text.toLowerCase()];
    return point ? { ...point, label: query.text, provider: 'stand_in', confidence: 0.9 } : null;
  }
}

export const SITES_FIELDS = [
  { name: 'name', label: 'Site name', type: 'text', required: true },
  { name: 'site', type: 'address', required: true },
  { name: 'status', type: 'enum', values: ['open', 'closed', 'seasonal'], required: true },
  { name: 'docks', type: 'number' },
  { name: 'forklift', type: 'boolean' },
  { name: 'opened_on', type: 'date' },
];

// Records are read field by field, as a test reads JSON.
// biome-ignore lint/suspicious/noExplicitAny: JSON answers
export type Json = any;

export let server: TestServer;
export let api: Client;
export let tenant: Tenant;
export let admin: string;
export let employee: string;
export let datasetId: number;
export const geocoder = new StandInGeocoder();

export const records = (id = datasetId) => `/api/v1/client/datasets/${id}/records`;
export const addRecord = (values: Record<string, unknown>, token = admin, id = datasetId) =>
  api.post(records(id), { values }, { token });
export const search = (body: Record<string, unknown>, token = admin, id = datasetId) =>
  api.post(`${records(id)}/search`, body, { token });
export const fieldsAtFault = (body: Json) =>
  (body.details.fields as Array<{ field: string }>).map((field) => field.field).sort();
export const graphql = (token: string, headers: Record<string, string> = {}) =>
  new GraphQLClient(`${server.baseUrl}/api/graphql`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
export const graphqlRefusal = async (request: Promise<unknown>) => {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ClientError, String(error));
    const [first] = error.response.errors ?? [];
    return { message: first!.message, extensions: first!.extensions as Json };
  }
  assert.fail('expected a GraphQL error');
};

/** A business, its admin and employee logged in, and its dataset of customer sites. */
export async function setUpDatasets(): Promise<void> {
  server = await startTestServer({}, { geocoder });
  api = client(server.baseUrl);
  tenant = await createTenant(server.db, server.app.services, 'datasets');
  admin = await login(api, tenant.emails.client_admin);
  employee = await login(api, tenant.emails.employee);
  const group = await api.post('/api/v1/client/dataset-groups', { name: 'Customers' }, { token: admin });
  assert.equal(group.status, 200, JSON.stringify(group.body));
  const created = await api.post(
    '/api/v1/client/datasets',
    { name: 'Customer sites', group_id: group.body.group.id, fields: SITES_FIELDS },
    { token: admin },
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  datasetId = created.body.dataset.id;
}
