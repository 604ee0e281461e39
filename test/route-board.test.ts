import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { loadConfig } from '../src/config.ts';
import { BOARD_DATE, type BoardWorld, boardCalls, boardWorld, type Driver } from './support/route-board.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const RACERS = 50;

/** A webhook receiver on loopback keeping every body it gets. */
async function startReceiver() {
  const bodies: Array<{ type: string; data: Record<string, unknown> }> = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/board`,
    bodies,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

/** Waits until `found` answers something, checking again on every message or tick, up to a minute. */
async function eventually<T>(found: () => T | undefined, what: string): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 50) {
    const value = found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not come within a minute`);
}

describe('the driver route board: claims, standby and withdrawal', () => {
  let server: TestServer;
  let world: BoardWorld;
  let calls: ReturnType<typeof boardCalls>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const subscriptions: MqttClient[] = [];
  let routeId: number;
  let winner: Driver;
  /** The 49 who lost the race, in the order they joined the queue. */
  let queue: Driver[] = [];

  before(async () => {
    const { webhooks } = loadConfig({ LOG_LEVEL: 'silent' });
    server = await startTestServer({
      webhooks: { ...webhooks, allow: { ...webhooks.allow, loopback: true } },
    });
    // The outbox worker delivers pushes and webhooks as a running service does.
    await server.app.startBackground(server.pool);
    world = await boardWorld(server, 'board', RACERS);
    calls = boardCalls(world);
    receiver = await startReceiver();
    const settings = await world.api.call('PUT', '/api/v1/webhook-settings', {
      token: world.admin,
      body: { urls: { 'route_board.promoted': receiver.url } },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    routeId = world.routes.morning1.id;
  });
  after(async () => {
    for (const subscription of subscriptions) await subscription.endAsync(true).catch(() => {});
    await receiver?.close();
    await server?.close();
  });

  it('publishes a built route: it leaves its driver, and the board shows what the fleet may claim', async () => {
    const published = await calls.publish(routeId, { pay: { amount_minor: 4250, currency: 'EUR' } });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const entry = published.body.route;
    assert.equal(entry.state, 'open');
    assert.equal(entry.stops, 1);
    assert.ok(entry.distance_meters > 0);
    assert.deepEqual(entry.pay, { amount: 42.5, amount_minor: 4250, currency: 'EUR' });
    // The box is rounded outwards: it holds the stop without telling its door.
    assert.ok(entry.area.south <= 31.24 && 31.24 <= entry.area.north, JSON.stringify(entry.area));
    assert.ok(entry.area.west <= 121.48 && 121.48 <= entry.area.east, JSON.stringify(entry.area));
    assert.deepEqual(
      entry.history.map((line: { action: string; driver: { id: number } }) => [line.action, line.driver.id]),
      [['published', world.routes.morning1.driver.id]],
    );

    const route = await world.api.get(`/api/v1/client/routes/${routeId}`, { token: world.admin });
    assert.equal(route.body.route.driver, null, 'a route open on a board has no driver');
    assert.equal(route.body.route.locked, true, 'rebuilds leave it alone');
    const order = await world.api.get(`/api/v1/client/orders/${world.orders.morning1}`, {
      token: world.admin,
    });
    assert.equal(order.body.order.driver_id, null);
    assert.equal(order.body.order.route_id, routeId);

    const board = await calls.board(world.racers[0]!.token);
    assert.equal(board.status, 200, JSON.stringify(board.body));
    assert.deepEqual(
      board.body.routes.map((r: { route_id: number; state: string }) => [r.route_id, r.state]),
      [[routeId, 'open']],
    );
    const again = await calls.publish(routeId);
    assert.equal(again.status, 409);
    assert.equal(again.body.error_code, 'ROUTE_NOT_PUBLISHABLE');
    assert.equal(again.body.details.reason, 'already_on_board');
    // A plan edit needs a driver to time the route for.
    const edit = await world.api.call('PUT', `/api/v1/client/routes/${routeId}/driver`, {
      token: world.admin,
      body: { driver_id: world.racers[0]!.id },
    });
    assert.equal(edit.status, 409, JSON.stringify(edit.body));
    assert.equal(edit.body.error_code, 'ROUTE_ON_BOARD');
  });

  it(`lets exactly one of ${RACERS} drivers claiming at once win; the others may queue, in joining order`, async () => {
    const answers = await Promise.all(world.racers.map((driver) => calls.claim(routeId, driver)));
    const won = answers.flatMap((answer, at) => (answer.status === 200 ? [world.racers[at]!] : []));
    assert.equal(won.length, 1, answers.map((answer) => answer.status).join(','));
    winner = won[0]!;
    const lost = answers.filter((answer) => answer.status !== 200);
    assert.equal(lost.length, RACERS - 1);
    for (const answer of lost) {
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ROUTE_ALREADY_CLAIMED');
      assert.equal(answer.body.details.route_id, routeId);
      assert.equal(answer.body.details.standby, true);
    }
    const route = await world.api.get(`/api/v1/client/routes/${routeId}`, { token: world.admin });
    assert.equal(route.body.route.driver.id, winner.id);
    const order = await world.api.get(`/api/v1/client/orders/${world.orders.morning1}`, {
      token: world.admin,
    });
    assert.equal(order.body.order.driver_id, winner.id, "the route's order follows its driver");
    const mine = await world.api.get(`/api/v1/driver/routes?date=${BOARD_DATE}`, { token: winner.token });
    assert.ok(JSON.stringify(mine.body).includes(`"id":${routeId}`), JSON.stringify(mine.body));

    // The losers queue, every second one, from the last to the first.
    queue = world.racers.filter((driver) => driver !== winner).reverse();
    for (const driver of queue) {
      server.clock.advance(1000);
      const joined = await calls.join(routeId, driver);
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
    }
    const entry = await calls.entry(routeId);
    assert.deepEqual(
      entry.queue!.map((waiting) => waiting.driver.id),
      queue.map((driver) => driver.id),
    );
    assert.equal(entry.claimant!.id, winner.id);
    const third = await calls.driverEntry(routeId, queue[2]!);
    assert.deepEqual(third.body.route.standby, { length: RACERS - 1, my_position: 3 });
    assert.equal(third.body.route.history, undefined, "a driver does not read others' steps");
    const twice = await calls.join(routeId, queue[2]!);
    assert.equal(twice.body.route.standby.my_position, 3, 'joining again keeps the place');
    const held = await calls.join(routeId, winner);
    assert.equal(held.body.error_code, 'BOARD_ROUTE_HELD');
  });

  it('promotes the first standby driver on a withdrawal and tells them on their MQTT topic and by webhook', async () => {
    const first = queue[0]!;
    const port = (server.app.mqtt as unknown as { port: number }).port;
    const subscription = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: 'tms',
      password: first.token,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    subscriptions.push(subscription);
    const pushes: Array<Record<string, unknown>> = [];
    subscription.on('message', (_topic, payload) => pushes.push(JSON.parse(payload.toString())));
    await subscription.subscribeAsync(`tms/drivers/${world.tenant.businessId}/${first.id}`, { qos: 1 });

    const withdrawn = await calls.withdraw(routeId, winner);
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal(withdrawn.body.route.claimant.id, first.id);
    assert.equal(withdrawn.body.route.standby.length, RACERS - 2);

    const push = await eventually(
      () => pushes.find((body) => body.type === 'route_board_promoted'),
      'the promotion push',
    );
    assert.equal(push.route_id, routeId);
    assert.equal(push.date, BOARD_DATE);
    const hook = await eventually(
      () => receiver.bodies.find((body) => body.type === 'route_board.promoted'),
      'the route_board.promoted webhook',
    );
    assert.equal(hook.data.route_id, routeId);
    assert.equal(hook.data.driver_id, first.id);
    assert.equal(hook.data.previous_driver_id, winner.id);

    const entry = await calls.entry(routeId);
    assert.deepEqual(
      entry.history!.slice(-2).map((line) => [line.action, line.driver?.id]),
      [
        ['withdrawn', winner.id],
        ['promoted', first.id],
      ],
    );
    const second = await calls.driverEntry(routeId, queue[1]!);
    assert.equal(second.body.route.standby.my_position, 1);
  });

  it('skips and drops a standby driver who no longer fits, saying why', async () => {
    // The next in line meanwhile took another morning route, which overlaps this one.
    const next = queue[1]!;
    const morning2 = world.routes.morning2.id;
    assert.equal((await calls.publish(morning2)).status, 200);
    assert.equal((await calls.claim(morning2, next)).status, 200);
    const released = await calls.release(routeId);
    assert.equal(released.status, 200, JSON.stringify(released.body));
    assert.equal(released.body.route.claimant.id, queue[2]!.id, 'the one after the overlapping driver');
    const dropped = released.body.route.history.find(
      (line: { action: string; driver: { id: number } }) => line.action === 'standby_dropped',
    );
    assert.equal(dropped.driver.id, next.id);
    assert.equal(dropped.details.reason, 'BOARD_WINDOW_OVERLAP');
    assert.equal(
      released.body.route.queue.some((waiting: { driver: { id: number } }) => waiting.driver.id === next.id),
      false,
    );
  });

  it("refuses the claimant's own withdrawal after the cutoff; a captain may still release the route", async () => {
    const holder = queue[2]!;
    // The route leaves at 07:00 on BOARD_DATE in Shanghai; the cutoff is two hours before.
    server.clock.set(new Date('2026-11-02T21:30:00Z'));
    const late = await calls.withdraw(routeId, holder);
    assert.equal(late.status, 409, JSON.stringify(late.body));
    assert.equal(late.body.error_code, 'WITHDRAWAL_CUTOFF_PASSED');
    assert.match(late.body.details.cutoff, new RegExp(`^${BOARD_DATE} 0\\d:\\d\\d$`));
    const notHis = await calls.withdraw(routeId, queue[3]!);
    assert.equal(notHis.body.error_code, 'FORBIDDEN');

    const captain = world.drivers.captain!;
    const released = await calls.release(routeId, captain.token);
    assert.equal(released.status, 200, JSON.stringify(released.body));
    assert.equal(released.body.route.claimant.id, queue[3]!.id);
    const withdrawal = released.body.route.history.findLast(
      (line: { action: string }) => line.action === 'withdrawn',
    );
    assert.deepEqual(withdrawal.details, { by: 'captain', after_cutoff: true });
  });

  it('lets captains clear a queue and pull a route back to the driver it was built for', async () => {
    const captain = world.drivers.captain!;
    const cleared = await calls.clearQueue(routeId, captain.token);
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual(cleared.body.route.queue, []);
    assert.equal(cleared.body.route.history.at(-1).action, 'queue_cleared');
    // With nobody waiting, a release opens the route again.
    const reopened = await calls.release(routeId, captain.token);
    assert.equal(reopened.body.route.state, 'open');
    assert.equal(reopened.body.route.history.at(-1).action, 'reopened');

    const pulled = await calls.pullBack(routeId, {}, captain.token);
    assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
    assert.equal(pulled.body.route.driver.id, world.routes.morning1.driver.id);
    assert.equal(pulled.body.route.locked, false, 'the lock it had before publication');
    const board = await calls.board();
    assert.equal(
      board.body.routes.some((r: { route_id: number }) => r.route_id === routeId),
      false,
      'off the board',
    );
    const order = await world.api.get(`/api/v1/client/orders/${world.orders.morning1}`, {
      token: world.admin,
    });
    assert.equal(order.body.order.driver_id, world.routes.morning1.driver.id);
  });

  it("gives the routes open on a deleted fleet's board back to the drivers they were built for", async () => {
    const builtFor = world.routes.morning1.driver.id;
    const published = await calls.publish(routeId, {}, world.admin, world.fleets.south);
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const deleted = await world.api.call('DELETE', `/api/v1/client/fleets/${world.fleets.south}`, {
      token: world.admin,
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const route = await world.api.get(`/api/v1/client/routes/${routeId}`, { token: world.admin });
    assert.equal(route.body.route.driver.id, builtFor);
    assert.equal(route.body.route.locked, false);
  });
});
