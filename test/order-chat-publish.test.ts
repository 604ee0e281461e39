import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { Listener, prepare, turnOn } from './support/order-chat.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * A client that publishes on the embedded broker: the publish is refused the way MQTT 3.1.1
 * allows (acknowledged, delivered to no one), the connection stays, and the client still gets
 * the chat messages that follow. MQTT 5, whose PUBACK could say 0x87, is refused at CONNECT.
 */
describe('a client publishing on the embedded broker', () => {
  let server: TestServer;
  let chat: Awaited<ReturnType<typeof prepare>>;
  let brokerUrl: string;
  const listeners: Listener[] = [];
  const listen = async (token: string) => {
    const listener = await Listener.connect(brokerUrl, token);
    listeners.push(listener);
    return listener;
  };

  before(async () => {
    server = await startTestServer();
    await server.app.startBackground(server.pool);
    brokerUrl = `mqtt://127.0.0.1:${(server.app.mqtt as unknown as { port: number }).port}`;
    chat = await prepare(server, 'chatpublish');
    await turnOn(chat.api, chat.tokens.client_admin);
  });
  after(async () => {
    for (const listener of listeners) await listener.close().catch(() => {});
    await server.close();
  });

  it('acknowledges and drops the publish, keeps the connection, and pushes the next message', async () => {
    const { businessId } = chat.tenant;
    const conversation = `tms/order-chat/${businessId}/${chat.orderId}`;
    const driverTopic = `tms/drivers/${businessId}/${chat.tenant.userIds.driver}`;
    const staff = await listen(chat.tokens.employee);
    assert.equal(await staff.subscribe(conversation), true);
    const driver = await listen(chat.tokens.driver);
    assert.equal(await driver.subscribe(driverTopic), true);
    let driverClosed = false;
    const closed = new Promise<never>((_, reject) =>
      driver.client.once('close', () => {
        driverClosed = true;
        reject(new Error('the broker closed the connection instead of answering'));
      }),
    );
    closed.catch(() => {});
    /** The broker's answer to a publish, or a failure if it closes the connection instead. */
    const answered = (publishing: Promise<unknown>) => Promise.race([publishing, closed]);

    const forged = (id: number) =>
      JSON.stringify({ type: 'order_chat_message', message: { id, text: 'forged' } });
    // QoS 1 and 2 resolve on the broker's PUBACK and PUBCOMP; a closed connection would reject them.
    await answered(driver.client.publishAsync(conversation, forged(-1), { qos: 1 }));
    await answered(driver.client.publishAsync(conversation, forged(-2), { qos: 2 }));
    await answered(driver.client.publishAsync(driverTopic, forged(-3), { qos: 0, retain: true }));

    const posted = await chat.api.post(
      `/api/v1/order-chats/${chat.orderId}/messages`,
      { text: 'After your publish' },
      { token: chat.tokens.client_admin },
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const id: number = posted.body.message.id;
    assert.equal((await driver.next(driverTopic, id)).message.text, 'After your publish');
    assert.equal((await staff.next(conversation, id)).message.text, 'After your publish');
    assert.equal(driverClosed, false, 'the publishing client stays connected');
    assert.equal(driver.client.connected, true);
    for (const refused of [-1, -2, -3]) {
      assert.equal(staff.has(conversation, refused), false, `publish ${refused} reached the conversation`);
      assert.equal(driver.has(driverTopic, refused), false, `publish ${refused} reached the driver topic`);
    }

    // Nothing was retained: a new subscriber to the driver topic gets no forged message either.
    const again = await listen(chat.tokens.driver);
    assert.equal(await again.subscribe(driverTopic), true);
    const next = await chat.api.post(
      `/api/v1/order-chats/${chat.orderId}/messages`,
      { text: 'And another' },
      { token: chat.tokens.client_admin },
    );
    await again.next(driverTopic, next.body.message.id);
    assert.equal(again.has(driverTopic, -3), false);
  });

  it('refuses an MQTT 5 connection: the embedded broker speaks MQTT 3.1.1', async () => {
    await assert.rejects(
      mqtt.connectAsync(brokerUrl, {
        protocolVersion: 5,
        username: 'tms',
        password: chat.tokens.driver,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
      }),
      /unacceptable protocol version/i,
    );
  });
});
