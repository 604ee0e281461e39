import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import type { OperationContext } from '../src/platform/catalog/operation.ts';
import { createTenant, issuedToken, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The tenant's business is in Asia/Shanghai (UTC+8): local 09:00 on 2026-11-02 is 01:00Z.
const at = (utc: string) => new Date(`2026-11-${utc}Z`);

describe('analytics: orders summary and daily digest', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let customer: string;
  let hiddenCustomer: string;
  let hiddenCustomerId: number;
  const ids: Record<string, number> = {};

  const summary = (query: string, token = admin) =>
    api.get(`/api/v1/analytics/orders-summary?${query}`, { token });
  const digest = (query: string, token = admin, headers: Record<string, string> = {}) =>
    api.get(`/api/v1/analytics/daily-digest?${query}`, { token, headers });
  const create = async (ref: string, fields: Record<string, unknown>) => {
    const answer = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, family: 'local_delivery', type: 'D', dropoff: { line1: '1 Main street' }, ...fields },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    ids[ref] = answer.body.order_id;
  };
  const move = async (ref: string, when: string, status: string, extra: Record<string, unknown> = {}) => {
    server.clock.set(at(when));
    if (when.startsWith('09')) admin = await login(api, tenant.emails.client_admin);
    const answer = await api.post(
      `/api/v1/client/orders/${ids[ref]}/status`,
      { status, ...extra },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };
  const deliver = async (ref: string, when: string) => {
    await move(ref, when, 'PICKED_UP');
    await move(ref, when, 'OUT_FOR_DELIVERY');
    await move(ref, when, 'DELIVERED');
  };
  const snapshot = () => server.app.services.analytics.snapshot(server.db, tenant.businessId);

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'figures');
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
    hiddenCustomerId = await server.app.services.accounts.createUser(server.db, {
      kind: 'customer',
      email: 'hidden@figures.test',
      name: 'Hidden prices',
      password: PASSWORD,
      businessId: tenant.businessId,
    });
    hiddenCustomer = await login(api, 'hidden@figures.test');
    const hide = await api.call('PUT', `/api/v1/client/customers/${hiddenCustomerId}/price-visibility`, {
      token: admin,
      body: { hidden: { local_delivery: true } },
    });
    assert.equal(hide.status, 200, JSON.stringify(hide.body));

    // Monday 2 November, local time.
    server.clock.set(at('02T01:00:00'));
    const window = (start: string, end: string) => ({
      scheduled_date: '2026-11-02',
      time_window: { start, end },
    });
    const visible = tenant.userIds.customer;
    await create('on-time', {
      customer_id: visible,
      ...window('18:00', '20:00'),
      currency: 'EUR',
      shipping_price: '10.00',
      tax: '2.00',
      surcharges: [{ code: 'fuel', amount: '1.25' }],
    });
    await create('late', {
      customer_id: visible,
      ...window('18:00', '19:00'),
      currency: 'EUR',
      shipping_price: 20,
    });
    await create('failed', { currency: 'EUR', shipping_price: 7 });
    await create('cancelled', { customer_id: hiddenCustomerId, currency: 'EUR', shipping_price: 5 });
    await create('next-day', {
      customer_id: hiddenCustomerId,
      scheduled_date: '2026-11-03',
      time_window: { start: '10:00', end: '12:00' },
      currency: 'EUR',
      shipping_price: 3,
    });
    await deliver('on-time', '02T11:00:00'); // 19:00 local, in 18:00-20:00
    await deliver('late', '02T11:30:00'); // 19:30 local, after 19:00
    await move('failed', '02T12:00:00', 'PICKED_UP');
    await move('failed', '02T12:00:00', 'FAILED_ATTEMPT', {
      incident_reason: { code: 'recipient_absent', message: 'Nobody home' },
    });
    server.clock.set(at('02T12:30:00'));
    const cancelled = await api.post(`/api/v1/client/orders/${ids.cancelled}/cancel`, {}, { token: admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    // Either side of local midnight.
    server.clock.set(at('02T15:59:30'));
    await create('last-minute', {});
    server.clock.set(at('02T16:00:30'));
    await create('first-minute', {});
    await deliver('next-day', '03T03:00:00'); // 11:00 local on the 3rd, in its window
    // Monday a week later: one failed attempt.
    server.clock.set(at('09T02:00:00'));
    admin = await login(api, tenant.emails.client_admin);
    await create('week-later', {});
    await move('week-later', '09T03:00:00', 'PICKED_UP');
    await move('week-later', '09T03:00:00', 'FAILED_ATTEMPT', {
      incident_reason: { code: 'address_not_found' },
    });
    server.clock.set(at('10T02:00:00'));
    // Tokens of a week ago have expired: sign in again, now.
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
    hiddenCustomer = await login(api, 'hidden@figures.test');
  });
  after(() => server.close());

  it('counts a day exactly, each event on its local day', async () => {
    const day = await summary('from=2026-11-02&to=2026-11-02');
    assert.equal(day.status, 200, JSON.stringify(day.body));
    const body = day.body;
    assert.deepEqual(body.period, {
      name: 'range',
      from: '2026-11-02',
      to: '2026-11-02',
      time_zone: 'Asia/Shanghai',
    });
    assert.equal(body.customer_id, null);
    assert.equal(body.created, 6, 'last-minute is on the 2nd, first-minute on the 3rd');
    assert.equal(body.delivered, 2);
    assert.equal(body.failed_attempts, 1);
    assert.equal(body.returned, 0);
    assert.equal(body.cancelled, 1);
    assert.deepEqual(body.on_time, { rate: 0.5, on_time: 1, early: 0, late: 1, without_window: 0 });
    // 10 h and 10 h 30 from creation (01:00Z) to delivery.
    assert.equal(body.average_delivery_minutes, 615);
    assert.deepEqual(body.by_status, [
      { status: 'NEW_ORDER', orders: 1 },
      { status: 'DELIVERED', orders: 3 },
      { status: 'FAILED_ATTEMPT', orders: 1 },
      { status: 'CANCELLED', orders: 1 },
    ]);
    assert.equal(body.by_family.length, 1);
    assert.equal(body.by_family[0].family, 'local_delivery');
    assert.equal(body.by_family[0].on_time_rate, 0.5);
    // Booked: 11.25 + 20 + 7 + 3 (tax left out, the cancelled order's 5 taken out again).
    assert.deepEqual(body.revenue, [{ family: 'local_delivery', currency: 'EUR', amount: 41.25, orders: 4 }]);
    assert.deepEqual(body.top_exception_reasons, [
      { kind: 'failed_attempt', code: 'recipient_absent', count: 1 },
    ]);

    const next = (await summary('from=2026-11-03&to=2026-11-03')).body;
    assert.equal(next.created, 1);
    assert.equal(next.delivered, 1);
    assert.deepEqual(next.on_time, { rate: 1, on_time: 1, early: 0, late: 0, without_window: 0 });
    assert.equal(next.revenue.length, 0);
  });

  it('resolves today, the ISO week and the month in the business time zone', async () => {
    // 2026-11-03T15:00Z is already Wednesday the 4th in Shanghai... no: 23:00 on the 3rd.
    server.clock.set(at('03T15:00:00'));
    const today = (await summary('period=today')).body;
    assert.deepEqual([today.period.from, today.period.to], ['2026-11-03', '2026-11-03']);
    assert.equal(today.created, 1);
    server.clock.set(at('03T16:30:00')); // 00:30 on Wednesday the 4th
    assert.equal((await summary('period=today')).body.period.from, '2026-11-04');
    const week = (await summary('period=week')).body;
    assert.deepEqual([week.period.from, week.period.to], ['2026-11-02', '2026-11-08']);
    assert.equal(week.created, 7);
    const month = (await summary('period=month')).body;
    assert.deepEqual([month.period.from, month.period.to], ['2026-11-01', '2026-11-30']);
    assert.equal(month.created, 8);
    assert.equal(month.failed_attempts, 2);
    assert.equal((await summary('')).body.period.name, 'today');
    server.clock.set(at('10T02:00:00'));
  });

  it('shows a customer its own orders only, and no revenue of a family whose prices it may not see', async () => {
    const own = (await summary(`period=month&customer_id=${hiddenCustomerId}`, customer)).body;
    assert.equal(own.customer_id, tenant.userIds.customer, 'a customer cannot name another');
    assert.equal(own.created, 2);
    assert.equal(own.delivered, 2);
    assert.deepEqual(own.revenue, [{ family: 'local_delivery', currency: 'EUR', amount: 31.25, orders: 2 }]);
    assert.equal(own.price_hidden, undefined);

    const hidden = (await summary('period=month', hiddenCustomer)).body;
    assert.equal(hidden.created, 2);
    assert.equal(hidden.cancelled, 1);
    assert.equal(hidden.delivered, 1);
    assert.deepEqual(hidden.revenue, [{ family: 'local_delivery', orders: 1, price_hidden: true }]);
    assert.equal(hidden.price_hidden, true);
    assert.ok(!JSON.stringify(hidden).includes('EUR'));

    // Staff may look at one customer.
    const ofCustomer = (await summary(`period=month&customer_id=${hiddenCustomerId}`)).body;
    assert.equal(ofCustomer.customer_id, hiddenCustomerId);
    assert.deepEqual(ofCustomer.revenue, [
      { family: 'local_delivery', currency: 'EUR', amount: 3, orders: 1 },
    ]);
  });

  it('digests a day against the same weekday a week before, in the caller’s language', async () => {
    const answer = await digest('', admin, { 'accept-language': 'fr' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const body = answer.body;
    assert.equal(body.date, '2026-11-09', 'yesterday, local');
    assert.equal(body.compared_with, '2026-11-02');
    assert.deepEqual(body.figures.orders_in, { value: 1, previous: 6, change: -5 });
    assert.deepEqual(body.figures.orders_out, { value: 0, previous: 3, change: -3 });
    assert.deepEqual(body.figures.failed_attempts, { value: 1, previous: 1, change: 0 });
    assert.deepEqual(body.figures.on_time_rate, { value: null, previous: 0.5, change: null });
    assert.deepEqual(body.figures.routes, { value: 0, previous: 0, change: 0 });
    assert.equal(body.exceptions.count, 1);
    assert.deepEqual(body.exceptions.orders, [
      {
        order_id: ids['week-later'],
        order_ref: 'week-later',
        family: 'local_delivery',
        customer_id: null,
        kind: 'failed_attempt',
        reason_code: 'address_not_found',
        note: null,
        at: '2026-11-09 11:00:00',
      },
    ]);
    assert.match(body.summary, /1 commande reçue \(-5 /);
    const before = (await digest('date=2026-11-02')).body;
    assert.match(before.summary, /6 orders in/);
    assert.deepEqual(before.exceptions.orders[0].note, 'Nobody home');
    assert.deepEqual(before.top_exception_reasons, [
      { kind: 'failed_attempt', code: 'recipient_absent', count: 1 },
    ]);
  });

  it('leaves the rollup untouched by a dry run', async () => {
    const before = await snapshot();
    const preview = await api.post(
      `/api/v1/client/orders/${ids['last-minute']}/cancel`,
      {},
      { token: admin, headers: { 'x-dry-run': '1' } },
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.dry_run, true);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { family: 'local_delivery', type: 'D', dropoff: { line1: 'x' }, currency: 'EUR', shipping_price: 1 },
      { token: admin, headers: { 'x-dry-run': '1' } },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(await snapshot(), before);
  });

  it('leaves the rollup untouched when the change is rolled back', async () => {
    const before = await snapshot();
    await assert.rejects(
      server.db.transaction().execute(async (tx) => {
        const ctx = {
          db: tx,
          caller: {
            userId: tenant.userIds.client_admin,
            kind: 'client_admin',
            businessId: tenant.businessId,
            contractorCompanyId: null,
            tokenId: 0,
            scopes: 'all',
          },
          lang: 'en',
          clock: server.clock,
          requestId: 'rollback',
          door: 'system',
          ip: undefined,
          answer: {},
          provider: null,
          business: tenant.businessId,
          representation: undefined,
        } as unknown as OperationContext;
        await server.app.services.orders.changes.changeStatus(ctx, ids['last-minute']!, 'CANCELLED');
        assert.notDeepEqual(await server.app.services.analytics.snapshot(tx, tenant.businessId), before);
        throw new Error('the caller gives up');
      }),
      /the caller gives up/,
    );
    assert.deepEqual(await snapshot(), before);
  });

  it('stays exact under concurrent changes of many orders', async () => {
    const refs = Array.from({ length: 12 }, (_, n) => `busy-${n}`);
    for (const [n, ref] of refs.entries()) {
      await create(ref, {
        customer_id: n % 2 === 0 ? tenant.userIds.customer : undefined,
        currency: 'EUR',
        shipping_price: 2,
      });
    }
    const moves = (ref: string, n: number) => async () => {
      for (const status of ['PICKED_UP', n % 3 === 0 ? 'FAILED_ATTEMPT' : 'DELIVERED']) {
        const answer = await api.post(
          `/api/v1/client/orders/${ids[ref]}/status`,
          { status },
          { token: admin },
        );
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      }
    };
    await Promise.all(refs.map((ref, n) => moves(ref, n)()));
    const live = await snapshot();
    await server.app.services.analytics.rebuild(server.db, tenant.businessId);
    assert.deepEqual(await snapshot(), live);
    const today = (await summary('period=today')).body;
    assert.equal(today.delivered, 8);
    assert.equal(today.failed_attempts, 4);
  });

  it('rebuilds from the orders the same rollup the changes kept', async () => {
    const live = await snapshot();
    const figures = (await summary('period=month')).body;
    const written = await server.app.services.analytics.rebuild(server.db, tenant.businessId);
    assert.ok(written.daily > 0 && written.exceptions === 6, JSON.stringify(written));
    assert.deepEqual(await snapshot(), live);
    assert.deepEqual((await summary('period=month')).body, figures);
  });

  it('refuses the wrong kind, a missing scope, another business and bad input, over REST and GraphQL', async () => {
    const driver = await login(api, tenant.emails.driver);
    const contractor = await login(api, tenant.emails.contractor);
    for (const token of [driver, contractor]) {
      const refused = await summary('period=today', token);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'FORBIDDEN');
      assert.equal((await digest('', token)).status, 403);
    }
    const customerDigest = await digest('', customer);
    assert.equal(customerDigest.status, 403);
    assert.equal(customerDigest.body.error_code, 'FORBIDDEN');

    const narrow = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'wms-readonly',
    });
    for (const answer of [await summary('period=today', narrow), await digest('', narrow)]) {
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'INSUFFICIENT_SCOPE');
    }

    const other = await createTenant(server.db, server.app.services, 'figures-other');
    const otherAdmin = await login(api, other.emails.client_admin);
    const foreign = await summary(`period=month&customer_id=${tenant.userIds.customer}`, otherAdmin);
    // The customer of another business is refused as unknown here (CUSTOMER_NOT_FOUND is a 422), never shown.
    assert.equal(foreign.status, 422, JSON.stringify(foreign.body));
    assert.equal(foreign.body.error_code, 'CUSTOMER_NOT_FOUND');
    const own = (await summary('from=2026-11-01&to=2026-11-30', otherAdmin)).body;
    assert.equal(own.created, 0, 'another business sees none of these orders');
    assert.equal((await digest('date=2026-11-02', otherAdmin)).body.exceptions.count, 0);

    const bad = async (query: string, field: string, token = admin, call = summary) => {
      const answer = await call(query, token);
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      assert.equal(typeof answer.body.message, 'string');
      assert.ok(
        answer.body.details.fields.some((f: { field: string }) => f.field === field),
        JSON.stringify(answer.body),
      );
    };
    await bad('from=2026-11-01', 'to');
    await bad('from=2026-11-10&to=2026-11-01', 'to');
    await bad('from=2025-01-01&to=2026-01-02', 'to');
    await bad('period=year', 'period');
    await bad('period=week&from=2026-11-01&to=2026-11-02', 'period');
    await bad('date=yesterday', 'date', admin, digest);
    assert.equal((await summary('from=2025-01-01&to=2026-01-01')).status, 200, '366 days are allowed');

    const graphql = (token: string) =>
      new GraphQLClient(`${server.baseUrl}/api/graphql`, { headers: { authorization: `Bearer ${token}` } });
    const ok = await graphql(admin).request<{
      ordersSummary: { created: number; revenue: Array<{ amount: number }> };
      dailyDigest: { date: string; figures: { orders_in: { value: number } } };
    }>(gql`
      query {
        ordersSummary(from: "2026-11-02", to: "2026-11-02") {
          created
          revenue {
            amount
          }
        }
        dailyDigest(date: "2026-11-09") {
          date
          figures {
            orders_in {
              value
            }
          }
        }
      }
    `);
    assert.equal(ok.ordersSummary.created, 6);
    assert.equal(ok.ordersSummary.revenue[0]!.amount, 41.25);
    assert.equal(ok.dailyDigest.figures.orders_in.value, 1);
    const codeOf = async (token: string, document: string) => {
      try {
        await graphql(token).request(document);
      } catch (error) {
        assert.ok(error instanceof ClientError);
        return error.response.errors?.[0]?.extensions?.error_code;
      }
      assert.fail('GraphQL answered without an error');
    };
    assert.equal(await codeOf(driver, '{ ordersSummary(period: today) { created } }'), 'FORBIDDEN');
    assert.equal(await codeOf(customer, '{ dailyDigest { date } }'), 'FORBIDDEN');
    assert.equal(await codeOf(narrow, '{ dailyDigest { date } }'), 'INSUFFICIENT_SCOPE');
    assert.equal(
      await codeOf(otherAdmin, `{ ordersSummary(customer_id: ${tenant.userIds.customer}) { created } }`),
      'CUSTOMER_NOT_FOUND',
    );
    assert.equal(
      await codeOf(admin, '{ ordersSummary(from: "2026-11-01") { created } }'),
      'VALIDATION_FAILED',
    );
    assert.equal(await codeOf(admin, '{ dailyDigest(date: "2026-13-01") { date } }'), 'VALIDATION_FAILED');
  });
});
