import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BOARD_DATE, type BoardWorld, boardCalls, boardWorld, type Driver } from './support/route-board.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Claims and standby follow the day on the service's clock: a driver takes a board route only
 * before it leaves, and, in a fleet keeping a shift calendar, only on a day it has a shift; staff
 * and captains may still assign it. The clock starts on Monday 2 November 2026, 17:30 in the
 * business's time zone (Asia/Shanghai, UTC+8); the routes are Tuesday's (BOARD_DATE).
 */
describe('the driver route board: claims follow the route’s window and the driver’s shifts', () => {
  let server: TestServer;
  let world: BoardWorld;
  let calls: ReturnType<typeof boardCalls>;
  let shiftPath: string;
  /** A, C and D have a shift on BOARD_DATE; B has none. */
  let onShift: Driver;
  let offShift: Driver;
  let late: Driver;
  let waiting: Driver;
  const routes = { morning1: 0, morning2: 0, afternoon: 0 };

  before(async () => {
    server = await startTestServer();
    world = await boardWorld(server, 'boardday', 4);
    calls = boardCalls(world);
    [onShift, offShift, late, waiting] = world.racers as [Driver, Driver, Driver, Driver];
    for (const name of Object.keys(routes) as Array<keyof typeof routes>) {
      routes[name] = world.routes[name].id;
      const published = await calls.publish(routes[name]);
      assert.equal(published.status, 200, JSON.stringify(published.body));
    }
    // The fleet keeps a calendar: one shift on BOARD_DATE, which three of the four racers take.
    const shifts = `/api/v1/client/fleets/${world.fleets.north}/shifts`;
    const shift = await world.api.post(
      shifts,
      { date: BOARD_DATE, start: '07:00', end: '19:00', vehicle_kind: 'van', slots: 5 },
      { token: world.admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    shiftPath = `${shifts}/${shift.body.shift.id}/signups`;
    for (const driver of [onShift, late, waiting]) {
      const signup = await world.api.call('PUT', `${shiftPath}/${driver.id}`, { token: driver.token });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
    }
  });
  after(() => server?.close());

  it('refuses a claim and a place in a queue to a driver with no shift that day, in its language', async () => {
    assert.equal((await calls.claim(routes.morning1, onShift)).status, 200);

    const claim = await world.api.call('POST', `/api/v1/driver/board/routes/${routes.morning2}/claim`, {
      token: offShift.token,
      body: {},
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(claim.status, 409, JSON.stringify(claim.body));
    assert.equal(claim.body.error_code, 'BOARD_OFF_SHIFT');
    assert.deepEqual(claim.body.details, { route_id: routes.morning2, date: BOARD_DATE });
    assert.match(claim.body.message, /aucun créneau le 2026-11-03/);

    const join = await world.api.call('POST', `/api/v1/driver/board/routes/${routes.morning1}/standby`, {
      token: offShift.token,
      body: {},
      headers: { 'accept-language': 'de' },
    });
    assert.equal(join.status, 409, JSON.stringify(join.body));
    assert.equal(join.body.error_code, 'BOARD_OFF_SHIFT');
    assert.match(join.body.message, /keine Schicht/);
    assert.equal((await calls.entry(routes.morning1)).standby.length, 0);
    const board = await calls.board(offShift.token);
    const morning2 = board.body.routes.find(
      (route: { route_id: number }) => route.route_id === routes.morning2,
    );
    assert.equal(morning2.state, 'open', 'the refused claim left the route open');
  });

  it('lets a captain give the driver with no shift a route all the same', async () => {
    const captain = world.drivers.captain!;
    const given = await calls.reassign(routes.morning2, offShift.id, captain.token);
    assert.equal(given.status, 200, JSON.stringify(given.body));
    assert.equal(given.body.route.claimant.id, offShift.id);
    assert.deepEqual(
      [given.body.route.history.at(-1).action, given.body.route.history.at(-1).driver.id],
      ['reassigned', offShift.id],
    );
  });

  it('drops a waiting driver whose shift went meanwhile when the route is handed on', async () => {
    const joined = await calls.join(routes.morning1, waiting);
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.route.standby.my_position, 1);
    // Staff take the driver off its shift; then the claimant withdraws (before the cutoff).
    const off = await world.api.call('DELETE', `${shiftPath}/${waiting.id}`, { token: world.admin });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const withdrawn = await calls.withdraw(routes.morning1, onShift);
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal(withdrawn.body.route.state, 'open');
    const entry = await calls.entry(routes.morning1);
    assert.deepEqual(
      entry.history!.slice(-3).map((line) => [line.action, line.driver?.id ?? null, line.details.reason]),
      [
        ['withdrawn', onShift.id, undefined],
        ['standby_dropped', waiting.id, 'BOARD_OFF_SHIFT'],
        ['reopened', null, undefined],
      ],
    );
  });

  it('refuses a claim and a place in a queue once the route was due to leave; staff may still assign it', async () => {
    const afternoon = (await calls.entry(routes.afternoon)).window;
    const departure = new Date(`${BOARD_DATE}T${afternoon.start}:00+08:00`);

    // A minute before the afternoon route leaves, the morning route, reopened above, has left already.
    server.clock.set(new Date(departure.getTime() - 60_000));
    const morning = await calls.claim(routes.morning1, late);
    assert.equal(morning.status, 409, JSON.stringify(morning.body));
    assert.equal(morning.body.error_code, 'BOARD_WINDOW_PASSED');

    server.clock.set(departure);
    const claim = await calls.claim(routes.afternoon, late);
    assert.equal(claim.status, 409, JSON.stringify(claim.body));
    assert.equal(claim.body.error_code, 'BOARD_WINDOW_PASSED');
    assert.deepEqual(claim.body.details, {
      route_id: routes.afternoon,
      date: BOARD_DATE,
      window: afternoon,
      now: `${BOARD_DATE} ${afternoon.start}`,
    });
    assert.match(claim.body.message, new RegExp(`due to leave at ${BOARD_DATE} ${afternoon.start}`));
    assert.equal((await calls.entry(routes.afternoon)).state, 'open');

    const assigned = await calls.reassign(routes.afternoon, late.id);
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.equal(assigned.body.route.claimant.id, late.id);

    // Claimed and under way in time: nobody may queue for it any more, whatever its claimant does.
    const join = await calls.join(routes.afternoon, onShift);
    assert.equal(join.status, 409, JSON.stringify(join.body));
    assert.equal(join.body.error_code, 'BOARD_WINDOW_PASSED');
  });
});
