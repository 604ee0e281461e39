import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type App, createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { LockerSimulator } from '../src/modules/lockers/simulator.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import type { EmbeddedBroker } from '../src/platform/mqtt/broker.ts';
import { eventually, lockerWorld, startDevice } from './support/lockers.ts';
import { Listener, prepare, turnOn } from './support/order-chat.ts';
import { NO_REDIS, REDIS, redisAnswers } from './support/redis.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Two instances of the service with one REDIS_URL: A takes the requests and runs the outbox
 * (every push is published there), B only runs its embedded broker, where the clients connect.
 */
describe('live push across instances sharing REDIS_URL', { skip: !redisAnswers && NO_REDIS }, () => {
  let server: TestServer;
  let brokerB: App;
  let closeB: () => Promise<void>;
  let chat: Awaited<ReturnType<typeof prepare>>;
  let other: Awaited<ReturnType<typeof prepare>>;
  const listeners: Listener[] = [];
  const devices: LockerSimulator[] = [];
  const urlOf = (app: App) => `mqtt://127.0.0.1:${(app.mqtt as EmbeddedBroker<unknown>).port}`;
  const listenOnB = async (token: string) => {
    const listener = await Listener.connect(urlOf(brokerB), token);
    listeners.push(listener);
    return listener;
  };
  const conversation = () => `tms/order-chat/${chat.tenant.businessId}/${chat.orderId}`;
  const driverTopic = () => `tms/drivers/${chat.tenant.businessId}/${chat.tenant.userIds.driver}`;
  const postOnA = async (text: string) => {
    const posted = await chat.api.post(
      `/api/v1/order-chats/${chat.orderId}/messages`,
      { text },
      { token: chat.tokens.client_admin },
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    return posted.body.message.id as number;
  };

  before(async () => {
    server = await startTestServer({
      redisUrl: REDIS,
      // A namespace of this run's own: test files and runs on one Redis, each with a business 1, never cross.
      mqtt: { ...loadConfig({}).mqtt, port: 0, redisPrefix: `tms-test-${randomUUID().slice(0, 8)}` },
    });
    await server.app.startBackground(server.pool);
    const handle = openDatabase(server.databaseUrl);
    brokerB = await createApp(server.config, handle.db, server.clock);
    await brokerB.mqtt.start();
    closeB = async () => {
      await brokerB.mqtt.stop();
      await brokerB.http.close();
      await handle.close();
    };
    chat = await prepare(server, 'pushinstances');
    other = await prepare(server, 'pushelsewhere');
    await turnOn(chat.api, chat.tokens.client_admin);
  });
  after(async () => {
    for (const listener of listeners) await listener.close().catch(() => {});
    for (const device of devices) await device.stop().catch(() => {});
    await closeB?.();
    await server.close();
  });

  it('pushes a message posted on A to the driver and the staff connected to B', async () => {
    const driver = await listenOnB(chat.tokens.driver);
    assert.equal(await driver.subscribe(driverTopic()), true);
    assert.equal(await driver.subscribe(conversation()), true);
    const staff = await listenOnB(chat.tokens.employee);
    assert.equal(await staff.subscribe(conversation()), true);

    const id = await postOnA('Gate code 4512');
    assert.equal((await driver.next(driverTopic(), id)).message.text, 'Gate code 4512');
    assert.equal((await driver.next(conversation(), id)).message.text, 'Gate code 4512');
    assert.equal((await staff.next(conversation(), id)).message.text, 'Gate code 4512');
  });

  it("holds B's rules: no subscription outside one's chats, nothing for a driver taken off the route", async () => {
    const stranger = await listenOnB(other.tokens.client_admin);
    assert.equal(await stranger.subscribe(conversation()), false);
    assert.equal(await stranger.subscribe(driverTopic()), false);
    const otherDriver = await listenOnB(other.tokens.driver);
    assert.equal(await otherDriver.subscribe(driverTopic()), false);

    const driver = await listenOnB(chat.tokens.driver);
    assert.equal(await driver.subscribe(conversation()), true);
    const staff = await listenOnB(chat.tokens.employee);
    assert.equal(await staff.subscribe(conversation()), true);
    await driver.next(conversation(), await postOnA('Still yours'));

    const held = await chat.api.post(
      `/api/v1/client/orders/${chat.orderId}/hold`,
      {},
      { token: chat.tokens.client_admin },
    );
    assert.equal(held.status, 200, JSON.stringify(held.body));
    const id = await postOnA('Not yours any more');
    await staff.next(conversation(), id);
    // B decided for both subscribers in one pass; the broker answers this SUBSCRIBE after
    // anything it wrote to the driver before it.
    assert.equal(await driver.subscribe(driverTopic()), true);
    assert.equal(driver.has(conversation(), id), false, 'the audience A published with is what B applied');
    assert.equal(driver.has(driverTopic(), id), false);
    for (const outsider of [stranger, otherDriver]) assert.equal(outsider.received.length, 0);
  });

  it("takes a locker device's messages once, on B, and reaches it there with A's commands", async () => {
    const world = await lockerWorld(server, 'lockerinstances');
    devices.push(world.device);
    const site = async () =>
      (await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin })).body.site;
    await world.device.stop();
    await eventually(
      async () => ((await site()).devices[0].online ? undefined : true),
      'the device offline on A',
    );
    const device = await startDevice(server, urlOf(brokerB), world.deviceId, world.credential);
    devices.push(device);
    await eventually(
      async () => ((await site()).devices[0].online ? true : undefined),
      'the device online on B',
    );

    const doorEvents = async (kind: string) =>
      (
        await world.api.get('/api/v1/lockers/ledger?per_page=200', { token: world.admin })
      ).body.entries.filter(
        (entry: { kind: string; device_id: number | null }) =>
          entry.kind === kind && entry.device_id === world.deviceId,
      ).length;
    await device.door(3, 'opened');
    await device.door(3, 'closed');
    await eventually(
      async () => ((await doorEvents('door_closed')) > 0 ? true : undefined),
      'the door events',
    );
    assert.equal(await doorEvents('door_opened'), 1, 'taken once');
    assert.equal(await doorEvents('door_closed'), 1, 'taken once');

    // The command leaves A's outbox; the device on B answers, and B alone takes the answer.
    const reserved = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId, size_class: 'S' },
      { token: world.admin },
    );
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body));
    const opened = await world.api.post('/api/v1/lockers/open', {
      reference: reserved.body.booking.reference,
      code: reserved.body.codes.drop_code,
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const settled = await eventually(async () => {
      const now = await world.api.get(`/api/v1/lockers/open/${reserved.body.booking.reference}`);
      return now.body.command.status === 'pending' ? undefined : now.body;
    }, "the device's answer through B");
    assert.equal(settled.command.status, 'acked');
    assert.equal(settled.booking.state, 'occupied');
    assert.deepEqual(device.opened, [reserved.body.booking.compartment.number]);
  });
});
