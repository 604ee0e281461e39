import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORDER_FAMILIES } from '../src/modules/orders/schemas.ts';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('orders', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;

  const create = (body: unknown, token = admin) => api.post('/api/v1/client/orderCreate', body, { token });
  const detail = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order;
  const move = (id: number, action: string, body: unknown = {}) =>
    api.post(`/api/v1/client/orders/${id}/${action}`, body, { token: employee });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'orders');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
  });
  after(() => server.close());

  it('creates a delivery order with packages, tracking numbers and exact prices', async () => {
    const answer = await create({
      order_ref: 'A-100',
      type: 'D',
      scheduled_date: '2026-11-03',
      time_window: { start: '09:00', end: '12:00' },
      dropoff: {
        name: 'Li Wei',
        phone: '+86 21 5555 0000',
        line1: '88 Century Ave',
        city: 'Shanghai',
        postal_code: '200120',
        country: 'CN',
        lat: 31.2304,
        lng: 121.4737,
      },
      customer_id: tenant.userIds.customer,
      currency: 'EUR',
      shipping_price: 12.5,
      tax: '2.38',
      surcharges: [{ code: 'fuel', amount: 0.75 }],
      price_details: [{ label: 'base', amount: 11.75 }],
      packages: [
        { weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 },
        { weight_grams: 400 },
      ],
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [order] = answer.body.orders;
    assert.equal(answer.body.order_id, order.id);
    assert.equal(order.status, 'NEW_ORDER');
    assert.equal(order.family, 'local_delivery');
    assert.equal(order.self_delivery, true);
    assert.deepEqual(order.time_window, { start: '09:00', end: '12:00' });
    assert.equal(order.scheduled_date, '2026-11-03');
    assert.equal(order.customer_id, tenant.userIds.customer);
    assert.deepEqual(
      [order.currency, order.shipping_price, order.tax, order.surcharges, order.price_details],
      ['EUR', 12.5, 2.38, [{ code: 'fuel', amount: 0.75 }], [{ label: 'base', amount: 11.75 }]],
    );
    assert.equal(order.packages.length, 2);
    assert.equal(answer.body.tracking_number, order.packages[0].tracking_number);
    for (const pkg of order.packages) assert.match(pkg.tracking_number, /^TMS[0-9A-HJKMNP-TV-Z]{10}$/);
    assert.notEqual(order.packages[0].tracking_number, order.packages[1].tracking_number);
    const stored = await server.db
      .selectFrom('orders')
      .select(['shipping_price_minor', 'tax_minor'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { shipping_price_minor: 1250, tax_minor: 238 });
  });

  it('creates every order family with prices, and keeps currencies exact', async () => {
    for (const family of ORDER_FAMILIES) {
      const answer = await create({
        family,
        dropoff: { line1: '1 Main St' },
        currency: family === 'ltl_service' ? 'JPY' : 'USD',
        shipping_price: family === 'ltl_service' ? 1500 : '19.99',
      });
      assert.equal(answer.status, 200, `${family}: ${JSON.stringify(answer.body)}`);
      const order = await detail(answer.body.order_id);
      assert.equal(order.family, family);
      assert.equal(order.type, family === 'local_delivery' ? 'D' : null);
      assert.equal(order.shipping_price, family === 'ltl_service' ? 1500 : 19.99);
    }
    const tooPrecise = await create({ dropoff: { line1: 'x' }, currency: 'JPY', shipping_price: 10.5 });
    assert.equal(tooPrecise.status, 422);
    assert.equal(tooPrecise.body.error_code, 'AMOUNT_TOO_PRECISE');
  });

  it('checks the fields each kind of order needs, naming them in the caller language', async () => {
    const cases: Array<[unknown, string[]]> = [
      // One order sent as it is: its own fields are named.
      [{ type: 'P', dropoff: { line1: 'x' } }, ['pickup']],
      [{ type: 'P2P', pickup: { line1: 'x' } }, ['dropoff']],
      [{ order_ref: 'NO-DROPOFF' }, ['dropoff']],
      [{ family: 'label_service', type: 'D', dropoff: { line1: 'x' } }, ['type']],
      [{ dropoff: { line1: 'x' }, shipping_price: 3 }, ['currency']],
      [
        { dropoff: { line1: '' }, time_window: { start: '12:00', end: '09:00' } },
        ['time_window.end', 'dropoff.line1'],
      ],
      // A list: each order by its place in it.
      [
        { orders: [{ dropoff: { line1: 'x' } }, { type: 'P2P', pickup: { line1: 'x' } }] },
        ['orders.1.dropoff'],
      ],
    ];
    for (const [body, fields] of cases) {
      const answer = await api.post('/api/v1/client/orderCreate', body, {
        token: admin,
        headers: { 'accept-language': 'fr' },
      });
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.deepEqual(
        answer.body.details.fields.map((f: { field: string }) => f.field).sort(),
        [...fields].sort(),
      );
      assert.match(answer.body.message, /^Certains champs sont invalides/);
    }
  });

  it('creates several orders all together or not at all', async () => {
    const fine = await create({
      orders: [
        { order_ref: 'M-1', dropoff: { line1: 'a' } },
        { order_ref: 'M-2', dropoff: { line1: 'b' } },
      ],
    });
    assert.equal(fine.status, 200);
    assert.equal(fine.body.orders.length, 2);
    const clash = await create({
      orders: [
        { order_ref: 'M-3', dropoff: { line1: 'a' } },
        { order_ref: 'M-1', dropoff: { line1: 'b' } },
      ],
    });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error_code, 'ORDER_REF_TAKEN');
    const none = await api.get('/api/v1/client/orders?order_ref=M-3', { token: admin });
    assert.equal(none.body.total, 0);
  });

  it('bulk-creates 100 orders with 3 invalid ones: 97 created, 3 reported with reasons', async () => {
    const orders: unknown[] = Array.from({ length: 100 }, (_, i) => ({
      order_ref: `BULK-${i}`,
      dropoff: { line1: `${i} Bulk Road` },
    }));
    orders[10] = { order_ref: 'BULK-10', type: 'P' };
    orders[50] = { order_ref: 'BULK-1', dropoff: { line1: 'duplicate reference' } };
    orders[99] = { order_ref: 'BULK-99', dropoff: { line1: 'x' }, customer_id: tenant.userIds.driver };
    const answer = await api.post(
      '/api/v1/client/orders/bulk',
      { orders },
      { token: admin, headers: { 'accept-language': 'de' } },
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.created, 97);
    assert.equal(answer.body.failed, 3);
    const failures = answer.body.results.filter((r: { success: boolean }) => !r.success);
    assert.deepEqual(
      failures.map((f: { index: number; error_code: string }) => [f.index, f.error_code]),
      [
        [10, 'VALIDATION_FAILED'],
        [50, 'ORDER_REF_TAKEN'],
        [99, 'CUSTOMER_NOT_FOUND'],
      ],
    );
    assert.equal(
      failures[1].message,
      'Die Auftragsreferenz BULK-1 wird in diesem Unternehmen bereits verwendet.',
    );
    const listed = await api.get('/api/v1/client/orders?per_page=200', { token: admin });
    assert.equal(
      listed.body.orders.filter((o: { order_ref: string }) => o.order_ref.startsWith('BULK-')).length,
      97,
    );
    const tooMany = await api.post(
      '/api/v1/client/orders/bulk',
      { orders: Array(101).fill({}) },
      { token: admin },
    );
    assert.equal(tooMany.status, 422);
  });

  it('lists with filters and pages, newest first, and finds by reference or tracking number', async () => {
    const made = await create({
      order_ref: 'FIND-ME',
      scheduled_date: '2026-12-24',
      dropoff: { line1: 'North Pole' },
    });
    const tracking = made.body.tracking_number;
    const byDate = await api.get('/api/v1/client/orders?scheduled_date=2026-12-24', { token: employee });
    assert.deepEqual(
      byDate.body.orders.map((o: { order_ref: string }) => o.order_ref),
      ['FIND-ME'],
    );
    const byNumber = await api.get(`/api/v1/client/orders?tracking_number=${tracking}`, { token: employee });
    assert.equal(byNumber.body.orders[0].order_ref, 'FIND-ME');
    const page = await api.get('/api/v1/client/orders?per_page=5&page=2', { token: employee });
    assert.equal(page.body.per_page, 5);
    assert.equal(page.body.page, 2);
    assert.equal(page.body.orders.length, 5);
    assert.ok(page.body.total > 100);
    const first = await api.get('/api/v1/client/orders?per_page=1', { token: employee });
    assert.equal(first.body.orders[0].order_ref, 'FIND-ME');
    // Orders arrive without end: the page after a cursor stays put when a new one comes first.
    const firstFive = await api.get('/api/v1/client/orders?per_page=5', { token: employee });
    await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    const following = await api.get(`/api/v1/client/orders?per_page=5&cursor=${firstFive.body.next_cursor}`, {
      token: employee,
    });
    assert.deepEqual(
      following.body.orders.map((o: { id: number }) => o.id),
      page.body.orders.map((o: { id: number }) => o.id),
      'the same five orders as page 2 before the new one',
    );
    assert.deepEqual([following.body.page, following.body.total], [2, page.body.total + 1]);
    assert.equal((await api.get('/api/v1/client/orders?per_page=201', { token: employee })).status, 422);
    assert.equal((await api.get('/api/v1/client/orders?status=LOST', { token: employee })).status, 422);

    assert.equal(
      (await api.get('/api/v1/client/orders/find?order_ref=FIND-ME', { token: employee })).body.order.id,
      made.body.order_id,
    );
    assert.equal(
      (await api.get(`/api/v1/client/orders/find?tracking_number=${tracking}`, { token: employee })).body
        .order.order_ref,
      'FIND-ME',
    );
    assert.equal((await api.get('/api/v1/client/orders/find', { token: employee })).status, 422);
    const missing = await api.get('/api/v1/client/orders/find?order_ref=NOPE', {
      token: employee,
      headers: { 'accept-language': 'zh-CN' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, '本企业不存在订单 NOPE。');
  });

  it('moves through the lifecycle and refuses illegal transitions with 409', async () => {
    const { order_id: id } = (await create({ dropoff: { line1: 'Lifecycle Lane' } })).body;
    assert.equal((await move(id, 'hold')).body.order.status, 'HOLD');
    const heldAgain = await move(id, 'hold');
    assert.equal(heldAgain.status, 409);
    assert.deepEqual(heldAgain.body.details, { from: 'HOLD', to: 'HOLD' });
    assert.equal((await move(id, 'release')).body.order.status, 'NEW_ORDER');
    for (const status of ['PICKED_UP', 'OUT_FOR_DELIVERY', 'DELIVERED']) {
      const answer = await move(id, 'status', { status });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.order.status, status);
    }
    const cancelDelivered = await move(id, 'cancel', {});
    assert.equal(cancelDelivered.status, 409);
    assert.equal(cancelDelivered.body.error_code, 'ILLEGAL_STATUS_TRANSITION');
    const release = await api.post(
      `/api/v1/client/orders/${id}/release`,
      {},
      { token: employee, headers: { 'accept-language': 'es' } },
    );
    assert.equal(release.body.message, 'Un pedido en estado DELIVERED no puede pasar a NEW_ORDER.');

    const { order_id: other } = (await create({ dropoff: { line1: 'Cancel Court' } })).body;
    assert.equal((await move(other, 'cancel')).body.order.status, 'CANCELLED');
    assert.equal((await move(other, 'status', { status: 'PICKED_UP' })).status, 409);
    assert.equal((await move(999_999, 'cancel')).status, 404);
  });

  it('reroutes an order before pickup, moving its packages to the new order', async () => {
    const made = (await create({ order_ref: 'RR-1', dropoff: { line1: 'Old Street 1' }, note: 'fragile' }))
      .body;
    const answer = await move(made.order_id, 'reroute', { dropoff: { line1: 'New Street 2', city: 'Lyon' } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.cancelled_order_id, made.order_id);
    assert.equal(answer.body.order.order_ref, 'RR-1-R1');
    assert.equal(answer.body.order.dropoff.line1, 'New Street 2');
    assert.equal(answer.body.order.note, 'fragile');
    assert.equal(answer.body.order.rerouted_from, made.order_id);
    assert.equal(answer.body.order.packages[0].tracking_number, made.tracking_number);
    const old = await detail(made.order_id);
    assert.equal(old.status, 'CANCELLED');
    assert.deepEqual(old.packages, []);

    await move(answer.body.order.id, 'status', { status: 'PICKED_UP' });
    const late = await move(answer.body.order.id, 'reroute', { dropoff: { line1: 'Too late' } });
    assert.equal(late.status, 409);
  });

  it('updates notes, instructions and time windows, and keeps an audit trail of every change', async () => {
    const made = (await create({ order_ref: 'AUD-1', dropoff: { line1: 'Audit Ave' } })).body;
    // An empty text where there is none, and the same text again, change nothing: no event.
    await move(made.order_id, 'note', { note: '' });
    await move(made.order_id, 'note', { note: 'ring twice' });
    const again = await move(made.order_id, 'note', { note: 'ring twice' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.order.note, 'ring twice');
    await move(made.order_id, 'delivery-instruction', { delivery_instruction: 'back door' });
    await move(made.order_id, 'delivery-instruction', { delivery_instruction: 'back door' });
    const windows = await api.post(
      '/api/v1/client/orders/time-window',
      {
        order_refs: ['AUD-1', 'NOT-THERE'],
        time_window: { start: '14:00', end: '16:00' },
        scheduled_date: '2026-11-05',
      },
      { token: employee },
    );
    assert.equal(windows.body.updated, 1);
    assert.deepEqual(
      windows.body.errors.map((e: { order_ref: string }) => e.order_ref),
      ['NOT-THERE'],
    );
    await move(made.order_id, 'hold');

    const order = await detail(made.order_id);
    assert.deepEqual(
      [order.note, order.delivery_instruction, order.time_window, order.scheduled_date],
      ['ring twice', 'back door', { start: '14:00', end: '16:00' }, '2026-11-05'],
    );

    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_refs: ['AUD-1'] },
      { token: employee },
    );
    assert.deepEqual(
      trail.body.events.map((e: { action: string }) => e.action),
      ['created', 'note_updated', 'delivery_instruction_updated', 'time_window_updated', 'status_changed'],
    );
    const held = trail.body.events[4];
    assert.deepEqual(held.changes.status, { from: 'NEW_ORDER', to: 'HOLD' });
    assert.equal(held.actor.id, tenant.userIds.employee);
    assert.equal(held.source, 'rest');
    assert.deepEqual(trail.body.events[1].changes, { note: { from: null, to: 'ring twice' } });
    assert.equal(trail.body.events[0].actor.id, tenant.userIds.client_admin);
    assert.equal((await api.post('/api/v1/tracking/operationevents', {}, { token: employee })).status, 422);
  });

  it('counts a day by status and lists failed, held and late orders', async () => {
    const day = '2026-11-02';
    const ids: number[] = [];
    for (const ref of ['S-1', 'S-2', 'S-3', 'S-4']) {
      ids.push(
        (
          await create({
            order_ref: ref,
            scheduled_date: day,
            time_window: { start: '08:00', end: '09:00' },
            dropoff: { line1: ref },
          })
        ).body.order_id,
      );
    }
    await move(ids[0]!, 'hold');
    for (const status of ['PICKED_UP', 'OUT_FOR_DELIVERY', 'FAILED_ATTEMPT'])
      await move(ids[1]!, 'status', { status });
    await move(ids[2]!, 'cancel');
    const snapshot = await api.get(`/api/v1/client/orders/snapshot?date=${day}`, { token: employee });
    assert.equal(snapshot.body.total, 4);
    assert.deepEqual(
      [
        snapshot.body.by_status.HOLD,
        snapshot.body.by_status.FAILED_ATTEMPT,
        snapshot.body.by_status.CANCELLED,
        snapshot.body.by_status.NEW_ORDER,
        snapshot.body.by_status.DELIVERED,
      ],
      [1, 1, 1, 1, 0],
    );
    // The test clock reads 09:30 UTC = 17:30 in Shanghai: S-4's 08:00-09:00 window has passed.
    const exceptions = await api.get('/api/v1/client/orders/exceptions', { token: employee });
    const reasons = Object.fromEntries(
      exceptions.body.exceptions.map((e: { reason: string; order: { order_ref: string } }) => [
        e.order.order_ref,
        e.reason,
      ]),
    );
    assert.equal(reasons['S-1'], 'held');
    assert.equal(reasons['S-2'], 'failed');
    assert.equal(reasons['S-3'], undefined);
    assert.equal(reasons['S-4'], 'late');
    // In the envelope of every list: one a page, the same total.
    const first = await api.get('/api/v1/client/orders/exceptions?per_page=1', { token: employee });
    assert.deepEqual(
      [first.body.total, first.body.page, first.body.per_page, first.body.exceptions.length],
      [exceptions.body.exceptions.length, 1, 1, 1],
    );
  });

  it('lets only staff with the right scopes in; contractors read their pool, customers their own orders', async () => {
    for (const kind of ['driver', 'platform_admin'] as const) {
      const token = await login(api, tenant.emails[kind]);
      const answer = await api.get('/api/v1/client/orders', { token });
      assert.equal(answer.status, 403, kind);
      assert.equal(answer.body.error_code, 'FORBIDDEN');
    }
    // A customer sees its own orders only.
    const asCustomer = await api.get('/api/v1/client/orders?per_page=200', {
      token: await login(api, tenant.emails.customer),
    });
    assert.equal(asCustomer.status, 200);
    const all = (await api.get('/api/v1/client/orders?per_page=200', { token: admin })).body.orders;
    const own = all.filter((o: { customer_id: number | null }) => o.customer_id === tenant.userIds.customer);
    assert.ok(all.length > own.length);
    assert.equal(asCustomer.body.total, own.length);
    // A contractor without rules has an empty pool, and may not write.
    const contractor = await login(api, tenant.emails.contractor);
    const seen = await api.get('/api/v1/client/orders', { token: contractor });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.total, 0);
    const written = await create({ dropoff: { line1: 'x' } }, contractor);
    assert.equal(written.status, 403);
    assert.equal(written.body.error_code, 'FORBIDDEN');
    const agent = await server.app.services.accounts.issueToken(server.db, {
      userId: tenant.userIds.employee,
      kind: 'agent',
    });
    assert.equal((await api.get('/api/v1/client/orders', { token: agent.token })).status, 200);
    const write = await create({ dropoff: { line1: 'x' } }, agent.token);
    assert.equal(write.status, 403);
    assert.equal(write.body.error_code, 'INSUFFICIENT_SCOPE');
    assert.equal((await api.get('/api/v1/client/orders')).status, 401);
  });
});
