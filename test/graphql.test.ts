import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { buildSchema, getIntrospectionQuery, type IntrospectionQuery, printSchema } from 'graphql';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { buildGraphqlSchema } from '../src/doors/graphql/schema.ts';
import { createTenant, PASSWORD, type Tenant } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface RefusalExtensions {
  error_code: string;
  status: number;
  details?: { fields?: { field: string; code: string; message: string }[] };
}

/** The first GraphQL error of a refused request, with the HTTP status and headers it came with. */
async function refusal(request: Promise<unknown>) {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ClientError, String(error));
    const [first] = error.response.errors ?? [];
    assert.ok(first, JSON.stringify(error.response));
    return {
      message: first.message,
      extensions: first.extensions as unknown as RefusalExtensions,
      path: first.path,
      data: error.response.data,
      status: error.response.status,
      headers: error.response.headers,
    };
  }
  assert.fail('expected a GraphQL error');
}

const LOGIN = gql`
  mutation Login($email: String!, $password: String!) {
    userLogin(email: $email, password: $password) {
      result
      access_token
      token_type
      expires_timestamp
    }
  }
`;

const CREATE_ORDER = gql`
  mutation Create($orders: [ClientOrderCreateOrdersInput!]!) {
    clientOrderCreate(orders: $orders) {
      order_id
      tracking_number
      orders {
        id
        order_ref
        family
        status
        dropoff {
          line1
          lat
        }
        packages {
          tracking_number
        }
      }
    }
  }
`;

describe('the GraphQL door', () => {
  let server: TestServer;
  let tenant: Tenant;
  let endpoint: string;
  const tokens: Record<string, string> = {};

  /** A real GraphQL client, signed in as `token` when given. */
  const graphql = (token?: string, headers: Record<string, string> = {}) =>
    new GraphQLClient(endpoint, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
  const admin = () => graphql(tokens.client_admin);

  async function createOrder(order: Record<string, unknown>) {
    const answer = await admin().request<{
      clientOrderCreate: { order_id: number; tracking_number: string; orders: { order_ref: string }[] };
    }>(CREATE_ORDER, { orders: [order] });
    return answer.clientOrderCreate;
  }

  before(async () => {
    server = await startTestServer();
    endpoint = `${server.baseUrl}/api/graphql`;
    tenant = await createTenant(server.db, server.app.services, 'graph');
    for (const kind of ['client_admin', 'employee', 'driver'] as const) {
      const answer = await graphql().request<{ userLogin: { access_token: string } }>(LOGIN, {
        email: tenant.emails[kind],
        password: PASSWORD,
      });
      tokens[kind] = answer.userLogin.access_token;
    }
  });
  after(() => server.close());

  it('signs in with the public userLogin mutation, and the token reads me', async () => {
    const answer = await graphql().request<{
      userLogin: { result: boolean; access_token: string; token_type: string; expires_timestamp: number };
    }>(LOGIN, { email: tenant.emails.employee, password: PASSWORD });
    assert.equal(answer.userLogin.result, true);
    assert.match(answer.userLogin.access_token, /^tms_/);
    assert.equal(answer.userLogin.token_type, 'Bearer');
    assert.ok(answer.userLogin.expires_timestamp > Date.parse('2026-11-02') / 1000);

    const me = await graphql(answer.userLogin.access_token).request<{
      me: {
        user: { email: string; kind: string };
        business: { code: string; modules: Record<string, boolean> };
      };
    }>(gql`
      {
        me {
          user {
            email
            kind
          }
          business {
            code
            modules {
              contractor_assignment
            }
          }
        }
      }
    `);
    assert.equal(me.me.user.email, tenant.emails.employee);
    assert.equal(me.me.user.kind, 'employee');
    assert.equal(me.me.business.code, 'graph');
    assert.equal(typeof me.me.business.modules.contractor_assignment, 'boolean');

    const wrong = await refusal(
      graphql().request(LOGIN, { email: tenant.emails.employee, password: 'nope' }),
    );
    assert.equal(wrong.extensions.error_code, 'INVALID_CREDENTIALS');
    assert.equal(wrong.extensions.status, 401);
  });

  it('answers UNAUTHENTICATED in extensions for an authenticated query without a token', async () => {
    const refused = await refusal(
      graphql().request(gql`
      {
        orders {
          total
        }
      }
    `),
    );
    assert.equal(refused.extensions.error_code, 'UNAUTHENTICATED');
    assert.equal(refused.extensions.status, 401);
    assert.match(refused.message, /Sign in first/);
    assert.deepEqual(refused.path, ['orders']);
    assert.deepEqual(refused.data, { orders: null });
    // The operation ran and was refused: GraphQL over HTTP answers 200 with the error beside the data.
    assert.equal(refused.status, 200);
  });

  it('creates an order with clientOrderCreate and reads it back with order and orders', async () => {
    const created = await createOrder({
      order_ref: 'GQL-1',
      type: 'D',
      scheduled_date: '2026-11-03',
      time_window: { start: '09:00', end: '12:00' },
      dropoff: { line1: '1 Graph Lane', lat: 48.85, lng: 2.35 },
      currency: 'EUR',
      shipping_price: '12.50',
      packages: [{ weight_grams: 1200 }, { weight_grams: 300 }],
    });
    assert.equal(created.orders.length, 1);
    assert.match(created.tracking_number, /\S/);

    const read = await graphql(tokens.employee).request<{
      order: {
        order: {
          id: number;
          order_ref: string;
          family: string;
          type: string;
          status: string;
          time_window: { start: string; end: string };
          shipping_price: number;
          currency: string;
          packages: { tracking_number: string; weight_grams: number }[];
        };
      };
    }>(
      gql`
        query Order($id: Int!) {
          order(order_id: $id) {
            order {
              id
              order_ref
              family
              type
              status
              time_window {
                start
                end
              }
              shipping_price
              currency
              packages {
                tracking_number
                weight_grams
              }
            }
          }
        }
      `,
      { id: created.order_id },
    );
    const order = read.order.order;
    assert.equal(order.id, created.order_id);
    assert.equal(order.order_ref, 'GQL-1');
    assert.equal(order.family, 'local_delivery');
    assert.equal(order.type, 'D');
    assert.equal(order.status, 'NEW_ORDER');
    assert.deepEqual(order.time_window, { start: '09:00', end: '12:00' });
    assert.equal(order.shipping_price, 12.5);
    assert.equal(order.currency, 'EUR');
    assert.deepEqual(
      order.packages.map((p) => p.weight_grams),
      [1200, 300],
    );
    assert.equal(order.packages[0]!.tracking_number, created.tracking_number);

    // An explicit null for an optional argument counts as absent (page falls back to its default).
    const listed = await admin().request<{
      orders: { total: number; page: number; orders: { id: number; order_ref: string }[] };
    }>(
      gql`
        query List($ref: String, $page: Int) {
          orders(order_ref: $ref, page: $page) {
            total
            page
            orders {
              id
              order_ref
            }
          }
        }
      `,
      { ref: 'GQL-1', page: null },
    );
    assert.equal(listed.orders.total, 1);
    assert.equal(listed.orders.page, 1);
    assert.deepEqual(listed.orders.orders, [{ id: created.order_id, order_ref: 'GQL-1' }]);
  });

  it('answers VALIDATION_FAILED with details naming the field', async () => {
    const refused = await refusal(admin().request(CREATE_ORDER, { orders: [{ order_ref: 'NO-DROPOFF' }] }));
    assert.equal(refused.extensions.error_code, 'VALIDATION_FAILED');
    assert.equal(refused.extensions.status, 422);
    assert.deepEqual(
      refused.extensions.details?.fields?.map((field) => field.field),
      ['orders.0.dropoff'],
    );
    assert.match(refused.message, /orders\.0\.dropoff/);
    assert.deepEqual(refused.data, { clientOrderCreate: null });
  });

  it('speaks the language of Accept-Language', async () => {
    const refused = await refusal(
      graphql(tokens.client_admin, { 'accept-language': 'fr' }).request(CREATE_ORDER, {
        orders: [{ order_ref: 'NO-DROPOFF' }],
      }),
    );
    assert.equal(refused.extensions.error_code, 'VALIDATION_FAILED');
    assert.equal(refused.message, 'Certains champs sont invalides : orders.0.dropoff.');
    assert.equal(refused.headers.get('content-language'), 'fr');

    const anonymous = await refusal(
      graphql(undefined, { 'accept-language': 'fr-CA, en;q=0.5' }).request(gql`
        {
          me {
            result
          }
        }
      `),
    );
    assert.equal(anonymous.extensions.error_code, 'UNAUTHENTICATED');
    assert.match(anonymous.message, /^Connectez-vous/);
  });

  it('validates the timeline given to otepValidate, whatever JSON it is', async () => {
    const VALIDATE = gql`
      query Validate($timeline: JSON) {
        otepValidate(timeline: $timeline) {
          conformant
          level
          errors {
            path
            code
            message
          }
        }
      }
    `;
    type Report = {
      otepValidate: { conformant: boolean; level: number; errors: { path: string; code: string }[] };
    };
    const timeline = {
      otep_version: '0.1',
      profile: 'parcel',
      subject: { tracking_number: 'GQL-VALIDATE' },
      events: [
        { occurred_at: '2026-11-02T10:30:00+01:00', status_code: 'in_transit', source: { type: 'carrier' } },
      ],
    };
    const valid = await graphql().request<Report>(VALIDATE, { timeline });
    assert.deepEqual(valid.otepValidate, { conformant: true, level: 1, errors: [] });

    const local = { ...timeline, events: [{ ...timeline.events[0], occurred_at: '2026-11-02T10:30:00' }] };
    const invalid = await graphql(undefined, { 'accept-language': 'fr' }).request<Report>(VALIDATE, {
      timeline: local,
    });
    assert.equal(invalid.otepValidate.conformant, false);
    assert.deepEqual(invalid.otepValidate.errors, [
      {
        path: 'events[0].occurred_at',
        code: 'occurred_at_without_offset',
        message: 'occurred_at 2026-11-02T10:30:00 n’a pas de décalage horaire ; terminez-la par Z ou ±hh:mm.',
      },
    ]);

    // A literal argument, not an object: a report, like the REST door's.
    const list = await graphql().request<Report>(gql`
      {
        otepValidate(timeline: [1, 2]) {
          conformant
          level
          errors {
            path
            code
          }
        }
      }
    `);
    assert.deepEqual(list.otepValidate, {
      conformant: false,
      level: 0,
      errors: [{ path: '', code: 'timeline_not_object' }],
    });
  });

  it('answers FORBIDDEN to an account kind the operation does not admit', async () => {
    const refused = await refusal(
      graphql(tokens.driver).request(gql`
      {
        orders {
          total
        }
      }
    `),
    );
    assert.equal(refused.extensions.error_code, 'FORBIDDEN');
    assert.equal(refused.extensions.status, 403);
    assert.equal(refused.message, 'Your account is not allowed to do this.');
  });

  it('builds routes with clientBuildRoute from a depot, a driver profile and a located order', async () => {
    const depot = await admin().request<{ createDepot: { depot: { id: number } } }>(gql`
      mutation {
        createDepot(name: "Graph depot", lat: 48.85, lng: 2.35) {
          depot {
            id
          }
        }
      }
    `);
    const profile = await admin().request<{
      setDriverProfile: { driver: { id: number; profile: { depot_id: number; shift: { start: string } } } };
    }>(
      gql`
        mutation Profile($driver: Int!, $depot: Int!) {
          setDriverProfile(
            driver_id: $driver
            depot_id: $depot
            capacity: { weight_grams: 100000, volume_cm3: 1000000, count: 50 }
            shift: { start: "08:00", end: "18:00" }
          ) {
            driver {
              id
              profile {
                depot_id
                shift {
                  start
                }
              }
            }
          }
        }
      `,
      { driver: tenant.userIds.driver, depot: depot.createDepot.depot.id },
    );
    assert.equal(profile.setDriverProfile.driver.profile.depot_id, depot.createDepot.depot.id);
    const order = await createOrder({
      order_ref: 'GQL-ROUTE',
      scheduled_date: '2026-11-04',
      dropoff: { line1: '2 Graph Lane', lat: 48.86, lng: 2.36 },
    });

    const built = await admin().request<{
      clientBuildRoute: {
        date: string;
        routes: { id: number; driver: { id: number }; stops: { sequence: number; order_id: number }[] }[];
        unassigned: { order_id: number; reason: string }[];
        totals: { orders: number; assigned: number; routes: number };
      };
    }>(gql`
      mutation {
        clientBuildRoute(date: "2026-11-04", time_limit_ms: 100) {
          date
          routes {
            id
            driver {
              id
            }
            stops {
              sequence
              order_id
            }
          }
          unassigned {
            order_id
            reason
          }
          totals {
            orders
            assigned
            routes
          }
        }
      }
    `);
    const plan = built.clientBuildRoute;
    assert.equal(plan.date, '2026-11-04');
    assert.deepEqual(plan.totals, { orders: 1, assigned: 1, routes: 1 });
    assert.deepEqual(plan.unassigned, []);
    assert.equal(plan.routes[0]!.driver.id, tenant.userIds.driver);
    assert.deepEqual(plan.routes[0]!.stops, [{ sequence: 1, order_id: order.order_id }]);

    const route = await graphql(tokens.employee).request<{ route: { route: { id: number } } }>(
      gql`
        query Route($id: Int!) {
          route(route_id: $id) {
            route {
              id
            }
          }
        }
      `,
      { id: plan.routes[0]!.id },
    );
    assert.equal(route.route.route.id, plan.routes[0]!.id);
  });

  it("returns an order's audit trail with trackingOperationevents", async () => {
    const order = await createOrder({ order_ref: 'GQL-AUDIT', dropoff: { line1: '3 Graph Lane' } });
    await graphql(tokens.employee).request(
      gql`
        mutation Note($id: Int!) {
          updateOrderNote(order_id: $id, note: "ring twice") {
            order {
              note
            }
          }
        }
      `,
      { id: order.order_id },
    );
    const trail = await graphql(tokens.employee).request<{
      trackingOperationevents: {
        events: {
          order_id: number;
          action: string;
          source: string;
          actor: { id: number } | null;
          changes: Record<string, { from: unknown; to: unknown }>;
        }[];
      };
    }>(
      gql`
        query Trail($refs: [String!]) {
          trackingOperationevents(order_refs: $refs) {
            events {
              order_id
              action
              source
              actor {
                id
              }
              changes
            }
          }
        }
      `,
      { refs: ['GQL-AUDIT'] },
    );
    const events = trail.trackingOperationevents.events;
    assert.deepEqual(
      events.map((event) => event.action),
      ['created', 'note_updated'],
    );
    assert.ok(events.every((event) => event.order_id === order.order_id && event.source === 'graphql'));
    assert.equal(events[0]!.actor?.id, tenant.userIds.client_admin);
    assert.equal(events[1]!.actor?.id, tenant.userIds.employee);
    assert.deepEqual(events[1]!.changes, { note: { from: null, to: 'ring twice' } });

    const empty = await refusal(
      graphql(tokens.employee).request(gql`
      {
        trackingOperationevents {
          result
        }
      }
    `),
    );
    assert.equal(empty.extensions.error_code, 'VALIDATION_FAILED');
  });

  it('lists every named operation of the catalog through introspection', async () => {
    const answer = await graphql().request<IntrospectionQuery>(getIntrospectionQuery());
    const schema = answer.__schema;
    const fieldsOf = (name: string | undefined) => {
      const type = schema.types.find((candidate) => candidate.name === name);
      assert.ok(type && type.kind === 'OBJECT', `no object type ${name}`);
      return type.fields;
    };
    const named = server.app.catalog.list().filter((operation) => operation.graphql);
    const names = (kind: 'query' | 'mutation') =>
      named
        .filter((operation) => operation.kind === kind)
        .map((operation) => operation.graphql)
        .sort();
    const queries = fieldsOf(schema.queryType.name);
    const mutations = fieldsOf(schema.mutationType?.name);
    assert.deepEqual(queries.map((field) => field.name).sort(), names('query'));
    assert.deepEqual(mutations.map((field) => field.name).sort(), names('mutation'));
    for (const fixed of ['clientOrderCreate', 'clientBuildRoute', 'userLogin']) {
      assert.ok(
        mutations.some((field) => field.name === fixed),
        fixed,
      );
    }
    assert.ok(queries.some((field) => field.name === 'trackingOperationevents'));
    // Summaries become descriptions; records keyed by an enum become one field per key.
    const order = queries.find((field) => field.name === 'order');
    assert.match(order?.description ?? '', /^One order with its packages/);
    const byStatus = fieldsOf('OrderSnapshotByStatus').map((field) => field.name);
    assert.ok(byStatus.includes('NEW_ORDER') && byStatus.includes('CANCELLED'), byStatus.join());
  });

  it('runs queries over GET, and refuses a mutation over GET', async () => {
    const overGet = new GraphQLClient(endpoint, { method: 'GET' });
    const health = await overGet.request<{ health: { status: string; database: { status: string } } }>(gql`
      {
        health {
          status
          database {
            status
          }
        }
      }
    `);
    assert.deepEqual(health.health, { status: 'ok', database: { status: 'ok' } });
    // graphql-request itself sends mutations with POST; a hand-made GET must be refused.
    const query = new URLSearchParams({ query: 'mutation { userLogout { result } }' });
    const answer = await fetch(`${endpoint}?${query}`);
    assert.equal(answer.status, 405);
    const body = (await answer.json()) as { data: unknown; errors: { extensions: RefusalExtensions }[] };
    assert.equal(body.data, null);
    assert.equal(body.errors[0]!.extensions.error_code, 'BAD_REQUEST');
  });

  it('refuses a document that does not validate, and a body over the limit, with error codes', async () => {
    const invalid = await refusal(graphql().request('{ nothingHere }'));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.extensions.error_code, 'BAD_REQUEST');
    assert.match(invalid.message, /nothingHere/);

    const limit = server.app.http.initialConfig.bodyLimit!;
    const tooLarge = await refusal(
      graphql().request(LOGIN, { email: 'x'.repeat(limit), password: PASSWORD }),
    );
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.extensions.error_code, 'PAYLOAD_TOO_LARGE');
    assert.equal(tooLarge.extensions.status, 413);
  });

  it('keeps the GraphQL routes out of the OpenAPI document', async () => {
    const document = await client(server.baseUrl).get('/api/openapi.json');
    assert.equal(document.status, 200);
    const paths = Object.keys(document.body.paths);
    assert.ok(paths.length > 0);
    assert.deepEqual(
      paths.filter((path) => /^\/graphi?ql(\/|$)/.test(path)),
      [],
    );
  });

  it('has schema.graphql in step with the catalog', async () => {
    const committed = await readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
    // Compared as schemas, so formatting (Biome formats the file) does not count.
    const expected = printSchema(buildGraphqlSchema(server.app.catalog));
    const actual = printSchema(buildSchema(committed));
    if (actual !== expected) {
      const a = actual.split('\n');
      const e = expected.split('\n');
      let line = e.findIndex((text, index) => text !== a[index]);
      if (line === -1) line = e.length;
      assert.fail(
        'schema.graphql is out of date with the operation catalog (a GraphQL name or a schema changed): ' +
          'run `npm run graphql:schema` and commit schema.graphql. ' +
          `First difference at line ${line + 1} of the printed schema: expected ${JSON.stringify(e[line])}, ` +
          `found ${JSON.stringify(a[line])}.`,
      );
    }
  });
});
