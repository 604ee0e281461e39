/**
 * Business A and business B for the tenant isolation tests: B's tokens, and A's order, route,
 * contractor rule, tracking provider, failed webhook delivery and app that B's calls aim at.
 * Each test/tenancy-*.test.ts file runs one family of checks (test/support/tenancy-*.ts) against
 * a world of its own; test/tenancy.test.ts makes sure the families together cover every
 * operation that needs a token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ACCOUNT_KINDS } from '../../src/platform/catalog/operation.ts';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './server.ts';

/** Each check is named after the operation it covers. */
export type Checks = Record<string, () => Promise<void>>;

export let server: TestServer;
export let api: Client;
export let a: Tenant;
export let b: Tenant;
export const tokensOfB: Record<string, string> = {};

export let orderOfA: { id: number; order_ref: string; tracking_number: string };
export const adminOfB = () => tokensOfB.client_admin!;
/** A's order, as its own admin sees it; must be unchanged by anything B does. */
export const orderAsA = async () =>
  (await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: tokenOfA })).body.order;
export let tokenOfA: string;
export let routeOfA: number;
export let ruleOfA: number;
export let providerOfA: { id: number; key: string };
export let providerKeyOfB: string;
export let deliveryOfA: number;
/** An app assigned to A only. */
export const appOfA = 'tenancy-app';

/** The two businesses and what A owns before any check runs. */
async function setUp(): Promise<void> {
  // Loopback allowed for webhooks: A's receiver is a closed local port, so its delivery fails fast.
  // Loopback allowed for third-party providers too: A's stand-in provider listens there.
  const { thirdParty } = loadConfig({ LOG_LEVEL: 'silent' });
  server = await startTestServer({
    webhooks: loopbackWebhooks(),
    thirdParty: {
      ...thirdParty,
      allow: { ...thirdParty.allow, loopback: true },
      credentialKey: 'k'.repeat(40),
    },
  });
  api = client(server.baseUrl);
  a = await createTenant(server.db, server.app.services, 'alpha');
  b = await createTenant(server.db, server.app.services, 'bravo');
  for (const kind of ACCOUNT_KINDS) tokensOfB[kind] = await login(api, b.emails[kind]);
  tokenOfA = await login(api, a.emails.client_admin);
  const created = await api.post(
    '/api/v1/client/orderCreate',
    { order_ref: 'only-in-a', scheduled_date: '2026-11-03', dropoff: { line1: '1 A street' } },
    { token: tokenOfA },
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  orderOfA = {
    id: created.body.order_id,
    order_ref: 'only-in-a',
    tracking_number: created.body.tracking_number,
  };
  // A route of A's, planned from one located order on a driver with a depot.
  const depot = await api.post(
    '/api/v1/client/depots',
    { name: 'A depot', lat: 48.85, lng: 2.35 },
    { token: tokenOfA },
  );
  await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
    token: tokenOfA,
    body: {
      depot_id: depot.body.depot.id,
      capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 50 },
      shift: { start: '08:00', end: '18:00' },
    },
  });
  await api.post(
    '/api/v1/client/orderCreate',
    { scheduled_date: '2026-11-04', dropoff: { line1: 'x', lat: 48.86, lng: 2.36 } },
    { token: tokenOfA },
  );
  const built = await api.post('/api/v3/client/build-route', { date: '2026-11-04' }, { token: tokenOfA });
  assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
  routeOfA = built.body.routes[0].id;
  const rule = await api.post(
    '/api/v1/client/contractor-rules',
    { contractor_company_id: a.contractorCompanyId, postal_prefixes: ['75'], valid_from: '2026-11-01' },
    { token: tokenOfA },
  );
  assert.equal(rule.status, 200, JSON.stringify(rule.body));
  ruleOfA = rule.body.rule.id;
  // Held, so it shows among A's exceptions and must not among B's.
  await api.post(`/api/v1/client/orders/${orderOfA.id}/hold`, {}, { token: tokenOfA });
  const providerA = await api.post(
    '/api/v1/client/otep/providers',
    { name: 'A pusher' },
    { token: tokenOfA },
  );
  providerOfA = providerA.body.provider;
  providerKeyOfB = (
    await api.post('/api/v1/client/otep/providers', { name: 'B own pusher' }, { token: adminOfB() })
  ).body.provider.key;
  // A webhook of A's to a closed port: a failed delivery logged for A.
  await api.call('PUT', '/api/v1/webhook-settings', {
    token: tokenOfA,
    body: { urls: { 'order.created': 'http://127.0.0.1:9/hook' } },
  });
  await api.post('/api/v1/client/orderCreate', { dropoff: { line1: 'hook' } }, { token: tokenOfA });
  await server.app.outbox.drainOnce();
  deliveryOfA = (await api.get('/api/v1/webhook-deliveries', { token: tokenOfA })).body.deliveries[0].id;
  // Contractor assignment on for both businesses; A hands its held order to its contractor.
  const platform = await login(api, a.emails.platform_admin);
  await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
    token: platform,
    body: { available: true },
  });
  for (const business of [a, b]) {
    await api.call(
      'PUT',
      `/api/v1/platform/businesses/${business.businessId}/modules/contractor_assignment`,
      {
        token: platform,
        body: { enabled: true },
      },
    );
  }
  const assigned = await api.post(
    '/api/v1/broker-order-assignments',
    { order_ids: [orderOfA.id], broker_id: a.userIds.contractor },
    { token: tokenOfA },
  );
  assert.equal(assigned.body.assigned, 1, JSON.stringify(assigned.body));
  const app = await api.call('PUT', `/api/v1/platform/apps/${appOfA}`, {
    token: platform,
    body: { name: 'A app', type: 'customer', schema_version: 1, allowed_roles: ['customer'] },
  });
  assert.equal(app.status, 200, JSON.stringify(app.body));
  const assignment = await api.call('PUT', `/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
    token: platform,
    body: {},
  });
  assert.equal(assignment.status, 200, JSON.stringify(assignment.body));
}

/** One family's checks, each a test, on a server and two businesses of their own. */
export function isolationSuite(family: string, checks: Checks): void {
  describe(`tenant isolation: ${family}`, () => {
    before(setUp);
    after(() => server.close());

    for (const [name, check] of Object.entries(checks)) {
      it(`keeps ${name} inside the caller's business`, check);
    }
  });
}

/**
 * B's admin lists `path`: none of the rows A sees there (matched by `key`), once `setUp` has
 * given A some.
 */
export const listsNothingOfAIn =
  (setUp: () => Promise<unknown>, path: string, field: string, key = 'id') =>
  async () => {
    await setUp();
    const mine = (await api.get(path, { token: tokenOfA })).body[field] as Array<Record<string, unknown>>;
    assert.ok(mine.length > 0, `A has ${field}`);
    const listed = await api.get(path, { token: adminOfB() });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const ids = new Set(mine.map((one) => one[key]));
    assert.deepEqual(
      (listed.body[field] as Array<Record<string, unknown>>).filter((one) => ids.has(one[key])),
      [],
    );
  };
