import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { responseOf, standaloneSchema } from './support/openapi-schema.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './support/server.ts';

// What generated clients read: a dry run's answer fits the success schema the OpenAPI document
// publishes for its operation, and a 401 tells the caller how to authenticate (WWW-Authenticate).

describe('the answers the contract describes', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let document: any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);

  /** The 200 JSON schema the served OpenAPI document gives the operation of this route. */
  const successSchemaOf = (method: string, path: string) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    assert.ok(operation, `${method} ${path} is documented`);
    return standaloneSchema(operation.responses['200'].content['application/json'].schema, document);
  };
  const assertFits = (method: string, path: string, answer: Answer) => {
    assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    const validate = ajv.compile(successSchemaOf(method, path));
    assert.ok(
      validate(answer.body),
      `${method} ${path}: the dry run's answer does not fit its documented schema: ${ajv.errorsText(validate.errors)}`,
    );
  };
  const dryRun = { 'x-dry-run': '1' };

  before(async () => {
    server = await startTestServer({ webhooks: loopbackWebhooks() });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'contract');
    admin = await login(api, tenant.emails.client_admin);
    document = (await api.get('/api/openapi.json')).body;
    const saved = await api.call('PUT', '/api/v1/webhook-settings', {
      token: admin,
      body: { generate_secret: true },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => server.close());

  it('answers dry runs of writes in the shape the OpenAPI document gives them', async () => {
    const login = await api.post(
      '/api/v1/user/login',
      { email: tenant.emails.employee, password: 'correct horse battery' },
      { headers: dryRun },
    );
    assertFits('POST', '/v1/user/login', login);
    assert.equal(login.body.dry_run, true);
    assert.deepEqual(login.body.skipped_effects, []);

    const order = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: DROPOFF },
      { token: admin, headers: dryRun },
    );
    assertFits('POST', '/v1/client/orderCreate', order);

    const credit = await api.post(
      `/api/v1/client/customers/${tenant.userIds.customer}/credits`,
      { amount: '5.00', currency: 'EUR', reason: 'goodwill' },
      { token: admin, headers: dryRun },
    );
    assertFits('POST', '/v1/client/customers/{customer_id}/credits', credit);

    // An effect beyond the database, not made and listed.
    const delivery = await api.post(
      '/api/v1/webhook-settings/test',
      { url: 'http://127.0.0.1:9/dry' },
      { token: admin, headers: dryRun },
    );
    assertFits('POST', '/v1/webhook-settings/test', delivery);
    assert.equal(delivery.body.skipped_effects.length, 1);
    assert.equal(delivery.body.skipped_effects[0].kind, 'http');

    // The same schema holds the answer of the call that is kept, without the two fields.
    const kept = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    assertFits('POST', '/v1/client/orderCreate', kept);
    assert.equal(kept.body.dry_run, undefined);
  });

  it('lists the dry-run fields in the agent tools document and the GraphQL result types', async () => {
    const tools = (await api.get('/api/ai/tools/openapi')).body;
    const answer = tools.paths['/v1/client/orderCreate'].post.responses['200'].content['application/json'];
    assert.deepEqual(Object.keys(answer.schema.properties).slice(-2), ['dry_run', 'skipped_effects']);
    const read = document.paths['/v1/client/orders'].get.responses['200'].content['application/json'];
    assert.equal(read.schema.properties.dry_run, undefined, 'a read answers no dry run');

    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}`, ...dryRun },
    });
    const answered = await graphql.request<{
      addAccountCredit: { dry_run: boolean; skipped_effects: unknown[] };
    }>(
      gql`
        mutation Credit($customer: Int!) {
          addAccountCredit(customer_id: $customer, amount: "5.00", currency: "EUR", reason: "goodwill") {
            dry_run
            skipped_effects { kind description }
          }
        }
      `,
      { customer: tenant.userIds.customer },
    );
    assert.deepEqual(answered.addAccountCredit, { dry_run: true, skipped_effects: [] });
  });

  it('names the challenge of every refused credential in WWW-Authenticate, in the error shape', async () => {
    const refusals: Array<[Answer, string, string]> = [
      [await api.get('/api/v1/user/me'), 'UNAUTHENTICATED', 'Bearer realm="tms"'],
      [
        await api.get('/api/v1/user/me', { token: 'tms_not-a-real-token' }),
        'UNAUTHENTICATED',
        'Bearer realm="tms", error="invalid_token"',
      ],
      [
        await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: 'tms_gone' }),
        'UNAUTHENTICATED',
        'Bearer realm="tms", error="invalid_token"',
      ],
      [
        await api.post('/api/v1/otep/ingest', { events: [] }),
        'PROVIDER_CREDENTIAL_REQUIRED',
        'OTEP-Provider-Key realm="tms"',
      ],
      [
        await api.post(
          '/api/v1/otep/ingest',
          { events: [] },
          { headers: { 'x-otep-provider-key': 'wrong' } },
        ),
        'PROVIDER_CREDENTIAL_REQUIRED',
        'OTEP-Provider-Key realm="tms", error="invalid_key"',
      ],
    ];
    for (const [answer, code, challenge] of refusals) {
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, code);
      assert.equal(typeof answer.body.message, 'string');
      assert.equal(answer.headers.get('www-authenticate'), challenge);
    }
    // GraphQL answers a missing token beside its data, never as a 401 (docs/errors.md).
    const graphql = await api.post('/api/graphql', { query: '{ me { user { id } } }' });
    assert.equal(graphql.status, 200, JSON.stringify(graphql.body));
    assert.equal(graphql.body.errors[0].extensions.error_code, 'UNAUTHENTICATED');
    const documented = responseOf(document, document.paths['/v1/user/me'].get.responses['401']).headers;
    assert.ok(documented['WWW-Authenticate'], 'the OpenAPI document names the header of a 401');
    // A refusal of anything but the credential names no challenge.
    const employee = await login(api, tenant.emails.employee);
    const forbidden = await api.post(
      '/api/v1/webhook-settings/test',
      { url: 'http://127.0.0.1:9/' },
      { token: employee },
    );
    assert.equal(forbidden.status, 403, JSON.stringify(forbidden.body));
    assert.equal(forbidden.headers.get('www-authenticate'), null);
  });
});
