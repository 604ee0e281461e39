import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import type { ChargeRequest, PaymentProvider } from '../src/modules/payments/provider.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('online payment and account credits', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let customer: string;
  let otherCustomer: string;
  let otherCustomerId: number;

  const order = async (extra: Record<string, unknown> = {}, customerId = tenant.userIds.customer) =>
    (
      await api.post(
        '/api/v1/client/orderCreate',
        {
          dropoff: { line1: 'x' },
          customer_id: customerId,
          currency: 'EUR',
          shipping_price: '12.50',
          tax: '2.50',
          surcharges: [{ code: 'fuel', amount: '1.25' }],
          ...extra,
        },
        { token: admin },
      )
    ).body.order_id as number;
  const pay = (orderId: number, body: Record<string, unknown>, token = customer) =>
    api.post(`/api/v1/payments/orders/${orderId}`, body, { token });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'pay');
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
    otherCustomerId = await server.app.services.accounts.createUser(server.db, {
      kind: 'customer',
      email: 'other@pay.test',
      name: 'Other',
      password: PASSWORD,
      businessId: tenant.businessId,
    });
    otherCustomer = await login(api, 'other@pay.test');
  });
  after(() => server.close());

  it('charges the shipping price, surcharges and tax once, by card', async () => {
    const id = await order();
    const paid = await pay(id, { method: 'card', card_token: 'tok_visa' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.payment.amount, 16.25);
    assert.equal(paid.body.payment.currency, 'EUR');
    assert.match(paid.body.payment.reference, /^test_/);
    const twice = await pay(id, { method: 'card', card_token: 'tok_visa' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error_code, 'ORDER_ALREADY_PAID');
  });

  it('refuses declined cards, missing tokens, unpriced orders and other customers’ orders', async () => {
    const id = await order();
    const declined = await pay(id, { method: 'card', card_token: 'tok_decline' });
    assert.equal(declined.status, 402);
    assert.equal(declined.body.error_code, 'PAYMENT_DECLINED');
    const noToken = await pay(id, { method: 'card' });
    assert.equal(noToken.status, 422);
    assert.equal(noToken.body.error_code, 'CARD_TOKEN_REQUIRED');
    const unpriced = await order({
      currency: undefined,
      shipping_price: undefined,
      tax: undefined,
      surcharges: undefined,
    });
    assert.equal(
      (await pay(unpriced, { method: 'card', card_token: 'tok_visa' })).body.error_code,
      'NOTHING_TO_PAY',
    );
    const notMine = await pay(id, { method: 'card', card_token: 'tok_visa' }, otherCustomer);
    assert.equal(notMine.status, 404);
    assert.equal(notMine.body.error_code, 'ORDER_NOT_FOUND');
    // The declined attempt did not count as paid.
    assert.equal((await pay(id, { method: 'card', card_token: 'tok_visa' })).status, 200);
  });

  it('pays from account credits while the balance lasts, with a ledger', async () => {
    const credited = await api.post(
      `/api/v1/client/customers/${tenant.userIds.customer}/credits`,
      { amount: '20.00', currency: 'EUR', reason: 'Welcome credit' },
      { token: admin },
    );
    assert.equal(credited.status, 200, JSON.stringify(credited.body));
    assert.equal(credited.body.balance, 20);
    const paid = await pay(await order(), { method: 'credits' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const short = await pay(await order(), { method: 'credits' });
    assert.equal(short.status, 422);
    assert.equal(short.body.error_code, 'INSUFFICIENT_CREDIT');
    const credits = await api.get('/api/v1/customer/credits', { token: customer });
    assert.deepEqual(credits.body.balances, [{ currency: 'EUR', balance: 3.75 }]);
    assert.deepEqual(
      credits.body.ledger.map((entry: { amount: number }) => entry.amount),
      [-16.25, 20],
    );
    // The ledger grows without end: newest first, a page at a time, by cursor too.
    const newest = await api.get('/api/v1/customer/credits?per_page=1', { token: customer });
    assert.deepEqual(newest.body.balances, credits.body.balances, 'the balance is the whole ledger');
    assert.deepEqual([newest.body.total, newest.body.ledger[0].amount], [2, -16.25]);
    const older = await api.get(`/api/v1/customer/credits?per_page=1&cursor=${newest.body.next_cursor}`, {
      token: customer,
    });
    assert.deepEqual([older.body.page, older.body.ledger[0].amount, older.body.next_cursor], [2, 20, null]);
    const zero = await api.post(
      `/api/v1/client/customers/${tenant.userIds.customer}/credits`,
      { amount: 0, currency: 'EUR', reason: 'Nothing' },
      { token: admin },
    );
    assert.equal(zero.status, 422);
  });

  it('counts the balance over the whole ledger, not over the latest entries it lists', async () => {
    await server.db
      .insertInto('credit_ledger')
      .values(
        Array.from({ length: 201 }, (_, i) => ({
          business_id: tenant.businessId,
          customer_user_id: otherCustomerId,
          amount_minor: 100,
          currency: i === 0 ? 'CHF' : 'EUR',
          reason: `Credit ${i}`,
          payment_id: null,
          created_at: new Date('2026-11-01T10:00:00Z'),
        })),
      )
      .execute();
    const credits = await api.get('/api/v1/customer/credits?per_page=200', { token: otherCustomer });
    assert.equal(credits.body.ledger.length, 200);
    assert.equal(credits.body.total, 201);
    assert.notEqual(credits.body.next_cursor, null, 'one more entry on the next page');
    assert.deepEqual(credits.body.balances, [
      { currency: 'CHF', balance: 1 },
      { currency: 'EUR', balance: 200 },
    ]);
  });

  it('lets staff pay on a customer’s behalf and keeps credits to customers', async () => {
    const paid = await pay(await order(), { method: 'card', card_token: 'tok_visa' }, admin);
    assert.equal(paid.status, 200);
    const staffCredits = await api.get('/api/v1/customer/credits', { token: admin });
    assert.equal(staffCredits.status, 403);
  });
});

/** A provider that records every charge it is asked for, and takes its time as real ones do. */
class RecordingProvider implements PaymentProvider {
  readonly name = 'recording';
  readonly charges: ChargeRequest[] = [];

  async charge(request: ChargeRequest) {
    this.charges.push(request);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { status: 'succeeded' as const, reference: `rec_${this.charges.length}` };
  }
}

describe('payments and the outside world', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let customer: string;
  const provider = new RecordingProvider();

  const order = async () =>
    (
      await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: 'x' }, customer_id: customerId, currency: 'EUR', shipping_price: '9.90' },
        { token: admin },
      )
    ).body.order_id as number;
  let customerId: number;
  const pay = (orderId: number, headers: Record<string, string> = {}) =>
    api.post(
      `/api/v1/payments/orders/${orderId}`,
      { method: 'card', card_token: 'tok_visa' },
      { token: customer, headers },
    );

  before(async () => {
    server = await startTestServer({}, { paymentProvider: provider });
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'outside');
    customerId = tenant.userIds.customer;
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
  });
  after(() => server.close());

  it('charges an order once when two payments race, and tells the loser it is paid', async () => {
    const id = await order();
    const before = provider.charges.length;
    const answers = await Promise.all([pay(id), pay(id), pay(id)]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409]);
    for (const lost of answers.filter((answer) => answer.status === 409)) {
      assert.equal(lost.body.error_code, 'ORDER_ALREADY_PAID');
    }
    assert.equal(provider.charges.length - before, 1, 'the card was charged once');
    const payments = await server.db.selectFrom('payments').select('id').where('order_id', '=', id).execute();
    assert.equal(payments.length, 1);
  });

  it('charges nothing on a dry run, and says what it did not do', async () => {
    const id = await order();
    const before = provider.charges.length;
    const preview = await pay(id, { 'x-dry-run': '1' });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.dry_run, true);
    assert.equal(preview.body.payment.amount, 9.9);
    assert.deepEqual(preview.body.skipped_effects, [
      { kind: 'payment', description: 'charge 9.9 EUR to the card through recording' },
    ]);
    assert.equal(provider.charges.length, before, 'the provider was not called');
    const paid = await pay(id);
    assert.equal(paid.status, 200, 'the dry run kept nothing');
    assert.equal(paid.body.dry_run, undefined);
    assert.equal(provider.charges.length, before + 1);
  });

  it('charges nothing on a GraphQL dry run, and lists the skipped charge in extensions', async () => {
    const id = await order();
    const before = provider.charges.length;
    const payOrder = (headers: Record<string, string> = {}) =>
      new GraphQLClient(`${server.baseUrl}/api/graphql`, {
        headers: { authorization: `Bearer ${customer}`, ...headers },
      }).rawRequest<{ payOrder: { payment: { amount: number } } }>(
        gql`
          mutation Pay($order: Int!) {
            payOrder(order_id: $order, method: card, card_token: "tok_visa") {
              payment {
                amount
              }
            }
          }
        `,
        { order: id },
      );
    const preview = await payOrder({ 'x-dry-run': '1' });
    assert.equal(preview.data.payOrder.payment.amount, 9.9);
    assert.deepEqual(preview.extensions, {
      dry_run: true,
      skipped_effects: [{ kind: 'payment', description: 'charge 9.9 EUR to the card through recording' }],
    });
    assert.equal(provider.charges.length, before, 'the provider was not called');
    const paid = await payOrder();
    assert.equal(paid.extensions, undefined);
    assert.equal(provider.charges.length, before + 1, 'the dry run kept nothing');
  });
});
