import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getIntrospectionQuery } from 'graphql';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { loadConfig } from '../src/config.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer, UNLIMITED } from './support/server.ts';

const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${field}`).join(' ')} }`;

/** A GraphQL request is measured before anything runs: size, depth, aliases and cost, by caller. */
describe('GraphQL query budgets', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  /** Operations the executor ran (a refused request must run none). */
  let executed = 0;

  const graphql = (query: string, options: { token?: string; variables?: unknown; lang?: string } = {}) =>
    api.post(
      '/api/graphql',
      { query, variables: options.variables ?? {} },
      { token: options.token, headers: options.lang ? { 'accept-language': options.lang } : {} },
    );

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'budget');
    admin = await login(api, tenant.emails.client_admin);
    const execute = server.app.executor.execute.bind(server.app.executor);
    server.app.executor.execute = (...args) => {
      executed++;
      return execute(...args);
    };
  });
  after(() => server.close());

  it('refuses 200 aliases of a public read from an anonymous caller, before running any', async () => {
    const before = executed;
    const answer = await graphql(aliases(200, 'otepTracking(tracking_number: "TMSNOSUCH") { format }'), {
      lang: 'de',
    });
    assert.equal(answer.status, 400);
    const [error] = answer.body.errors;
    assert.equal(error.extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.deepEqual(
      [error.extensions.details.measure, error.extensions.details.limit, error.extensions.details.found],
      ['aliases', 5, 200],
    );
    assert.match(error.message, /^Die Abfrage verlangt zu viel: aliases = 200, über der Grenze von 5\./);
    assert.equal(executed, before, 'no operation ran');
    assert.equal(answer.body.data, null);
  });

  it('counts aliases of __typename too: 1,600 of them are refused anonymously before anything runs', async () => {
    const before = executed;
    const answer = await graphql(aliases(1600, '__typename'));
    assert.equal(answer.status, 400);
    const [error] = answer.body.errors;
    assert.equal(error.extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.deepEqual(
      [error.extensions.details.measure, error.extensions.details.limit, error.extensions.details.found],
      ['aliases', 5, 1600],
    );
    assert.equal(answer.body.data, null);
    assert.equal(executed, before);
    // Introspection fields are aliases like any other.
    const typeNames = await graphql(aliases(6, '__type(name: "Query") { name }'));
    assert.equal(typeNames.body.errors[0].extensions.details.measure, 'aliases');
  });

  it('counts every field into the cost, introspection and fragments included', async () => {
    // 100 fields spread 60 times: 6,000 fields from about 230 tokens and no alias.
    const fragment = `fragment Names on Query { ${'__typename '.repeat(100)}}`;
    const query = `query { ${'...Names '.repeat(60)}} ${fragment}`;
    const before = executed;
    const answer = await graphql(query);
    assert.equal(answer.status, 400);
    const [error] = answer.body.errors;
    assert.equal(error.extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.deepEqual(
      [error.extensions.details.measure, error.extensions.details.limit, error.extensions.details.found],
      ['cost', 5000, 6000],
    );
    assert.equal(executed, before);
    // Within the budget, the same fields answer.
    const fewer = await graphql(`query { ${'...Names '.repeat(40)}} ${fragment}`);
    assert.equal(fewer.status, 200, JSON.stringify(fewer.body).slice(0, 300));
    assert.equal(fewer.body.data.__typename, 'Query');
  });

  it('refuses 1,000 aliases of a 200-order page even from a signed-in caller', async () => {
    const before = executed;
    const answer = await graphql(aliases(1000, 'orders(per_page: 200) { orders { id status } }'), {
      token: admin,
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.equal(answer.body.errors[0].extensions.details.measure, 'aliases');
    assert.equal(executed, before);
  });

  it('counts a page size into the cost, from arguments and variables alike', async () => {
    const fields = 'orders { id order_ref status scheduled_date customer_id note }';
    const page = await graphql(`query($n: Int) { orders(per_page: $n) { total ${fields} } }`, {
      token: admin,
      variables: { n: 200 },
    });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.errors, undefined);
    // The same page under a few aliases goes over the signed-in budget.
    const many = await graphql(aliases(20, `orders(per_page: 200) { total ${fields} }`), { token: admin });
    assert.equal(many.status, 400);
    assert.equal(many.body.errors[0].extensions.details.measure, 'cost');
    assert.ok(many.body.errors[0].extensions.details.found > 20_000);
  });

  it('gives an anonymous caller a smaller budget than a signed-in one', async () => {
    const query = aliases(10, 'otepTracking(tracking_number: "TMSNOSUCH") { format }');
    const anonymous = await graphql(query);
    assert.equal(anonymous.body.errors[0].extensions.error_code, 'QUERY_TOO_COMPLEX');
    const signedIn = await graphql(query, { token: admin });
    assert.notEqual(signedIn.body.errors?.[0]?.extensions?.error_code, 'QUERY_TOO_COMPLEX');
    // A token that is not valid is no signed-in caller.
    const forged = await graphql(query, { token: 'tms_forged' });
    assert.equal(forged.body.errors[0].extensions.error_code, 'QUERY_TOO_COMPLEX');
  });

  it('refuses nesting past the depth budget', async () => {
    const typeRef = (levels: number) => `${'ofType { '.repeat(levels)}name${' }'.repeat(levels)}`;
    const nested = (levels: number) => `{ __type(name: "Query") { fields { type { ${typeRef(levels)} } } } }`;
    assert.equal((await graphql(nested(3))).status, 200, 'depth 6: within the anonymous budget of 8');
    const refused = await graphql(nested(6));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.deepEqual(
      [refused.body.errors[0].extensions.details.measure, refused.body.errors[0].extensions.details.limit],
      ['depth', 8],
    );
    assert.equal(
      (await graphql(nested(6), { token: admin })).status,
      200,
      'a signed-in caller may nest to 12',
    );
  });

  it('refuses a document of more tokens than the budget, before parsing it', async () => {
    const values = 6_000;
    // 9 tokens before the list's values and 8 after them (commas are not tokens).
    const long = `{ otepValidate(timeline: { events: [${'0, '.repeat(values)}] }) { result conformant } }`;
    const before = executed;
    const anonymous = await graphql(long, { lang: 'fr' });
    assert.equal(anonymous.status, 400);
    const [error] = anonymous.body.errors;
    assert.equal(error.extensions.error_code, 'QUERY_TOO_COMPLEX');
    assert.deepEqual(
      [error.extensions.details.measure, error.extensions.details.limit, error.extensions.details.found],
      ['tokens', 5_000, values + 17],
    );
    assert.match(
      error.message,
      /^La requête en demande trop : tokens = 6017, au-delà de la limite de 5000\./,
    );
    assert.equal(executed, before);
    // Unparseable as well as long: the size is what the caller hears about.
    const broken = await graphql(`{ health { ${'status '.repeat(values)}`);
    assert.equal(broken.body.errors[0].extensions.details.measure, 'tokens');
    // A signed-in caller may send longer documents (large inputs belong in variables all the same).
    const signedIn = await graphql(long, { token: admin });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body).slice(0, 300));
    assert.equal(signedIn.body.data.otepValidate.result, true);
  });

  it('keeps no copy of the documents it was sent', async () => {
    // A parsed document weighs about 100 times its text; kept, a few thousand requests
    // within the anonymous budget would fill the memory.
    const collectGarbage = (): number => {
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
      return process.memoryUsage().heapUsed;
    };
    const documents = Array.from(
      { length: 30 },
      (_, index) => `{ otepValidate(timeline: { events: [${`${index}, `.repeat(4_900)}] }) { result } }`,
    );
    const before = collectGarbage();
    for (const query of documents) assert.equal((await graphql(query)).status, 200);
    const kept = collectGarbage() - before;
    assert.ok(kept < 15_000_000, `${Math.round(kept / 1e6)} MB kept after 30 requests`);
  });

  it('reaches a GraphQL client as an error carrying the code, and lets a real page through', async () => {
    const endpoint = `${server.baseUrl}/api/graphql`;
    const refusal = await new GraphQLClient(endpoint)
      .request(aliases(200, 'otepTracking(tracking_number: "TMSNOSUCH") { format }'))
      .then(
        () => assert.fail('200 aliases went through'),
        (error: unknown) => error,
      );
    assert.ok(refusal instanceof ClientError);
    assert.equal(refusal.response.status, 400);
    assert.equal(refusal.response.errors?.[0]?.extensions?.error_code, 'QUERY_TOO_COMPLEX');

    const signedIn = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${admin}` } });
    const page = await signedIn.request<{ orders: { per_page: number; orders: unknown[] } }>(gql`
      {
        orders(per_page: 200) {
          per_page
          total
          orders { id order_ref status scheduled_date customer_id note dropoff { name city postal_code } }
        }
      }
    `);
    assert.equal(page.orders.per_page, 200);
  });

  it('takes no batch of operations in one request', async () => {
    const before = executed;
    const batch = await api.post('/api/graphql', [
      { query: '{ health { status } }' },
      { query: '{ health { status } }' },
    ]);
    assert.equal(batch.status, 400, JSON.stringify(batch.body));
    assert.equal(executed, before);
  });

  it('keeps introspection open to anyone (GraphiQL loads its schema)', async () => {
    const answer = await graphql(getIntrospectionQuery());
    assert.equal(answer.status, 200);
    assert.equal(answer.body.errors, undefined);
    assert.ok(answer.body.data.__schema.types.length > 50);
  });
});

/** The budgets come from the configuration (GRAPHQL_* variables). */
describe('GraphQL query budgets, configured', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;

  before(async () => {
    const defaults = loadConfig({}).graphqlBudgets;
    server = await startTestServer({
      graphqlBudgets: {
        anonymous: { ...defaults.anonymous, aliases: 1 },
        signedIn: { ...defaults.signedIn, cost: 500 },
      },
    });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'budgetset');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('refuses past the configured figures', async () => {
    const twoAliases = await api.post('/api/graphql', { query: aliases(2, 'health { status }') });
    assert.equal(twoAliases.status, 400);
    assert.deepEqual(
      [
        twoAliases.body.errors[0].extensions.details.measure,
        twoAliases.body.errors[0].extensions.details.limit,
      ],
      ['aliases', 1],
    );
    const page = await api.post(
      '/api/graphql',
      { query: '{ orders(per_page: 200) { total orders { id status } } }' },
      { token: admin },
    );
    assert.equal(page.status, 400);
    assert.deepEqual(
      [page.body.errors[0].extensions.details.measure, page.body.errors[0].extensions.details.limit],
      ['cost', 500],
    );
  });
});

/** Every GraphQL request counts against the caller's shares, and past one it is a 429 as on REST. */
describe('GraphQL requests and the request limits', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  /** Each test calls from an address of its own (X-Forwarded-For, with TRUST_PROXY on). */
  const from = (address: string, token?: string) => ({ token, headers: { 'x-forwarded-for': address } });

  before(async () => {
    server = await startTestServer({
      trustProxy: true,
      limits: { ...UNLIMITED, perTokenPerMinute: 3, perAddressPerMinute: 3 },
    });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'gqlshare');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('counts requests that run no operation, and refuses past the share with 429 and Retry-After', async () => {
    const address = '198.51.100.1';
    // Refused for its budget, or asking only for __typename: each counts all the same.
    const over = await api.post('/api/graphql', { query: aliases(1600, '__typename') }, from(address));
    assert.equal(over.status, 400);
    for (let i = 0; i < 2; i++) {
      const answer = await api.post('/api/graphql', { query: '{ __typename }' }, from(address));
      assert.equal(answer.status, 200);
    }
    const refused = await api.post(
      '/api/graphql',
      { query: '{ __typename }' },
      { headers: { 'x-forwarded-for': address, 'accept-language': 'fr' } },
    );
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.body.data, null);
    const [error] = refused.body.errors;
    assert.equal(error.extensions.error_code, 'RATE_LIMITED');
    assert.equal(error.extensions.status, 429);
    assert.equal(error.extensions.details.retry_after_seconds, Number(refused.headers.get('retry-after')));
    assert.match(error.message, /secondes/);
    // GET requests count as well.
    const viaGet = await api.get(`/api/graphql?query=${encodeURIComponent('{ __typename }')}`, from(address));
    assert.equal(viaGet.status, 429);
    // Another address is not held back.
    assert.equal(
      (await api.post('/api/graphql', { query: '{ __typename }' }, from('198.51.100.2'))).status,
      200,
    );
  });

  it('counts a request running one operation once, against the token', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await api.post(
        '/api/graphql',
        { query: '{ me { result } }' },
        from('198.51.100.3', admin),
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.me.result, true);
    }
    const refused = await new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}`, 'x-forwarded-for': '198.51.100.3' },
    })
      .request('{ me { result } }')
      .then(
        () => assert.fail('a fourth request went through'),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof ClientError);
    assert.equal(refused.response.status, 429);
    assert.ok(Number(refused.response.headers.get('retry-after')) >= 1);
    assert.equal(refused.response.errors?.[0]?.extensions?.error_code, 'RATE_LIMITED');
  });
});

/** Each operation past the first of one request counts as a call of its own. */
describe('GraphQL operations beyond the first of a request', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;

  before(async () => {
    server = await startTestServer({ limits: { ...UNLIMITED, perBusinessPerMinute: 2 } });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'gqlops');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('refuses the one past the share beside the others that ran, then refuses the next request with 429', async () => {
    // The request counts once (paying for a), b is the business's second call, c its third.
    const partial = await api.post(
      '/api/graphql',
      { query: '{ a: me { result } b: me { result } c: me { result } }' },
      { token: admin },
    );
    assert.equal(partial.status, 200, JSON.stringify(partial.body));
    // A query's fields run side by side: which of b and c came third is theirs to settle.
    const refusedField = partial.body.data.b === null ? 'b' : 'c';
    const ranField = refusedField === 'b' ? 'c' : 'b';
    assert.deepEqual(partial.body.data, {
      a: { result: true },
      [ranField]: { result: true },
      [refusedField]: null,
    });
    assert.deepEqual(
      partial.body.errors.map((error: { path: string[]; extensions: { error_code: string } }) => [
        error.path[0],
        error.extensions.error_code,
      ]),
      [[refusedField, 'RATE_LIMITED']],
    );
    assert.ok(Number(partial.headers.get('retry-after')) >= 1);
    const refused = await api.post('/api/graphql', { query: '{ me { result } }' }, { token: admin });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.data, null);
  });
});
