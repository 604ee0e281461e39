import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { loadConfig } from '../src/config.ts';
import type { EmbeddedBroker } from '../src/platform/mqtt/broker.ts';
import { issuedToken, login } from './support/fixtures.ts';
import type { Client } from './support/http.ts';
import { MOSQUITTO, mosquittoAnswers } from './support/mosquitto.ts';
import { Listener, prepare, turnOn } from './support/order-chat.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('order chat on the embedded broker', () => {
  let server: TestServer;
  let api: Client;
  let a: Awaited<ReturnType<typeof prepare>>;
  let b: Awaited<ReturnType<typeof prepare>>;
  let brokerUrl: () => string;
  const listeners: Listener[] = [];
  const listen = async (token?: string, url = brokerUrl()) => {
    const listener = await Listener.connect(url, token);
    listeners.push(listener);
    return listener;
  };
  const conversation = (orderId = a.orderId, businessId = a.tenant.businessId) =>
    `tms/order-chat/${businessId}/${orderId}`;
  const driverTopic = () => `tms/drivers/${a.tenant.businessId}/${a.tenant.userIds.driver}`;
  const post = (text: string, token = a.tokens.client_admin, orderId = a.orderId, headers = {}) =>
    api.call('POST', `/api/v1/order-chats/${orderId}/messages`, { token, body: { text }, headers });

  before(async () => {
    server = await startTestServer();
    await server.app.startBackground(server.pool);
    const port = () => (server.app.mqtt as unknown as { port: number }).port;
    brokerUrl = () => `mqtt://127.0.0.1:${port()}`;
    a = await prepare(server, 'chatalpha');
    b = await prepare(server, 'chatbravo');
    api = a.api;
  });
  after(async () => {
    for (const listener of listeners) await listener.close().catch(() => {});
    await server.close();
  });

  it('answers 409 with feature_enabled: false while the family is off, not migrated or revoked', async () => {
    const token = a.tokens.client_admin;
    const refusal = async (reason: string) => {
      const answer = await api.get('/api/v1/order-chats', { token, headers: { 'accept-language': 'fr' } });
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.feature_enabled, false);
      assert.equal(answer.body.error_code, 'FEATURE_DISABLED');
      assert.deepEqual(answer.body.details, { feature: 'order_chat', reason });
      assert.match(answer.body.message, /n'est pas activé/);
    };
    await refusal('off');
    // Refused before the input is looked at: a bad post answers the switch, not validation.
    const badPost = await api.post(`/api/v1/order-chats/${a.orderId}/messages`, { text: '' }, { token });
    assert.equal(badPost.status, 409);
    const on = await api.call('PUT', '/api/v1/client/feature-families/order_chat', {
      token,
      body: { enabled: true },
    });
    assert.equal(on.body.state, 'not_migrated');
    await refusal('not_migrated');
    const setUp = await api.call('PUT', '/api/v1/client/order-chat/settings', {
      token,
      body: { customer_chat: false },
    });
    assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
    assert.equal((await api.get('/api/v1/order-chats', { token })).status, 200);

    const platform = a.tokens.platform_admin;
    const revokePath = `/api/v1/platform/businesses/${a.tenant.businessId}/feature-families/order_chat`;
    const revoked = await api.call('PUT', revokePath, { token: platform, body: { revoked: true } });
    assert.equal(revoked.body.state, 'revoked');
    await refusal('revoked');
    // The business cannot switch a revocation away.
    await api.call('PUT', '/api/v1/client/feature-families/order_chat', { token, body: { enabled: true } });
    await refusal('revoked');
    // GraphQL answers the same refusal in its extensions.
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await assert.rejects(
      graphql.request(gql`
        query {
          orderChats {
            total
          }
        }
      `),
      (error: unknown) => {
        assert.ok(error instanceof ClientError);
        const extensions = error.response.errors?.[0]?.extensions as Record<string, unknown>;
        assert.equal(extensions.error_code, 'FEATURE_DISABLED');
        assert.equal(extensions.status, 409);
        return true;
      },
    );
    await api.call('PUT', revokePath, { token: platform, body: { revoked: false } });
    const families = await api.get('/api/v1/client/feature-families', { token });
    assert.deepEqual(
      families.body.families.map((f: { family: string; state: string }) => `${f.family}:${f.state}`),
      ['order_chat:on', 'operations_agent:off', 'sms_marketing:off'],
    );
    await turnOn(api, b.tokens.client_admin);
  });

  it('refuses SMS marketing while off under its own code, through the same gate', async () => {
    const caller = await server.app.services.accounts.authenticate(
      server.db,
      a.tokens.client_admin,
      server.clock.now(),
    );
    assert.ok(caller);
    await assert.rejects(
      server.app.services.accounts.requireFeature(server.db, {
        feature: 'sms_marketing',
        caller,
        use: 'write',
        input: {},
      }),
      { code: 'SMS_MARKETING_DISABLED', status: 409 },
    );
  });

  it("pushes a dispatcher's post to the driver's topic and the conversation, over TCP and WebSocket", async () => {
    const driver = await listen(a.tokens.driver);
    assert.equal(await driver.subscribe(driverTopic()), true);
    const { port } = new URL(server.baseUrl);
    const overWs = await listen(a.tokens.employee, `ws://127.0.0.1:${port}/mqtt`);
    assert.equal(await overWs.subscribe(conversation()), true);
    const posted = await post('The gate code is 4512');
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const id = posted.body.message.id;
    const push = await driver.next(driverTopic(), id);
    assert.equal(push.type, 'order_chat_message');
    assert.equal(push.order_id, a.orderId);
    assert.equal(push.message.text, 'The gate code is 4512');
    assert.equal(push.message.author.role, 'dispatcher');
    assert.equal((await overWs.next(conversation(), id)).message.text, 'The gate code is 4512');

    // The driver reads it: unread counts and read receipts follow.
    const mine = await api.get('/api/v1/order-chats', { token: a.tokens.driver });
    assert.deepEqual(
      mine.body.chats.map((c: { order_id: number; unread: number }) => [c.order_id, c.unread]),
      [[a.orderId, 1]],
    );
    const read = await api.post(`/api/v1/order-chats/${a.orderId}/read`, {}, { token: a.tokens.driver });
    assert.deepEqual([read.body.last_read_message_id, read.body.unread], [id, 0]);
    const chat = await api.get(`/api/v1/order-chats/${a.orderId}`, { token: a.tokens.client_admin });
    assert.equal(chat.body.my_role, 'dispatcher');
    assert.deepEqual(
      chat.body.reads.map((r: { user_id: number; last_read_message_id: number }) => [
        r.user_id,
        r.last_read_message_id,
      ]),
      [
        [a.tenant.userIds.client_admin, id],
        [a.tenant.userIds.driver, id],
      ].sort((x, y) => x[0]! - y[0]!),
    );
    const reply = await post('On my way', a.tokens.driver);
    assert.equal(reply.body.message.author.role, 'driver');
  });

  it('refuses subscriptions outside one’s conversations, a bad password and client publishing', async () => {
    const customer = await listen(a.tokens.customer);
    assert.equal(await customer.subscribe(conversation()), false, 'customer chat is off for the business');
    const asCustomer = await api.get(`/api/v1/order-chats/${a.orderId}`, { token: a.tokens.customer });
    assert.equal(asCustomer.status, 403);
    assert.equal(asCustomer.body.error_code, 'CUSTOMER_CHAT_OFF');
    const stranger = await listen(b.tokens.client_admin);
    assert.equal(await stranger.subscribe(conversation()), false);
    assert.equal(await stranger.subscribe(driverTopic()), false);
    assert.equal(await stranger.subscribe('tms/order-chat/#'), false);
    const otherDriver = await listen(b.tokens.driver);
    assert.equal(await otherDriver.subscribe(driverTopic()), false);
    await assert.rejects(Listener.connect(brokerUrl(), 'tms_not-a-token'));
    await assert.rejects(Listener.connect(brokerUrl()));

    // A client's publish never reaches the conversation: posting goes through the API.
    const staff = await listen(a.tokens.client_admin);
    assert.equal(await staff.subscribe(conversation()), true);
    const driver = await listen(a.tokens.driver);
    const forged = JSON.stringify({ type: 'order_chat_message', message: { id: -1, text: 'forged' } });
    await driver.client.publishAsync(conversation(), forged, { qos: 0 }).catch(() => {});
    const marker = await post('after the forgery');
    await staff.next(conversation(), marker.body.message.id);
    assert.equal(staff.has(conversation(), -1), false);

    // Allowed on this order, the customer subscribes and receives.
    const allowed = await api.call('PUT', `/api/v1/order-chats/${a.orderId}/customer-chat`, {
      token: a.tokens.employee,
      body: { customer_chat: true },
    });
    assert.deepEqual([allowed.body.override, allowed.body.customer_chat], [true, true]);
    const welcome = await listen(a.tokens.customer);
    assert.equal(await welcome.subscribe(conversation()), true);
    const hello = await post('Your parcel arrives at 10');
    assert.equal(
      (await welcome.next(conversation(), hello.body.message.id)).message.text,
      'Your parcel arrives at 10',
    );
    const customerList = await api.get('/api/v1/order-chats', { token: a.tokens.customer });
    assert.deepEqual(
      customerList.body.chats.map((c: { order_id: number }) => c.order_id),
      [a.orderId],
    );
    const reply = await post('Thanks', a.tokens.customer);
    assert.equal(reply.body.message.author.role, 'customer');
  });

  it('stops pushing to a driver taken off the route, on a subscription it already holds', async () => {
    const driver = await listen(a.tokens.driver);
    assert.equal(await driver.subscribe(conversation()), true);
    assert.equal(await driver.subscribe(driverTopic()), true);
    const staff = await listen(a.tokens.employee);
    assert.equal(await staff.subscribe(conversation()), true);
    const before = await post('Still yours');
    await driver.next(conversation(), before.body.message.id);

    const held = await api.post(
      `/api/v1/client/orders/${a.orderId}/hold`,
      {},
      { token: a.tokens.client_admin },
    );
    assert.equal(held.status, 200, JSON.stringify(held.body));
    const after = await post('Not yours any more');
    const id = after.body.message.id;
    await staff.next(conversation(), id);
    // Delivery to the staff and to the driver happen in one pass: a short wait covers any lag.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(driver.has(conversation(), id), false);
    assert.equal(driver.has(driverTopic(), id), false);
    const gone = await api.get(`/api/v1/order-chats/${a.orderId}`, { token: a.tokens.driver });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'ORDER_NOT_FOUND');
    const again = await listen(a.tokens.driver);
    assert.equal(await again.subscribe(conversation()), false);
  });

  it('pushes a post made while the broker is down once it is back, and nothing for a dry run', async () => {
    const outboxRows = async () =>
      (await server.db.selectFrom('outbox').select('id').where('topic', '=', 'order_chat.push').execute())
        .length;
    const rowsBefore = await outboxRows();
    const dry = await post('only a rehearsal', a.tokens.client_admin, a.orderId, { 'x-dry-run': '1' });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(await outboxRows(), rowsBefore);

    await server.app.mqtt.stop();
    const posted = await post('Sent while the broker is away');
    const id = posted.body.message.id;
    // The worker tried and was told to wait.
    const deadline = Date.now() + 60_000;
    let row: { attempts: number; last_error: string | null; done_at: Date | null } | undefined;
    while (Date.now() < deadline) {
      row = await server.db
        .selectFrom('outbox')
        .select(['attempts', 'last_error', 'done_at'])
        .where('message_id', '=', `order_chat_message_${id}`)
        .executeTakeFirst();
      if (row && row.attempts > 0 && row.last_error) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(row?.last_error, 'the push waits in the outbox');
    assert.equal(row?.done_at, null);

    await server.app.mqtt.start();
    const staff = await listen(a.tokens.client_admin);
    assert.equal(await staff.subscribe(conversation()), true);
    server.clock.advance(loadConfig({}).mqtt.retryMs + 1);
    server.app.outbox.poke();
    assert.equal((await staff.next(conversation(), id)).message.text, 'Sent while the broker is away');
  });

  it('closes and reopens with system messages in the reader’s language, refusing posts meanwhile', async () => {
    const closed = await api.post(
      `/api/v1/order-chats/${a.orderId}/close`,
      {},
      { token: a.tokens.client_admin },
    );
    assert.equal(closed.body.status, 'closed');
    const refused = await post('too late', a.tokens.customer);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'ORDER_CHAT_CLOSED');
    const chat = await api.get(`/api/v1/order-chats/${a.orderId}?per_page=1`, {
      token: a.tokens.employee,
      headers: { 'accept-language': 'de' },
    });
    assert.equal(chat.body.status, 'closed');
    assert.equal(chat.body.messages[0].system_event, 'closed');
    assert.equal(chat.body.messages[0].text, 'client_admin of chatalpha hat den Chat geschlossen.');
    assert.equal(chat.body.per_page, 1);
    assert.ok(chat.body.total > 1);
    // A conversation grows without end: the message before the newest, by cursor.
    const whole = await api.get(`/api/v1/order-chats/${a.orderId}?per_page=2`, { token: a.tokens.employee });
    const older = await api.get(
      `/api/v1/order-chats/${a.orderId}?per_page=1&cursor=${chat.body.next_cursor}`,
      {
        token: a.tokens.employee,
      },
    );
    assert.equal(older.body.messages[0].id, whole.body.messages[1].id);
    assert.deepEqual([older.body.page, older.body.total], [2, chat.body.total]);
    const reopened = await api.post(
      `/api/v1/order-chats/${a.orderId}/reopen`,
      {},
      { token: a.tokens.employee },
    );
    assert.equal(reopened.body.status, 'open');
    assert.equal((await post('open again')).status, 200);
  });

  it('refuses the wrong kind, a missing scope, another business and bad input, over REST and GraphQL', async () => {
    const platform = await api.get('/api/v1/order-chats', { token: a.tokens.platform_admin });
    assert.equal(platform.status, 403);
    assert.equal(platform.body.error_code, 'FORBIDDEN');
    const closeAsDriver = await api.post(
      `/api/v1/order-chats/${a.orderId}/close`,
      {},
      { token: a.tokens.driver },
    );
    assert.equal(closeAsDriver.body.error_code, 'FORBIDDEN');
    const readOnly = await issuedToken(server, {
      userId: a.tenant.userIds.client_admin,
      kind: 'agent',
    });
    assert.equal((await api.get(`/api/v1/order-chats/${a.orderId}`, { token: readOnly })).status, 200);
    const noScope = await post('x', readOnly);
    assert.equal(noScope.status, 403);
    assert.equal(noScope.body.error_code, 'INSUFFICIENT_SCOPE');
    for (const path of [`/api/v1/order-chats/${a.orderId}`]) {
      const other = await api.get(path, { token: b.tokens.client_admin });
      assert.equal(other.status, 404);
      assert.equal(other.body.error_code, 'ORDER_NOT_FOUND');
    }
    const otherPost = await post('hello', b.tokens.client_admin);
    assert.equal(otherPost.status, 404);
    const otherList = await api.get('/api/v1/order-chats', { token: b.tokens.client_admin });
    assert.ok(otherList.body.chats.every((c: { order_id: number }) => c.order_id !== a.orderId));
    const bad = await api.post(
      `/api/v1/order-chats/${a.orderId}/messages`,
      { text: 'x'.repeat(2001), attachments: [{ url: 'ftp://files.example/a.pdf' }] },
      { token: a.tokens.client_admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(bad.status, 422);
    assert.equal(bad.body.result, false);
    assert.equal(bad.body.error_code, 'VALIDATION_FAILED');
    assert.deepEqual(bad.body.details.fields.map((f: { field: string }) => f.field).sort(), [
      'attachments.0.url',
      'text',
    ]);

    const graphql = (token: string) =>
      new GraphQLClient(`${server.baseUrl}/api/graphql`, { headers: { authorization: `Bearer ${token}` } });
    const sent = await graphql(a.tokens.client_admin).request<{
      postOrderChatMessage: { message: { id: number; text: string; attachments: Array<{ url: string }> } };
    }>(
      gql`
        mutation ($order: Int!) {
          postOrderChatMessage(
            order_id: $order
            text: "Photo of the door"
            attachments: [{ url: "https://files.example/door.jpg", name: "door" }]
          ) {
            message {
              id
              text
              attachments {
                url
              }
            }
          }
        }
      `,
      { order: a.orderId },
    );
    assert.equal(sent.postOrderChatMessage.message.text, 'Photo of the door');
    const read = await graphql(a.tokens.employee).request<{
      orderChat: { messages: Array<{ id: number }>; unread: number };
    }>(
      gql`
        query ($order: Int!) {
          orderChat(order_id: $order, per_page: 1) {
            unread
            messages {
              id
            }
          }
        }
      `,
      { order: a.orderId },
    );
    assert.equal(read.orderChat.messages[0]!.id, sent.postOrderChatMessage.message.id);
    await assert.rejects(
      graphql(b.tokens.client_admin).request(
        gql`
          query ($order: Int!) {
            orderChat(order_id: $order) {
              order_id
            }
          }
        `,
        { order: a.orderId },
      ),
      (error: unknown) => {
        assert.ok(error instanceof ClientError);
        assert.equal(error.response.errors?.[0]?.extensions?.error_code, 'ORDER_NOT_FOUND');
        return true;
      },
    );
    await assert.rejects(
      graphql(a.tokens.client_admin).request(
        gql`
          mutation ($order: Int!) {
            postOrderChatMessage(order_id: $order, text: "") {
              message {
                id
              }
            }
          }
        `,
        { order: a.orderId },
      ),
      (error: unknown) => {
        assert.ok(error instanceof ClientError);
        assert.equal(error.response.errors?.[0]?.extensions?.error_code, 'VALIDATION_FAILED');
        return true;
      },
    );
  });

  it('lets the contractor holding the order take part, and no other contractor', async () => {
    const platform = a.tokens.platform_admin;
    await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
      token: platform,
      body: { available: true },
    });
    await api.call(
      'PUT',
      `/api/v1/platform/businesses/${a.tenant.businessId}/modules/contractor_assignment`,
      {
        token: platform,
        body: { enabled: true },
      },
    );
    const assigned = await api.post(
      '/api/v1/broker-order-assignments',
      { order_ids: [a.orderId], broker_id: a.tenant.userIds.contractor },
      { token: a.tokens.client_admin },
    );
    assert.equal(assigned.body.assigned, 1, JSON.stringify(assigned.body));
    const contractor = a.tokens.contractor;
    const list = await api.get(`/api/v1/order-chats?business_id=${a.tenant.businessId}`, {
      token: contractor,
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.chats.map((c: { order_id: number }) => c.order_id),
      [a.orderId],
    );
    const listener = await listen(contractor);
    assert.equal(await listener.subscribe(conversation()), true);
    const posted = await post('Can you take it this afternoon?');
    assert.equal(
      (await listener.next(conversation(), posted.body.message.id)).message.text,
      'Can you take it this afternoon?',
    );
    const reply = await api.post(
      `/api/v1/order-chats/${a.orderId}/messages?business_id=${a.tenant.businessId}`,
      { text: 'Yes, by 3 pm' },
      { token: contractor },
    );
    assert.equal(reply.body.message.author.role, 'contractor');
    const outsider = await listen(b.tokens.contractor);
    assert.equal(await outsider.subscribe(conversation()), false);
    const refused = await api.get(`/api/v1/order-chats/${a.orderId}?business_id=${a.tenant.businessId}`, {
      token: b.tokens.contractor,
    });
    assert.equal(refused.status, 403);
  });

  it('ends the broker session of a token signed out since it connected', async () => {
    const token = await login(api, a.tenant.emails.employee);
    const listener = await listen(token);
    assert.equal(await listener.subscribe(conversation()), true);
    const closed = new Promise<void>((resolve) => listener.client.once('close', () => resolve()));
    const out = await api.post('/api/v1/user/logout', {}, { token });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    await (server.app.mqtt as EmbeddedBroker<unknown>).recheck();
    await closed;
    await assert.rejects(Listener.connect(brokerUrl(), token));
  });
});

describe('order chat on an external broker (MQTT_URL)', () => {
  it("publishes a dispatcher's post to Mosquitto, where the driver's subscription gets it", {
    skip:
      !mosquittoAnswers &&
      `no MQTT broker answers at ${MOSQUITTO} (Mosquitto): the embedded broker's tests ran`,
  }, async () => {
    // A prefix of this run's own, so parallel runs on one Mosquitto never cross.
    const topicPrefix = `tms-test-${randomUUID().slice(0, 8)}`;
    const server = await startTestServer({ mqtt: { ...loadConfig({}).mqtt, url: MOSQUITTO, topicPrefix } });
    const driver = await Listener.connect(MOSQUITTO);
    try {
      await server.app.startBackground(server.pool);
      const { api, tenant, tokens, orderId } = await prepare(server, 'chatmosquitto');
      await turnOn(api, tokens.client_admin);
      const topic = `${topicPrefix}/drivers/${tenant.businessId}/${tenant.userIds.driver}`;
      assert.equal(await driver.subscribe(topic), true);
      const posted = await api.post(
        `/api/v1/order-chats/${orderId}/messages`,
        { text: 'Through Mosquitto' },
        { token: tokens.client_admin },
      );
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      const push = await driver.next(topic, posted.body.message.id);
      assert.equal(push.type, 'order_chat_message');
      assert.equal(push.message.text, 'Through Mosquitto');
      const conversation = `${topicPrefix}/order-chat/${tenant.businessId}/${orderId}`;
      assert.equal(await driver.subscribe(conversation), true);
      const second = await api.post(
        `/api/v1/order-chats/${orderId}/messages`,
        { text: 'And on the conversation' },
        { token: tokens.client_admin },
      );
      assert.equal(
        (await driver.next(conversation, second.body.message.id)).message.text,
        'And on the conversation',
      );
    } finally {
      await driver.close();
      await server.close();
    }
  });
});
