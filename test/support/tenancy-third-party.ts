import assert from 'node:assert/strict';
import { STAND_IN_MAPPING, type StandInProvider, startStandInProvider } from '../../src/demo/third-party.ts';
import { adminOfB, api, type Checks, listsNothingOfAIn, server, tokenOfA } from './tenancy.ts';

/** A's stand-in provider (closed by the suite's file), A's connection to it and a provider order pending there. */
let provider: StandInProvider | undefined;
let madeOfA: Promise<{ connection: number; pending: number }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    provider = await startStandInProvider();
    for (const ref of ['A-1', 'A-2'])
      provider.orders.push({
        ref,
        respond_by: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
        customer: { name: 'A customer' },
        destination: { street: '1 A street' },
      });
    const made = await api.post(
      '/api/v1/third-party/connections',
      { name: 'A provider', base_url: provider.url, mapping: STAND_IN_MAPPING },
      { token: tokenOfA },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const connection = made.body.connection.id as number;
    const pulled = await api.post(
      `/api/v1/third-party/connections/${connection}/pull`,
      {},
      { token: tokenOfA },
    );
    assert.equal(pulled.body.received, 2, JSON.stringify(pulled.body));
    const listed = await api.get('/api/v1/third-party/orders', { token: tokenOfA });
    return { connection, pending: listed.body.provider_orders[0].id as number };
  })());

export const closeThirdPartyStandIn = () => provider?.close();

/** What A reads of its connections and provider orders. */
const asA = async () => {
  const ids = await ofA();
  const connection = (await api.get(`/api/v1/third-party/connections/${ids.connection}`, { token: tokenOfA }))
    .body;
  return {
    connection: { ...connection, connection: { ...connection.connection, next_pull_at: undefined } },
    orders: (await api.get('/api/v1/third-party/orders', { token: tokenOfA })).body,
  };
};

type Ids = Awaited<ReturnType<typeof ofA>>;
/** B's admin on one of A's things: refused as unknown, and A's data unchanged. */
const refusedToB = (method: string, path: (ids: Ids) => string, code: string, body?: object) => async () => {
  const ids = await ofA();
  const before = await asA();
  const calls = provider!.calls.length;
  const answer = await api.call(method, path(ids), { token: adminOfB(), body });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, code);
  assert.deepEqual(await asA(), before);
  assert.equal(provider!.calls.length, calls, "A's provider heard nothing");
};

/** B's admin lists: none of A's rows (B may have made its own in another check). */
const listsNothingOfA = (path: string, field: string) => listsNothingOfAIn(ofA, path, field);

const CONNECTION = 'THIRD_PARTY_CONNECTION_NOT_FOUND';
const ORDER = 'THIRD_PARTY_ORDER_NOT_FOUND';

export const thirdPartyChecks: Checks = {
  create_third_party_connection: async () => {
    const before = await asA();
    const made = await api.post(
      '/api/v1/third-party/connections',
      { name: 'B provider', base_url: 'https://provider.example', mapping: STAND_IN_MAPPING },
      { token: adminOfB() },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const mine = await api.get('/api/v1/third-party/connections', { token: tokenOfA });
    assert.ok(
      mine.body.connections.every((one: { id: number }) => one.id !== made.body.connection.id),
      "B's connection is not A's",
    );
    assert.deepEqual(await asA(), before);
  },
  list_third_party_connections: listsNothingOfA('/api/v1/third-party/connections', 'connections'),
  get_third_party_connection: refusedToB(
    'GET',
    (ids) => `/api/v1/third-party/connections/${ids.connection}`,
    CONNECTION,
  ),
  update_third_party_connection: refusedToB(
    'PATCH',
    (ids) => `/api/v1/third-party/connections/${ids.connection}`,
    CONNECTION,
    { base_url: 'https://b.example', cursor: null },
  ),
  delete_third_party_connection: refusedToB(
    'DELETE',
    (ids) => `/api/v1/third-party/connections/${ids.connection}`,
    CONNECTION,
  ),
  pull_third_party_orders: refusedToB(
    'POST',
    (ids) => `/api/v1/third-party/connections/${ids.connection}/pull`,
    CONNECTION,
    {},
  ),
  list_third_party_orders: async () => {
    const ids = await ofA();
    for (const filter of [`connection_id=${ids.connection}`, 'state=pending', '']) {
      const listed = await api.get(`/api/v1/third-party/orders?${filter}`, { token: adminOfB() });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(listed.body.provider_orders, [], filter);
    }
  },
  get_third_party_order: refusedToB('GET', (ids) => `/api/v1/third-party/orders/${ids.pending}`, ORDER),
  accept_third_party_order: refusedToB(
    'POST',
    (ids) => `/api/v1/third-party/orders/${ids.pending}/accept`,
    ORDER,
    {},
  ),
  reject_third_party_order: refusedToB(
    'POST',
    (ids) => `/api/v1/third-party/orders/${ids.pending}/reject`,
    ORDER,
    {
      reason: 'not ours',
    },
  ),
};
