import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import type { ModelProvider } from '../src/modules/agent/index.ts';
import { ORDER_FAMILIES } from '../src/modules/orders/schemas.ts';
import { DEMO_CARRIERS } from '../src/modules/shipping/demo.ts';
import { FORWARDED_TO, forwardingCustomer, item } from './support/consolidation.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { sellingKiosk } from './support/lockers.ts';
import { documentFor, priceFieldsIn, pricesIn } from './support/prices.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** A parcel across Paris, for the carrier of the demo business. */
const SHIPMENT = {
  pickup: {
    name: 'Depot Bercy',
    line1: '12 Rue de Bercy',
    city: 'Paris',
    postal_code: '75012',
    country: 'FR',
  },
  dropoff: {
    name: 'Léa Martin',
    line1: '5 Rue Oberkampf',
    city: 'Paris',
    postal_code: '75011',
    country: 'FR',
  },
  packages: [{ weight_grams: 800 }],
};
const CARRIER = DEMO_CARRIERS[0]!;
const SERVICE = CARRIER.rate_card.services[0]!.code;

const PRICED = {
  currency: 'EUR',
  shipping_price: '12.50',
  tax: '2.50',
  surcharges: [{ code: 'fuel', amount: '1.25' }],
};

describe('price hiding', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const customers: Record<
    'hidden' | 'visible',
    { id: number; token: string; orders: Record<string, number>; label: string }
  > = {
    hidden: { id: 0, token: '', orders: {}, label: '' },
    visible: { id: 0, token: '', orders: {}, label: '' },
  };

  const kiosk = { siteId: 0, deviceId: 0, sent: {} as Record<string, number> };
  /** Each customer's forwarded parcels (received) and consolidation. */
  const forwarded: Record<'hidden' | 'visible', { parcelIds: number[]; consolidationId: number }> = {
    hidden: { parcelIds: [], consolidationId: 0 },
    visible: { parcelIds: [], consolidationId: 0 },
  };
  let announced = 0;
  /** The kiosk heartbeats (through the device protocol's own entry): online, its compartments offered. */
  const kioskHeartbeat = () =>
    server.app.services.lockers.link.receive(server.db, kiosk.deviceId, '{"type":"heartbeat"}');

  /**
   * Every operation a customer may call, with how to call it. `priced: false` marks answers that
   * hold no provider price of a family (the customer's own credit money, its settings).
   */
  const calls: Record<
    string,
    { priced: boolean; call: (who: 'hidden' | 'visible') => Promise<Answer>; hiddenStatus?: number }
  > = {
    get_orders: {
      priced: true,
      call: (who) => api.get('/api/v1/client/orders?per_page=50', { token: customers[who].token }),
    },
    get_order_detail: {
      priced: true,
      call: (who) =>
        api.get(`/api/v1/client/orders/${customers[who].orders.ltl_service}`, {
          token: customers[who].token,
        }),
    },
    find_order: {
      priced: true,
      call: (who) =>
        api.get(`/api/v1/client/orders/find?order_ref=${who}-moving_service`, {
          token: customers[who].token,
        }),
    },
    create_order: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/client/orderCreate',
          { family: 'storage_service', dropoff: { line1: 'Box 7' }, ...PRICED },
          { token: customers[who].token },
        ),
    },
    pay_order: {
      priced: true,
      hiddenStatus: 403,
      call: (who) =>
        api.post(
          `/api/v1/payments/orders/${customers[who].orders.device_order}`,
          { method: 'card', card_token: 'tok_visa' },
          { token: customers[who].token },
        ),
    },
    send_from_locker: {
      priced: false,
      call: async (who) => {
        await kioskHeartbeat();
        const answer = await api.post(
          '/api/v1/lockers/sends',
          { site_id: kiosk.siteId, dropoff: { line1: '9 Far road' }, packages: [{ length_mm: 300 }] },
          { token: customers[who].token },
        );
        kiosk.sent[who] = answer.body.order_id;
        return answer;
      },
    },
    reserve_locker_compartment: {
      priced: false,
      call: async (who) => {
        await kioskHeartbeat();
        return api.post(
          '/api/v1/lockers/bookings',
          { site_id: kiosk.siteId, purpose: 'handover', recipient_user_id: customers[who].id },
          { token: customers[who].token },
        );
      },
    },
    list_forwarding_suites: {
      priced: false,
      call: (who) => api.get('/api/v1/consolidation/suites', { token: customers[who].token }),
    },
    announce_inbound_parcel: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/consolidation/parcels',
          { carrier: 'usps', tracking_number: `${who}-announced-${++announced}`, items: [item('Lamp', 30)] },
          { token: customers[who].token },
        ),
    },
    list_inbound_parcels: {
      priced: true,
      call: (who) => api.get('/api/v1/consolidation/parcels', { token: customers[who].token }),
    },
    get_inbound_parcel: {
      priced: true,
      call: (who) =>
        api.get(`/api/v1/consolidation/parcels/${forwarded[who].parcelIds[2]}`, {
          token: customers[who].token,
        }),
    },
    request_consolidation: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/consolidation/consolidations',
          { parcel_ids: [forwarded[who].parcelIds[0]], dropoff: FORWARDED_TO },
          { token: customers[who].token },
        ),
    },
    get_consolidation: {
      priced: true,
      call: (who) =>
        api.get(`/api/v1/consolidation/consolidations/${forwarded[who].consolidationId}`, {
          token: customers[who].token,
        }),
    },
    get_shipping_methods: {
      priced: false,
      call: (who) => api.get('/api/v1/shipping/methods', { token: customers[who].token }),
    },
    get_shipping_rate: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/labelservice/rate',
          { ...SHIPMENT, carrier: CARRIER.code },
          { token: customers[who].token },
        ),
    },
    compare_all_carriers: {
      priced: true,
      call: (who) => api.post('/api/v1/shipping/compare', SHIPMENT, { token: customers[who].token }),
    },
    create_shipping_label: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/labelservice/submitOrder',
          { ...SHIPMENT, carrier: CARRIER.code, service: SERVICE },
          { token: customers[who].token },
        ),
    },
    quote_and_ship: {
      priced: true,
      call: (who) =>
        api.post(
          '/api/v1/shipping/quote-and-ship',
          { ...SHIPMENT, prefer: 'fastest' },
          { token: customers[who].token },
        ),
    },
    get_shipping_label: {
      priced: true,
      call: (who) =>
        api.get(`/api/v1/labelservice/labels/${customers[who].label}`, { token: customers[who].token }),
    },
    // The address book holds no price of any family: only its answers' shape is checked here.
    list_saved_addresses: {
      priced: false,
      call: (who) => api.get('/api/v1/client/addresses', { token: customers[who].token }),
    },
    create_saved_address: {
      priced: false,
      call: (who) =>
        api.post(
          '/api/v1/client/addresses',
          { label: 'Home', line1: '1 Rue A' },
          { token: customers[who].token },
        ),
    },
    update_saved_address: {
      priced: false,
      call: async (who) => {
        const made = await api.post(
          '/api/v1/client/addresses',
          { label: 'Work', line1: '2 Rue B' },
          { token: customers[who].token },
        );
        return api.call('PATCH', `/api/v1/client/addresses/${made.body.address.id}`, {
          token: customers[who].token,
          body: { label: 'Office' },
        });
      },
    },
    delete_saved_address: {
      priced: false,
      call: async (who) => {
        const made = await api.post(
          '/api/v1/client/addresses',
          { label: 'Old', line1: '3 Rue C' },
          { token: customers[who].token },
        );
        return api.call('DELETE', `/api/v1/client/addresses/${made.body.address.id}`, {
          token: customers[who].token,
        });
      },
    },
    import_saved_addresses: {
      priced: false,
      call: (who) =>
        api.post(
          '/api/v1/client/addresses/import',
          { csv: 'label,line1\nDepot,4 Rue D' },
          { token: customers[who].token },
        ),
    },
    search_address: {
      priced: false,
      call: (who) => api.get('/api/v1/client/addresses/search?q=rue', { token: customers[who].token }),
    },
    list_points_of_interest: {
      priced: false,
      call: (who) => api.get('/api/v1/client/points-of-interest', { token: customers[who].token }),
    },
    get_webhook_settings: {
      priced: false,
      call: (who) => api.get('/api/v1/webhook-settings', { token: customers[who].token }),
    },
    update_webhook_settings: {
      priced: false,
      call: (who) =>
        api.call('PUT', '/api/v1/webhook-settings', {
          token: customers[who].token,
          body: { active: true },
        }),
    },
    get_customer_settings: {
      priced: false,
      call: (who) => api.get('/api/v1/customer/settings', { token: customers[who].token }),
    },
    // Booked revenue by family and currency: the hidden customer's entries lose their money.
    get_orders_summary: {
      priced: true,
      call: (who) =>
        api.get('/api/v1/analytics/orders-summary?period=month', { token: customers[who].token }),
    },
    get_account_credits: {
      priced: false,
      call: (who) => api.get('/api/v1/customer/credits', { token: customers[who].token }),
    },
    // Order chat holds messages, never an order's price.
    list_order_chats: {
      priced: false,
      call: (who) => api.get('/api/v1/order-chats', { token: customers[who].token }),
    },
    get_order_chat: {
      priced: false,
      call: (who) =>
        api.get(`/api/v1/order-chats/${customers[who].orders.ltl_service}`, { token: customers[who].token }),
    },
    post_order_chat_message: {
      priced: false,
      call: (who) =>
        api.post(
          `/api/v1/order-chats/${customers[who].orders.ltl_service}/messages`,
          { text: 'When does it arrive?' },
          { token: customers[who].token },
        ),
    },
    mark_order_chat_read: {
      priced: false,
      call: (who) =>
        api.post(
          `/api/v1/order-chats/${customers[who].orders.ltl_service}/read`,
          {},
          { token: customers[who].token },
        ),
    },
    // The operations agent's answers hold its turns (tool calls as short summaries), never a price
    // field; what the model is sent is test/agent.test.ts's.
    create_agent_conversation: {
      priced: false,
      call: (who) => api.post('/api/v1/agent/conversations', {}, { token: customers[who].token }),
    },
    list_agent_conversations: {
      priced: false,
      call: (who) => api.get('/api/v1/agent/conversations', { token: customers[who].token }),
    },
    get_agent_conversation: {
      priced: false,
      call: (who) =>
        api.get(`/api/v1/agent/conversations/${agentConversations[who]}`, { token: customers[who].token }),
    },
    send_agent_turn: {
      priced: false,
      call: (who) =>
        api.post(
          `/api/v1/agent/conversations/${agentConversations[who]}/turns`,
          { text: 'What are my orders?' },
          { token: customers[who].token },
        ),
    },
  };
  const agentConversations = { hidden: 0, visible: 0 };
  /** A model that reads the caller's orders once, then answers. */
  const readingModel: ModelProvider = {
    complete: async ({ messages }) => ({
      text: 'Here are your orders.',
      tool_calls:
        messages.at(-1)?.role === 'user'
          ? [{ id: 'read-1', name: 'get_orders', arguments: { per_page: 5 } }]
          : [],
      usage: { input_tokens: 1, output_tokens: 1 },
      model: 'reading-model',
    }),
  };

  /** The same calls through GraphQL: the input each priced operation a customer may use is called with. */
  const graphqlInputs: Record<string, (who: 'hidden' | 'visible') => Record<string, unknown>> = {
    get_orders: () => ({ per_page: 50 }),
    get_order_detail: (who) => ({ order_id: customers[who].orders.ltl_service }),
    find_order: (who) => ({ order_ref: `${who}-moving_service` }),
    create_order: () => ({ orders: [{ family: 'storage_service', dropoff: { line1: 'Box 8' }, ...PRICED }] }),
    pay_order: (who) => ({
      order_id: customers[who].orders.moving_service,
      method: 'card',
      card_token: 'tok_visa',
    }),
    get_shipping_rate: () => ({ ...SHIPMENT, carrier: CARRIER.code }),
    compare_all_carriers: () => SHIPMENT,
    create_shipping_label: () => ({ ...SHIPMENT, carrier: CARRIER.code, service: SERVICE }),
    quote_and_ship: () => ({ ...SHIPMENT, prefer: 'fastest' }),
    get_shipping_label: (who) => ({ tracking_number: customers[who].label }),
    get_orders_summary: () => ({ period: 'month' }),
    announce_inbound_parcel: (who) => ({
      carrier: 'usps',
      tracking_number: `${who}-announced-${++announced}`,
      items: [item('Vase', 40)],
    }),
    list_inbound_parcels: () => ({}),
    request_consolidation: (who) => ({ parcel_ids: [forwarded[who].parcelIds[1]], dropoff: FORWARDED_TO }),
    get_consolidation: (who) => ({ id: forwarded[who].consolidationId }),
  };
  const graphqlAs = async (who: 'hidden' | 'visible', field: string, input: Record<string, unknown>) => {
    const response = await fetch(`${server.baseUrl}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${customers[who].token}` },
      body: JSON.stringify({ query: documentFor(field, input), variables: input }),
    });
    return (await response.json()) as {
      data?: Record<string, unknown>;
      errors?: Array<{ message: string; extensions?: { error_code?: string } }>;
    };
  };

  before(async () => {
    server = await startTestServer({}, { modelProvider: readingModel });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'prices');
    admin = await login(api, tenant.emails.client_admin);
    const carrier = await api.call('PUT', `/api/v1/shipping/carriers/${CARRIER.code}`, {
      token: admin,
      body: { name: CARRIER.name, rate_card: CARRIER.rate_card },
    });
    assert.equal(carrier.status, 200, JSON.stringify(carrier.body));
    for (const who of ['hidden', 'visible'] as const) {
      const id = await server.app.services.accounts.createUser(server.db, {
        kind: 'customer',
        email: `${who}@prices.test`,
        name: `${who} customer`,
        password: PASSWORD,
        businessId: tenant.businessId,
      });
      customers[who].id = id;
      customers[who].token = await login(api, `${who}@prices.test`);
      for (const family of ORDER_FAMILIES) {
        const created = await api.post(
          '/api/v1/client/orderCreate',
          {
            order_ref: `${who}-${family}`,
            family,
            customer_id: id,
            ...(family === 'local_delivery' ? { type: 'D' } : {}),
            dropoff: { line1: '1 Main street' },
            price_details: [{ label: 'Base', amount: '12.50' }],
            ...PRICED,
          },
          { token: admin },
        );
        assert.equal(created.status, 200, JSON.stringify(created.body));
        customers[who].orders[family] = created.body.order_id;
      }
      const label = await api.post(
        '/api/v1/labelservice/submitOrder',
        { ...SHIPMENT, carrier: CARRIER.code, service: SERVICE },
        { token: customers[who].token },
      );
      assert.equal(label.status, 200, JSON.stringify(label.body));
      customers[who].label = label.body.tracking_number;
    }
    // A kiosk that sells sends (device orders), with room for every call below.
    Object.assign(kiosk, await sellingKiosk(api, admin));
    // Package forwarding: each customer with received parcels and a consolidation.
    let warehouseId: number | undefined;
    for (const who of ['hidden', 'visible'] as const) {
      const shopper = { id: customers[who].id, token: customers[who].token, prefix: `${who}-fwd` };
      const made = await forwardingCustomer(api, admin, shopper, warehouseId);
      warehouseId = made.warehouseId;
      forwarded[who] = made;
    }
    const hide = await api.call('PUT', `/api/v1/client/customers/${customers.hidden.id}/price-visibility`, {
      token: admin,
      body: { hidden: Object.fromEntries(ORDER_FAMILIES.map((family) => [family, true])) },
    });
    assert.equal(hide.status, 200, JSON.stringify(hide.body));
    assert.deepEqual(hide.body.price_hidden_families, [...ORDER_FAMILIES]);
    // Order chat on, with customers taking part.
    await api.call('PUT', '/api/v1/client/feature-families/order_chat', {
      token: admin,
      body: { enabled: true },
    });
    const chat = await api.call('PUT', '/api/v1/client/order-chat/settings', {
      token: admin,
      body: { customer_chat: true },
    });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    // The operations agent on, and a conversation of each customer's.
    await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
      token: admin,
      body: { enabled: true },
    });
    const agent = await api.call('PUT', '/api/v1/client/agent/settings', {
      token: admin,
      body: { instructions: null },
    });
    assert.equal(agent.status, 200, JSON.stringify(agent.body));
    for (const who of ['hidden', 'visible'] as const) {
      const opened = await api.post('/api/v1/agent/conversations', {}, { token: customers[who].token });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      agentConversations[who] = opened.body.conversation.id;
    }
  });
  after(() => server.close());

  it('has a call for every operation a customer may use', () => {
    const forCustomers = server.app.catalog
      .list()
      .filter(
        (operation) =>
          'kinds' in operation.access &&
          operation.access.kinds !== 'any' &&
          operation.access.kinds.includes('customer'),
      )
      .map((operation) => operation.name);
    assert.deepEqual(
      forCustomers.filter((name) => !(name in calls)),
      [],
    );
  });

  for (const [name, { priced, call, hiddenStatus }] of Object.entries(calls)) {
    it(`${name}: no price anywhere for the hidden customer, prices for the visible one`, async () => {
      const hidden = await call('hidden');
      if (hiddenStatus) {
        assert.equal(hidden.status, hiddenStatus, JSON.stringify(hidden.body));
        assert.equal(hidden.body.error_code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
      } else {
        assert.equal(hidden.status, 200, JSON.stringify(hidden.body));
        assert.deepEqual(priceFieldsIn(hidden.body), []);
        if (priced) assert.equal(hidden.body.price_hidden, true);
      }
      const visible = await call('visible');
      assert.equal(visible.status, 200, JSON.stringify(visible.body));
      assert.equal(visible.body.price_hidden, undefined);
      if (priced) assert.notDeepEqual(priceFieldsIn(visible.body), [], 'the visible customer sees prices');
    });
  }

  it('walks every priced operation a customer may use through GraphQL too', async () => {
    const priced = server.app.catalog
      .list()
      .filter((operation) => operation.graphql && calls[operation.name]?.priced)
      .map((operation) => operation.name);
    assert.deepEqual(
      priced.filter((name) => !(name in graphqlInputs)),
      [],
    );
    for (const name of priced) {
      const field = server.app.catalog.list().find((operation) => operation.name === name)!.graphql!;
      const hidden = await graphqlAs('hidden', field, graphqlInputs[name]!('hidden'));
      if (calls[name]!.hiddenStatus) {
        assert.equal(hidden.errors?.[0]?.extensions?.error_code, 'PRICE_HIDDEN_SETTLE_OFFLINE', name);
      } else {
        assert.equal(hidden.errors, undefined, `${name}: ${JSON.stringify(hidden.errors)}`);
        assert.deepEqual(pricesIn(hidden.data), [], name);
        assert.match(JSON.stringify(hidden.data), /"price_hidden":true/, name);
      }
      const visible = await graphqlAs('visible', field, graphqlInputs[name]!('visible'));
      assert.equal(visible.errors, undefined, `${name}: ${JSON.stringify(visible.errors)}`);
      assert.notDeepEqual(pricesIn(visible.data), [], `${name}: the visible customer sees prices`);
      assert.doesNotMatch(JSON.stringify(visible.data), /"price_hidden":true/, name);
    }
  });

  it('hides every family on the list and marks each order', async () => {
    const list = (await calls.get_orders!.call('hidden')).body.orders as Array<Record<string, unknown>>;
    assert.deepEqual([...new Set(list.map((o) => o.family))].sort(), [...ORDER_FAMILIES].sort());
    assert.ok(list.every((order) => order.price_hidden === true));
    // Surcharge codes stay, their amounts go (on the orders created with a fuel surcharge).
    const surcharged = list.filter((order) => String(order.order_ref).startsWith('hidden-'));
    assert.equal(surcharged.length, ORDER_FAMILIES.length);
    for (const order of surcharged) assert.equal(JSON.stringify(order.surcharges), '[{"code":"fuel"}]');
  });

  it('hides a single family and leaves the others', async () => {
    await api.call('PUT', `/api/v1/client/customers/${customers.visible.id}/price-visibility`, {
      token: admin,
      body: { hidden: { label_service: true } },
    });
    const list = (await calls.get_orders!.call('visible')).body.orders as Array<Record<string, unknown>>;
    for (const order of list) {
      if (order.family === 'label_service') assert.equal(order.shipping_price, undefined);
      else
        assert.equal(
          order.shipping_price,
          order.family === 'device_order' && !String(order.order_ref).startsWith('visible-') ? 4.9 : 12.5,
          String(order.family),
        );
    }
    await api.call('PUT', `/api/v1/client/customers/${customers.visible.id}/price-visibility`, {
      token: admin,
      body: { hidden: { label_service: false } },
    });
  });

  it('hides prices through GraphQL too', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${customers.hidden.token}` },
    });
    const answer = await graphql.request<{ orders: { orders: Array<Record<string, unknown>> } }>(gql`
      {
        orders(per_page: 50) {
          orders {
            order_ref
            family
            currency
            shipping_price
            tax
            surcharges {
              code
              amount
            }
            price_hidden
          }
        }
      }
    `);
    for (const order of answer.orders.orders) {
      assert.equal(order.price_hidden, true);
      for (const field of ['currency', 'shipping_price', 'tax']) assert.equal(order[field], null, field);
      // Sent from the kiosk at its send price, the device orders have no surcharge.
      if (String(order.order_ref).startsWith('hidden-'))
        assert.deepEqual(order.surcharges, [{ code: 'fuel', amount: null }]);
    }
  });

  it('hides the price of a device order sent from a locker, over REST and GraphQL, and settles it offline', async () => {
    // The orders the walk above sent from the kiosk, one for each customer.
    const sent = kiosk.sent;
    const hidden = await api.get(`/api/v1/client/orders/${sent.hidden}`, { token: customers.hidden.token });
    assert.equal(hidden.body.order.family, 'device_order');
    assert.equal(hidden.body.order.price_hidden, true);
    assert.equal(hidden.body.order.shipping_price, undefined);
    const visible = await api.get(`/api/v1/client/orders/${sent.visible}`, {
      token: customers.visible.token,
    });
    assert.equal(visible.body.order.shipping_price, 4.9);
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${customers.hidden.token}` },
    });
    const read = await graphql.request<{ order: { order: Record<string, unknown> } }>(
      gql`
        query ($id: Int!) {
          order(order_id: $id) {
            order {
              family
              shipping_price
              currency
              price_hidden
            }
          }
        }
      `,
      { id: sent.hidden },
    );
    assert.deepEqual(read.order.order, {
      family: 'device_order',
      shipping_price: null,
      currency: null,
      price_hidden: true,
    });
    const pay = await api.post(
      `/api/v1/payments/orders/${sent.hidden}`,
      { method: 'card', card_token: 'tok_visa' },
      { token: customers.hidden.token },
    );
    assert.equal(pay.status, 403);
    assert.equal(pay.body.error_code, 'PRICE_HIDDEN_SETTLE_OFFLINE');
  });

  it('keeps staff and other customers out of a customer’s settings', async () => {
    const other = await createTenant(server.db, server.app.services, 'prices-b');
    const foreign = await api.call(
      'PUT',
      `/api/v1/client/customers/${customers.hidden.id}/price-visibility`,
      {
        token: await login(api, other.emails.client_admin),
        body: { hidden: { local_delivery: false } },
      },
    );
    assert.equal(foreign.status, 422);
    assert.equal(foreign.body.error_code, 'CUSTOMER_NOT_FOUND');
    const byCustomer = await api.call(
      'PUT',
      `/api/v1/client/customers/${customers.hidden.id}/price-visibility`,
      {
        token: customers.hidden.token,
        body: { hidden: { local_delivery: false } },
      },
    );
    assert.equal(byCustomer.status, 403);
    const settings = await calls.get_customer_settings!.call('hidden');
    assert.equal(settings.body.price_hidden_families.length, 7);
  });
});
