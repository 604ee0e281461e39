import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { depotWithTwoFleets, engageSecondContractor } from './support/contractors.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { loopbackWebhooks, startTestServer, type TestServer } from './support/server.ts';

const BASE = '/api/v1/broker-order-assignments';
const DAY = '2026-11-04';

describe('broker order assignments', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  let platform: string;
  /** The tenant's contractor (Couriers of assign) and one of a second engaged company. */
  let first: { id: number; token: string };
  let second: { id: number; token: string };
  const ids: Record<string, number> = {};

  const assign = (orderIds: number[], brokerId: number, extra: Record<string, unknown> = {}, token = admin) =>
    api.post(BASE, { order_ids: orderIds, broker_id: brokerId, ...extra }, { token });
  const active = async (orderId: number) =>
    (await api.get(`${BASE}?order_id=${orderId}&status=active`, { token: admin })).body.assignments;
  const setModule = (path: string, body: unknown, token = platform) => api.call('PUT', path, { token, body });
  /** One request with a bad input per write, from an account each may call it with. */
  const badWrites = async () => [
    await api.post(BASE, { order_ids: [] }, { token: admin }),
    await api.post(`${BASE}/revoke`, { order_ids: 'all' }, { token: admin }),
    await api.post(`${BASE}/release`, { order_id: -1 }, { token: first.token }),
  ];
  const messages = (body: { errors: Array<{ order_id: number; message: string }> }) =>
    Object.fromEntries(body.errors.map((e) => [e.order_id, e.message]));

  before(async () => {
    // Loopback webhook receivers allowed, for the contractor_assignment.changed deliveries.
    server = await startTestServer({ webhooks: loopbackWebhooks() });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'assign');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
    platform = await login(api, tenant.emails.platform_admin);
    first = { id: tenant.userIds.contractor, token: await login(api, tenant.emails.contractor) };
    const other = await engageSecondContractor(server, api, tenant);
    second = { id: other.userId, token: other.token };
    // A depot, the business's own van, and a van of the first contractor's fleet.
    await depotWithTwoFleets(server, api, tenant, admin);
    const at = (ref: string, extra: Record<string, unknown> = {}) => ({
      order_ref: ref,
      scheduled_date: DAY,
      dropoff: { line1: `${ref} street`, postal_code: '69001', lat: 48.86, lng: 2.35 },
      ...extra,
    });
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: [
          at('NEW'),
          at('HELD'),
          at('SHIPPING', { family: 'shipping_service' }),
          at('CARRIED', { carrier: 'DHL' }),
          at('PICKED'),
          at('MOVE'),
          at('GIVE-BACK'),
          at('ROUTED'),
        ],
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    for (const order of created.body.orders) ids[order.order_ref] = order.id;
    await api.post(`/api/v1/client/orders/${ids.HELD}/hold`, {}, { token: admin });
    await api.post(`/api/v1/client/orders/${ids.PICKED}/status`, { status: 'PICKED_UP' }, { token: admin });
  });
  after(() => server.close());

  it('answers 503 for the list and 403 for the rest until the platform offers the module, then 403 until the business has it', async () => {
    const list = await api.get(BASE, { token: admin });
    assert.equal(list.status, 503);
    assert.equal(list.body.error_code, 'MODULE_UNAVAILABLE');
    const write = await assign([ids.NEW!], first.id);
    assert.equal(write.status, 403);
    assert.equal(write.body.error_code, 'MODULE_DISABLED');
    // The switch is told before the input is looked at: a bad request gets the same answers.
    for (const token of [admin, first.token]) {
      const badList = await api.get(`${BASE}?per_page=0`, { token });
      assert.equal(badList.status, 503, JSON.stringify(badList.body));
      assert.equal(badList.body.error_code, 'MODULE_UNAVAILABLE');
    }
    for (const answer of await badWrites()) {
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'MODULE_DISABLED');
    }

    // Only platform admins flip the switches.
    const byAdmin = await setModule(
      '/api/v1/platform/modules/contractor_assignment',
      { available: true },
      admin,
    );
    assert.equal(byAdmin.status, 403);
    assert.equal(byAdmin.body.error_code, 'FORBIDDEN');
    const offered = await setModule('/api/v1/platform/modules/contractor_assignment', { available: true });
    assert.equal(offered.status, 200, JSON.stringify(offered.body));

    for (const answer of [
      await api.get(BASE, { token: admin }),
      await api.get(BASE, { token: first.token }),
      await assign([ids.NEW!], first.id),
      await api.post(`${BASE}/revoke`, { order_ids: [ids.NEW] }, { token: admin }),
      await api.post(`${BASE}/release`, { order_id: ids.NEW }, { token: first.token }),
      await api.get(`${BASE}?per_page=0`, { token: admin }),
      await api.get(`${BASE}?per_page=0`, { token: first.token }),
      ...(await badWrites()),
    ]) {
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'MODULE_DISABLED');
    }
    const unknown = await setModule(`/api/v1/platform/businesses/999999/modules/contractor_assignment`, {
      enabled: true,
    });
    assert.equal(unknown.status, 404);
    const on = await setModule(
      `/api/v1/platform/businesses/${tenant.businessId}/modules/contractor_assignment`,
      {
        enabled: true,
      },
    );
    assert.equal(on.status, 200);
    assert.deepEqual(
      { enabled: on.body.enabled, available: on.body.available },
      { enabled: true, available: true },
    );
    const me = await api.get('/api/v1/user/me', { token: admin });
    assert.equal(me.body.business.modules.contractor_assignment, true);
    assert.equal((await api.get(BASE, { token: admin })).status, 200);
    // Switched on, the same bad requests are what they are.
    for (const answer of [
      await api.get(`${BASE}?per_page=0`, { token: admin }),
      await api.get(`${BASE}?per_page=0`, { token: first.token }),
      ...(await badWrites()),
    ]) {
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
    }
  });

  it('assigns what it can and reports each refusal in the caller language', async () => {
    const answer = await assign(
      [ids.NEW!, ids.HELD!, ids.SHIPPING!, ids.CARRIED!, ids.PICKED!, 999_999, ids.NEW!],
      first.id,
      { note: 'North run' },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.result, true);
    assert.equal(answer.body.assigned, 2);
    assert.equal(answer.body.skipped, 4);
    const byOrder = messages(answer.body);
    assert.match(byOrder[ids.SHIPPING!]!, /not a self-delivery order/);
    assert.match(byOrder[ids.CARRIED!]!, /held by the carrier DHL/);
    assert.match(byOrder[ids.PICKED!]!, /PICKED_UP; only new or held orders/);
    assert.match(byOrder[999_999]!, /No order 999999/);

    const french = await api.post(
      BASE,
      { order_ids: [ids.NEW, ids.SHIPPING], broker_id: first.id },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(french.body.result, false);
    const inFrench = messages(french.body);
    assert.equal(inFrench[ids.NEW!], `La commande ${ids.NEW} est déjà attribuée à ce sous-traitant.`);
    assert.match(inFrench[ids.SHIPPING!]!, /n'est pas une livraison assurée/);

    const [record] = await active(ids.NEW!);
    assert.equal(record.broker_id, first.id);
    assert.equal(record.broker_name, 'contractor of assign');
    assert.equal(record.order_ref, 'NEW');
    assert.equal(record.order_status_id, 1);
    assert.equal(record.scheduled_date, DAY);
    assert.equal(record.route_id, null);
    assert.equal(record.note, 'North run');
    assert.equal(record.assigned_by, tenant.userIds.client_admin);
    assert.equal(record.assigned_at, '2026-11-02T09:30:00.000Z');
    assert.equal(record.ended_at, null);
  });

  it('refuses a missing or foreign contractor and bad bodies with 422, and non-admins with 403', async () => {
    for (const brokerId of [tenant.userIds.employee, 999_999]) {
      const answer = await assign([ids.MOVE!], brokerId);
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CONTRACTOR_NOT_FOUND');
    }
    const stranger = await server.app.services.accounts.createContractorCompany(server.db, {
      name: 'Not engaged',
      businessIds: [],
    });
    const outsider = await server.app.services.accounts.createUser(server.db, {
      kind: 'contractor',
      email: 'outsider@couriers.test',
      name: 'Outsider',
      password: null,
      businessId: null,
      contractorCompanyId: stranger,
    });
    assert.equal((await assign([ids.MOVE!], outsider)).body.error_code, 'CONTRACTOR_NOT_FOUND');
    for (const body of [
      { broker_id: first.id },
      { order_ids: [], broker_id: first.id },
      { order_ids: [ids.MOVE] },
      { order_ids: [ids.MOVE], broker_id: first.id, note: 'x'.repeat(501) },
    ]) {
      const answer = await api.post(BASE, body, { token: admin });
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
    }
    const longReason = await api.post(
      `${BASE}/revoke`,
      { order_ids: [ids.NEW], reason: 'x'.repeat(256) },
      { token: admin },
    );
    assert.equal(longReason.status, 422);
    for (const token of [employee, first.token]) {
      const answer = await assign([ids.MOVE!], first.id, {}, token);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error_code, 'FORBIDDEN');
    }
    const releaseByAdmin = await api.post(`${BASE}/release`, { order_id: ids.NEW }, { token: admin });
    assert.equal(releaseByAdmin.status, 403);
  });

  it('moves an order held by another contractor in one step, ending the old assignment as revoked', async () => {
    assert.equal((await assign([ids.MOVE!], first.id)).body.assigned, 1);
    const moved = await assign([ids.MOVE!], second.id);
    assert.equal(moved.body.assigned, 1);
    const history = (await api.get(`${BASE}?order_id=${ids.MOVE}`, { token: admin })).body.assignments;
    assert.deepEqual(
      history.map((a: { broker_id: number; status: string }) => [a.broker_id, a.status]),
      [
        [second.id, 'active'],
        [first.id, 'revoked'],
      ],
    );
    assert.equal(history[1].end_reason, `reassigned to contractor ${second.id}`);
    assert.equal(history[1].ended_by, tenant.userIds.client_admin);
    assert.equal(history[1].ended_at, '2026-11-02T09:30:00.000Z');
  });

  it('lists newest first with filters and pages; a contractor sees only its own, whatever broker_id says', async () => {
    const all = await api.get(BASE, { token: employee });
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 4);
    const idsInOrder = all.body.assignments.map((a: { id: number }) => a.id);
    assert.deepEqual(
      idsInOrder,
      [...idsInOrder].sort((x: number, y: number) => y - x),
    );
    const paged = await api.get(`${BASE}?per_page=1&page=2`, { token: admin });
    assert.deepEqual(
      {
        total: paged.body.total,
        page: paged.body.page,
        per_page: paged.body.per_page,
        id: paged.body.assignments[0].id,
      },
      { total: 4, page: 2, per_page: 1, id: idsInOrder[1] },
    );
    // Assignments accumulate: the envelope the interface shows, with a cursor to go on from.
    const firstOne = await api.get(`${BASE}?per_page=1`, { token: admin });
    const byCursor = await api.get(`${BASE}?per_page=1&cursor=${firstOne.body.next_cursor}`, {
      token: admin,
    });
    assert.deepEqual(
      [byCursor.body.page, byCursor.body.assignments[0].id, byCursor.body.total],
      [2, idsInOrder[1], 4],
    );
    assert.equal(all.body.next_cursor, null);
    const revoked = await api.get(`${BASE}?status=revoked`, { token: admin });
    assert.equal(revoked.body.total, 1);
    const ofSecond = await api.get(`${BASE}?broker_id=${second.id}`, { token: admin });
    assert.equal(ofSecond.body.total, 1);
    for (const query of ['per_page=0', 'per_page=201', 'page=0', 'status=lost']) {
      const bad = await api.get(`${BASE}?${query}`, { token: admin });
      assert.equal(bad.status, 422, query);
      assert.equal(bad.body.error_code, 'VALIDATION_FAILED');
    }
    const own = await api.get(`${BASE}?broker_id=${second.id}`, { token: first.token });
    assert.equal(own.status, 200);
    assert.ok(own.body.total > 0);
    assert.ok(own.body.assignments.every((a: { broker_id: number }) => a.broker_id === first.id));
  });

  it('puts an assigned order in its contractor pool only', async () => {
    // NEW and HELD are the first contractor's; MOVE is the second's.
    const staffPool = await api.get(`/api/v3/client/build-route/options?date=${DAY}`, { token: admin });
    const contractorOrders = (token: string) =>
      api
        .get(`/api/v1/client/orders?scheduled_date=${DAY}`, { token })
        .then((r) => r.body.orders.map((o: { order_ref: string }) => o.order_ref).sort());
    // Of the 8 orders, NEW and MOVE are assigned, HELD is held, SHIPPING not local, CARRIED carried, PICKED picked up.
    assert.equal(staffPool.body.pool.orders, 2);
    assert.deepEqual(await contractorOrders(first.token), ['HELD', 'NEW']);
    assert.deepEqual(await contractorOrders(second.token), ['MOVE']);
    // The contractor plans its assignment with its own fleet, although no rule covers it.
    const built = await api.post('/api/v3/client/build-route', { date: DAY }, { token: first.token });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.deepEqual(
      built.body.routes.flatMap((r: { stops: Array<{ order_id: number }> }) =>
        r.stops.map((s) => s.order_id),
      ),
      [ids.NEW],
    );
    const [record] = await active(ids.NEW!);
    assert.equal(record.route_id, built.body.routes[0].id);
    assert.equal(record.order_status_id, 3);
    // The business plans the rest, without the assigned orders.
    const rest = await api.post('/api/v3/client/build-route', { date: DAY }, { token: admin });
    const planned = rest.body.routes.flatMap((r: { stops: Array<{ order_id: number }> }) =>
      r.stops.map((s) => s.order_id),
    );
    assert.deepEqual(planned.sort(), [ids['GIVE-BACK'], ids.ROUTED].sort());
  });

  it('revokes what it can, refusing orders on a route or without an assignment', async () => {
    const answer = await api.post(
      `${BASE}/revoke`,
      { order_ids: [ids.NEW, ids.HELD, ids.SHIPPING, 999_999], reason: 'Back in house' },
      { token: admin, headers: { 'accept-language': 'de' } },
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(
      { result: answer.body.result, revoked: answer.body.revoked, skipped: answer.body.skipped },
      { result: true, revoked: 1, skipped: 3 },
    );
    const byOrder = messages(answer.body);
    assert.equal(
      byOrder[ids.NEW!],
      `Auftrag ${ids.NEW} ist auf einer Tour; nehmen Sie ihn zuerst von der Tour.`,
    );
    assert.match(byOrder[ids.SHIPPING!]!, /keine aktive Zuweisung/);
    const held = (await api.get(`${BASE}?order_id=${ids.HELD}`, { token: admin })).body.assignments[0];
    assert.deepEqual([held.status, held.end_reason], ['revoked', 'Back in house']);
    // Revoked, HELD follows the ordinary rules again, and no rule gives it to the first contractor.
    const firstView = await api.get(`/api/v1/client/orders/${ids.HELD}`, { token: first.token });
    assert.equal(firstView.status, 404);
  });

  it('lets only the holding contractor release, and not from a route', async () => {
    // GIVE-BACK was planned by the business above: it is on a route, so assign refuses it.
    const onRoute = await assign([ids['GIVE-BACK']!], first.id);
    assert.equal(onRoute.body.assigned, 0);
    assert.deepEqual(messages(onRoute.body), {
      [ids['GIVE-BACK']!]: `Order ${ids['GIVE-BACK']} is on a route; take it off the route first.`,
    });
    const notAssigned = await api.post(
      `${BASE}/release`,
      { order_id: ids['GIVE-BACK'] },
      { token: first.token },
    );
    assert.equal(notAssigned.status, 400);
    assert.equal(notAssigned.body.error_code, 'ORDER_NOT_ASSIGNED_TO_YOU');

    const order = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'RELEASE-ME', scheduled_date: DAY, dropoff: { line1: 'x' } },
      { token: admin },
    );
    const releaseMe = order.body.order_id;
    assert.equal((await assign([releaseMe], first.id)).body.assigned, 1);
    const byOther = await api.post(`${BASE}/release`, { order_id: releaseMe }, { token: second.token });
    assert.equal(byOther.status, 400);
    assert.equal(byOther.body.error_code, 'ORDER_NOT_ASSIGNED_TO_YOU');
    const byHolder = await api.post(`${BASE}/release`, { order_id: ids.MOVE }, { token: second.token });
    assert.equal(byHolder.status, 200, JSON.stringify(byHolder.body));
    // NEW is still the first contractor's (revoke refused it), and on its route.
    const planned = await api.post(`${BASE}/release`, { order_id: ids.NEW }, { token: first.token });
    assert.equal(planned.status, 400);
    assert.equal(planned.body.error_code, 'ORDER_ON_ROUTE');
    const released = await api.post(
      `${BASE}/release`,
      { order_id: releaseMe, reason: 'No capacity' },
      { token: first.token, headers: { 'accept-language': 'es' } },
    );
    assert.equal(released.status, 200);
    assert.equal(released.body.result, true);
    assert.match(released.body.message, new RegExp(`El pedido ${releaseMe} se ha liberado`));
    const again = await api.post(`${BASE}/release`, { order_id: releaseMe }, { token: first.token });
    assert.equal(again.status, 400);
    const record = (await api.get(`${BASE}?order_id=${releaseMe}`, { token: admin })).body.assignments[0];
    assert.deepEqual(
      [record.status, record.end_reason, record.ended_by],
      ['released', 'No capacity', first.id],
    );
  });

  it('writes every assignment change into the order audit trail', async () => {
    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [ids.MOVE] },
      { token: admin },
    );
    const changes = trail.body.events
      .filter((e: { action: string }) => e.action.startsWith('broker_'))
      .map((e: { action: string; changes: { broker_id: { from: number | null; to: number | null } } }) => [
        e.action,
        e.changes.broker_id.from,
        e.changes.broker_id.to,
      ]);
    assert.deepEqual(changes, [
      ['broker_assigned', null, first.id],
      ['broker_assigned', first.id, second.id],
      ['broker_released', second.id, null],
    ]);
  });

  it('never leaves two active assignments of one order, even when assigns race', async () => {
    const race = (
      await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: 'RACE', dropoff: { line1: 'x' } },
        { token: admin },
      )
    ).body.order_id;
    ids.RACE = race;
    for (let round = 0; round < 5; round++) {
      await api.post(`${BASE}/revoke`, { order_ids: [race] }, { token: admin });
      const [a, b] = await Promise.all([assign([race], first.id), assign([race], second.id)]);
      assert.equal(a.body.assigned, 1, JSON.stringify(a.body));
      assert.equal(b.body.assigned, 1, JSON.stringify(b.body));
      const current = await active(race);
      assert.equal(current.length, 1, `round ${round}`);
    }
    // The database itself refuses a second active assignment.
    await assert.rejects(
      server.db
        .insertInto('broker_order_assignments')
        .values({
          business_id: tenant.businessId,
          order_id: ids.RACE!,
          broker_user_id: first.id,
          status: 'active',
          note: null,
          assigned_by: null,
          assigned_at: new Date(),
          ended_by: null,
          ended_at: null,
          end_reason: null,
        })
        .execute(),
      /broker_order_assignments_one_active/,
    );
  });

  it('tells the contractor_assignment.changed webhook of each assignment, move and release', async () => {
    const received: Array<{ type: string; data: unknown }> = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(JSON.parse(body));
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/assignments`;
      const saved = await api.call('PUT', '/api/v1/webhook-settings', {
        token: admin,
        body: { urls: { 'contractor_assignment.changed': url } },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const hooked = (
        await api.post(
          '/api/v1/client/orderCreate',
          { order_ref: 'HOOKED', dropoff: { line1: 'x' } },
          { token: admin },
        )
      ).body.order_id;
      // Delivered one step at a time, so they arrive in the order they happened.
      const delivered = async (step: Promise<{ status: number; body: unknown }>) => {
        const answer = await step;
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        await server.app.outbox.drainOnce();
        return received.at(-1);
      };

      const assigned = await delivered(assign([hooked], first.id));
      assert.equal(assigned?.type, 'contractor_assignment.changed');
      assert.deepEqual(assigned?.data, {
        order_id: hooked,
        action: 'assigned',
        broker_id: first.id,
        previous_broker_id: null,
      });
      assert.deepEqual((await delivered(assign([hooked], second.id)))?.data, {
        order_id: hooked,
        action: 'assigned',
        broker_id: second.id,
        previous_broker_id: first.id,
      });
      const release = api.post(`${BASE}/release`, { order_id: hooked }, { token: second.token });
      assert.deepEqual((await delivered(release))?.data, {
        order_id: hooked,
        action: 'released',
        broker_id: second.id,
      });
      assert.equal(received.length, 3);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('answers result false when it revokes nothing, naming an unknown order as not found', async () => {
    const answer = await api.post(`${BASE}/revoke`, { order_ids: [999_999] }, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      { result: answer.body.result, revoked: answer.body.revoked, skipped: answer.body.skipped },
      { result: false, revoked: 0, skipped: 1 },
    );
    assert.equal(messages(answer.body)[999_999], 'No order 999999 exists in this business.');
  });

  it("keeps an order another contractor holds out of a contractor's view, inside the contractor's own rules", async () => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: ['ELSEWHERE', 'OPEN'].map((ref) => ({
          order_ref: ref,
          scheduled_date: DAY,
          dropoff: { line1: `${ref} street`, postal_code: '69002', lat: 48.86, lng: 2.35 },
        })),
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [elsewhere] = created.body.orders as Array<{ id: number }>;
    assert.equal((await assign([elsewhere!.id], second.id)).body.result, true);
    const rule = await api.post(
      '/api/v1/client/contractor-rules',
      { contractor_company_id: tenant.contractorCompanyId, postal_prefixes: ['69002'], valid_from: DAY },
      { token: admin },
    );
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    try {
      const seen = await api.get(`/api/v1/client/orders?scheduled_date=${DAY}&per_page=100`, {
        token: first.token,
      });
      const refs = seen.body.orders.map((order: { order_ref: string }) => order.order_ref);
      assert.ok(refs.includes('OPEN'), JSON.stringify(refs));
      assert.ok(!refs.includes('ELSEWHERE'), JSON.stringify(refs));
    } finally {
      await api.call('DELETE', `/api/v1/client/contractor-rules/${rule.body.rule.id}`, { token: admin });
    }
  });
});
