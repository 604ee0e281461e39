import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLScalarType,
  getNamedType,
} from 'graphql';
import { buildGraphqlSchema } from '../src/doors/graphql/schema.ts';
import { jsonSchemaOf } from '../src/doors/json-schema.ts';
import type { Operation } from '../src/platform/catalog/operation.ts';
import { ERROR_CODES } from '../src/platform/errors.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** Nested arrays deeper than any real document, written as JSON text (too deep to stringify). */
const deep = (levels: number) => `${'['.repeat(levels)}"bottom"${']'.repeat(levels)}`;

/** What a careless or hostile caller sends in place of a field, as JSON text. */
const HOSTILE_VALUES: string[] = [
  ...['nul\u0000inside', 'lone \ud800 surrogate', 'x'.repeat(200_000), '<script>alert(1)</script>'].map(
    (text) => JSON.stringify(text),
  ),
  '"\u0000"',
  '"\udfff"',
  '"\'; DROP TABLE orders; --"',
  '""',
  '-1',
  String(2 ** 63),
  '1e308',
  '3.14159',
  'true',
  'null',
  '[]',
  '{}',
  '["a", 1, null]',
  '{ "nested": { "deeper": ["\u0000"] } }',
  deep(3_000),
];

/** Whole bodies that are no object at all, or nested past reason. */
const HOSTILE_BODIES: string[] = ['[1, 2]', '"text"', '42', 'null', deep(50_000), '{"a":'];

/** Path parameters that are broken escapes, unstorable, overlong or out of range. */
const PATH_SEGMENTS = ['%00', '%ED%A0%80', '%E0%A4%A', 'x'.repeat(300), '-1', '99999999999999999999', '%20'];

/** Query values, sent as they are in the query string. */
const QUERY_VALUES = ['%00', '%ED%A0%80', 'x'.repeat(5000), 'true,false', ''];

/** The text and the numbers of inputs shaped as the operation asks. */
const SHAPED_TEXTS = ['nul\u0000inside', 'x'.repeat(200_000), '', ' 🚚 \u202e עברית '];
const SHAPED_NUMBERS = [2 ** 31, -1, 0];

type JsonSchema = Record<string, unknown>;

/**
 * An input shaped as the schema asks, with every string leaf set to `text` and every number to
 * `number`: it gets past the shape checks, so hostile leaves reach the operations themselves.
 */
function shapedLike(schema: JsonSchema, root: JsonSchema, text: string, number: number, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1)!;
    return shapedLike(
      ((root.$defs ?? {}) as Record<string, JsonSchema>)[name] ?? {},
      root,
      text,
      number,
      depth + 1,
    );
  }
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) {
    const option = options.find((candidate) => candidate.type !== 'null') ?? options[0]!;
    return shapedLike(option, root, text, number, depth + 1);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  switch (schema.type) {
    case 'string':
      return schema.format === 'date'
        ? '2026-11-02'
        : schema.format === 'date-time'
          ? '2026-11-02T10:00:00Z'
          : text;
    case 'integer':
    case 'number':
      return number;
    case 'boolean':
      return true;
    case 'array':
      return [shapedLike((schema.items ?? {}) as JsonSchema, root, text, number, depth + 1)];
    case 'object':
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [
          key,
          shapedLike(child, root, text, number, depth + 1),
        ]),
      );
    }
    default:
      return text;
  }
}

const isErrorShape = (body: unknown) => {
  const shaped = body as { result?: unknown; error_code?: unknown; message?: unknown };
  return (
    shaped?.result === false &&
    typeof shaped.message === 'string' &&
    shaped.message.length > 0 &&
    ERROR_CODES.includes(shaped.error_code as (typeof ERROR_CODES)[number])
  );
};

// One service for the whole file: the two groups below use tenants of their own.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/**
 * Bad input of every kind against every operation of the catalog, over REST and GraphQL: the
 * service answers each with a 2xx or a refusal in its error shape, never a 5xx. Every REST
 * operation gets every hostile path segment, whole body, every-field value and query value, and
 * every shaped text and number; two cross-products are turned instead of sent whole (a query
 * value on each field, a number beside each shaped text), the pairing moving with the operation so
 * the catalog as a whole still sends every pair.
 */

describe('hostile input on every operation', () => {
  let api: Client;
  let tenant: Tenant;
  const tokens = new Map<string, string>();
  let providerKey: string;

  const fieldsOf = (operation: Operation) =>
    Object.keys((jsonSchemaOf(operation.input, 'input').properties as Record<string, unknown>) ?? {});
  const tokenFor = (operation: Operation): Record<string, string> => {
    const access = operation.access;
    if (access.public) return {};
    if ('provider' in access && access.provider) return { 'x-otep-provider-key': providerKey };
    const kinds = 'kinds' in access ? access.kinds : 'any';
    // Logout revokes the token it is sent with: it gets one of its own, which no other call uses.
    if ('ownSession' in access && access.ownSession)
      return { authorization: `Bearer ${tokens.get('own_session')}` };
    const kind = kinds === 'any' ? 'client_admin' : kinds[0]!;
    return { authorization: `Bearer ${tokens.get(kind)}` };
  };
  const problems: string[] = [];
  const check = (what: string, answer: Answer) => {
    if (answer.status >= 500)
      problems.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    else if (answer.status >= 400 && !isErrorShape(answer.body)) {
      problems.push(
        `${what}: ${answer.status} outside the error shape: ${String(JSON.stringify(answer.body)).slice(0, 200)}`,
      );
    }
  };

  before(async () => {
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'hostile');
    for (const kind of Object.keys(tenant.emails) as Array<keyof Tenant['emails']>) {
      tokens.set(kind, await login(api, tenant.emails[kind]));
    }
    tokens.set('own_session', await login(api, tenant.emails.employee));
    // The optional module on, so its operations are reached rather than refused at the switch.
    const platform = tokens.get('platform_admin');
    await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
      token: platform,
      body: { available: true },
    });
    await api.call('PUT', `/api/v1/platform/businesses/${tenant.businessId}/modules/contractor_assignment`, {
      token: platform,
      body: { enabled: true },
    });
    const provider = await api.post(
      '/api/v1/client/otep/providers',
      { name: 'Fuzz' },
      { token: tokens.get('client_admin') },
    );
    providerKey = provider.body.provider.key;
  });

  it('answers every REST operation with a 2xx or its error shape, whatever the path, query and body', async () => {
    let index = 0;
    for (const operation of server.app.catalog.list()) {
      const binding = operation.rest;
      if (!binding) continue;
      index++;
      const headers = tokenFor(operation);
      const path = (value: string) => `/api${binding.path.replace(/:[a-z_]+/g, value)}`;
      /** Sends JSON text as it is: some of it is too deep to stringify, some is not JSON at all. */
      const send = (url: string, body = '{}') =>
        api.call(binding.method, url, {
          headers: { ...headers, 'content-type': 'application/json' },
          body: binding.method === 'GET' ? undefined : body,
        });
      const requests: Array<[what: string, url: string, body?: string]> = [];
      if (binding.path.includes(':')) {
        for (const segment of PATH_SEGMENTS) {
          requests.push([`${operation.name} path ${segment.slice(0, 12)}`, path(segment)]);
        }
      }
      const url = path('1');
      const fields = fieldsOf(operation);
      // Each hostile query value on one field at a time: every value reaches every operation and
      // every field gets one, the pairing turning with the operation so that across the catalog a
      // field's position meets every value (the full cross-product was a third of the file's time).
      for (let turn = 0; fields.length > 0 && turn < Math.max(fields.length, QUERY_VALUES.length); turn++) {
        const field = fields[turn % fields.length]!;
        const value = QUERY_VALUES[(turn + index) % QUERY_VALUES.length]!;
        requests.push([`${operation.name} ?${field}=${value.slice(0, 12)}`, `${url}?${field}=${value}`]);
      }
      if (binding.method !== 'GET') {
        for (const body of HOSTILE_BODIES) {
          requests.push([`${operation.name} body ${body.slice(0, 20)}`, url, body]);
        }
        for (const value of HOSTILE_VALUES) {
          const body = `{${fields.map((field) => `${JSON.stringify(field)}: ${value}`).join(', ')}}`;
          requests.push([`${operation.name} every field = ${value.slice(0, 20)}`, url, body]);
        }
        // Every shaped text with a number beside it, the numbers turning with the operation: each
        // operation gets every text and every number, and across the catalog every pair is sent.
        const schema = jsonSchemaOf(operation.input, 'input');
        SHAPED_TEXTS.forEach((text, turn) => {
          const number = SHAPED_NUMBERS[(turn + index) % SHAPED_NUMBERS.length]!;
          const input = shapedLike(schema, schema, text, number) as Record<string, unknown>;
          requests.push([
            `${operation.name} shaped with ${JSON.stringify(text.slice(0, 8))} and ${number}`,
            url,
            JSON.stringify(input),
          ]);
        });
      }
      // One operation's requests at once: their database round trips overlap.
      const answers = await Promise.all(requests.map(([, target, body]) => send(target, body)));
      for (const [at, answer] of answers.entries()) check(requests[at]![0], answer);
    }
    assert.deepEqual(problems, []);
  });

  it('answers every GraphQL field with data or errors that carry an error code, never a 5xx', async () => {
    const schema = buildGraphqlSchema(server.app.catalog);
    const graphqlProblems: string[] = [];
    const hostileOf = (type: GraphQLInputType, text: unknown, depth = 0): unknown => {
      if (type instanceof GraphQLNonNull) return hostileOf(type.ofType, text, depth);
      if (type instanceof GraphQLList) return [hostileOf(type.ofType, text, depth)];
      if (type instanceof GraphQLEnumType) return type.getValues()[0]!.value;
      if (type instanceof GraphQLInputObjectType) {
        if (depth > 4) return {};
        return Object.fromEntries(
          Object.values(type.getFields()).map((field) => [
            field.name,
            hostileOf(field.type, text, depth + 1),
          ]),
        );
      }
      const scalar = type as GraphQLScalarType;
      if (scalar.name === 'Int') return 2147483647;
      if (scalar.name === 'Float') return 1e308;
      if (scalar.name === 'Boolean') return true;
      if (scalar.name === 'String' || scalar.name === 'ID') return text;
      return { text, deep: JSON.parse(deep(2_000)) };
    };
    for (const [rootName, root] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        const operation = server.app.catalog.list().find((candidate) => candidate.graphql === field.name);
        const headers = operation ? tokenFor(operation) : {};
        const selection = getNamedType(field.type) instanceof GraphQLObjectType ? '{ __typename }' : '';
        const declared = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
        const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
        const query = `${rootName}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''} ${selection} }`;
        const texts = ['nul\u0000inside', 'lone \udc00', 'y'.repeat(100_000), ''];
        // A field's four requests at once: their database round trips overlap.
        const answers = await Promise.all(
          texts.map((text) =>
            api.call('POST', '/api/graphql', {
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({
                query,
                variables: Object.fromEntries(field.args.map((arg) => [arg.name, hostileOf(arg.type, text)])),
              }),
            }),
          ),
        );
        for (const [at, answer] of answers.entries()) {
          const text = texts[at]!;
          const errors = (answer.body?.errors ?? []) as Array<{ extensions?: { error_code?: string } }>;
          if (answer.status >= 500 || errors.some((error) => !error.extensions?.error_code)) {
            graphqlProblems.push(
              `${field.name} ${text.slice(0, 8)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
            );
          }
          if (errors.some((error) => error.extensions?.error_code === 'INTERNAL_ERROR')) {
            graphqlProblems.push(`${field.name} ${text.slice(0, 8)}: INTERNAL_ERROR`);
          }
        }
      }
    }
    assert.deepEqual(graphqlProblems, []);
  });
});

describe('text that cannot be stored', () => {
  let api: Client;
  let admin: string;

  before(async () => {
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'nul');
    admin = await login(api, tenant.emails.client_admin);
  });

  const ordersStored = async () =>
    Number(
      (
        await server.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is refused in a body with 422, naming each field, in the caller’s language, and nothing is stored', async () => {
    const before = await ordersStored();
    const answer = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: '1 Rue\u0000 de Rivoli', city: 'Paris' }, note: 'half \ud83d an emoji' },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'UNSUPPORTED_CHARACTERS');
    assert.deepEqual(answer.body.details.fields, ['dropoff.line1', 'note']);
    assert.equal(
      answer.body.message,
      'Ces champs contiennent un caractère NUL ou une demi-paire de substitution UTF-16, interdits dans un texte : dropoff.line1, note.',
    );
    assert.equal(await ordersStored(), before);
    const whole = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: 'Paris 🚚' } },
      { token: admin },
    );
    assert.equal(whole.status, 200, 'a paired surrogate (an emoji) is ordinary text');
  });

  it('is refused in a query string and a GraphQL variable the same way', async () => {
    const query = await api.get('/api/v1/client/orders?order_ref=%00', { token: admin });
    assert.equal(query.status, 422);
    assert.deepEqual(query.body.details.fields, ['order_ref']);
    const graphql = await api.call('POST', '/api/graphql', {
      token: admin,
      body: {
        query: 'query($n: String!) { trackingPublic(trackingNumber: $n) { status } }',
        variables: { n: '\udc00' },
      },
    });
    assert.equal(graphql.status, 422);
    assert.equal(graphql.body.errors[0].extensions.error_code, 'UNSUPPORTED_CHARACTERS');
    assert.deepEqual(graphql.body.errors[0].extensions.details.fields, ['variables.n']);
  });

  it('is refused in a path with 400, like a broken %-escape, and an overlong parameter is 414, all in the error shape', async () => {
    for (const path of [
      '/api/v1/tracking/%00',
      '/api/v1/tracking/%ED%A0%80',
      '/api/v1/tracking/%E0%A4%A',
      '/track/%00',
    ]) {
      const answer = await api.get(path, { headers: { 'accept-language': 'de' } });
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.error_code, 'INVALID_URL', path);
      assert.match(answer.body.message, /^Die Adresse ist fehlerhaft/, path);
    }
    const long = await api.get(`/api/v1/tracking/${'A'.repeat(101)}`);
    assert.equal(long.status, 414);
    assert.equal(long.body.error_code, 'PARAMETER_TOO_LONG');
    assert.equal(long.body.message, 'A part of the address is longer than 100 characters.');
  });
});
