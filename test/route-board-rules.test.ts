import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriver, type Tenant } from './support/fixtures.ts';
import { BOARD_DATE, type BoardWorld, boardCalls, boardWorld, type Driver } from './support/route-board.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('the driver route board: who sees it, and who may hold what', () => {
  let server: TestServer;
  let world: BoardWorld;
  let calls: ReturnType<typeof boardCalls>;
  let other: Tenant;
  let stranger: Driver;
  const routes = { morning1: 0, morning2: 0, afternoon: 0 };

  before(async () => {
    server = await startTestServer();
    world = await boardWorld(server, 'rules', 3);
    calls = boardCalls(world);
    other = await createTenant(server.db, server.app.services, 'rulesx');
    stranger = await signedInDriver(server, world.api, other, 'stranger');
    for (const name of Object.keys(routes) as Array<keyof typeof routes>) {
      routes[name] = world.routes[name].id;
      const published = await calls.publish(routes[name]);
      assert.equal(published.status, 200, JSON.stringify(published.body));
    }
  });
  after(() => server?.close());

  it('shows a board to the drivers of its fleet only; others learn nothing of it', async () => {
    const [racer] = world.racers;
    const board = await calls.board(racer!.token);
    assert.equal(board.body.routes.length, 3);
    for (const outsider of [world.drivers['south-driver']!, stranger]) {
      const seen = await calls.board(outsider.token);
      assert.equal(seen.status, 404, JSON.stringify(seen.body));
      assert.equal(seen.body.error_code, 'FLEET_NOT_FOUND');
      for (const answer of [
        await calls.driverEntry(routes.morning1, outsider),
        await calls.claim(routes.morning1, outsider),
        await calls.join(routes.morning1, outsider),
        await calls.withdraw(routes.morning1, outsider),
      ]) {
        assert.equal(answer.status, 404, JSON.stringify(answer.body));
        assert.equal(answer.body.error_code, 'ROUTE_NOT_ON_BOARD');
      }
    }
    const mine = await world.api.get(`/api/v1/driver/board/routes?date=${BOARD_DATE}`, {
      token: stranger.token,
    });
    assert.deepEqual(mine.body.routes, []);
    const otherAdmin = await login(world.api, other.emails.client_admin);
    assert.equal((await calls.board(otherAdmin)).status, 404);
  });

  it("keeps a captain to its own fleet's board, and a plain driver off running one", async () => {
    const southCaptain = world.drivers['south-captain']!;
    const north = [
      await calls.publish(routes.morning1, {}, southCaptain.token),
      await calls.release(routes.morning1, southCaptain.token),
      await calls.pullBack(routes.morning1, {}, southCaptain.token),
      await calls.reassign(routes.morning1, southCaptain.id, southCaptain.token),
      await calls.clearQueue(routes.morning1, southCaptain.token),
      await world.api.get(`/api/v1/client/fleets/${world.fleets.north}/board/routes/${routes.morning1}`, {
        token: southCaptain.token,
      }),
    ];
    for (const answer of north) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'FLEET_NOT_FOUND');
    }
    // Through its own fleet's path, another fleet's route is not on its board.
    const south = await calls.release(routes.morning1, southCaptain.token, world.fleets.south);
    assert.equal(south.body.error_code, 'ROUTE_NOT_ON_BOARD');
    const racer = world.racers[0]!;
    const plain = await calls.reassign(routes.morning1, racer.id, racer.token);
    assert.equal(plain.status, 403, JSON.stringify(plain.body));
    assert.equal(plain.body.error_code, 'FLEET_CAPTAIN_REQUIRED');
  });

  it('leaves board routes alone when the date is rebuilt', async () => {
    const rebuilt = await world.api.post(
      '/api/v3/client/build-route',
      { date: BOARD_DATE, driver_ids: [world.drivers.builder1!.id, world.drivers.builder2!.id] },
      { token: world.admin },
    );
    assert.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
    const day = await world.api.get(`/api/v1/client/routes?date=${BOARD_DATE}`, { token: world.admin });
    const open = day.body.routes.filter((route: { driver: unknown }) => route.driver === null);
    assert.deepEqual(
      open.map((route: { id: number }) => route.id).sort(),
      Object.values(routes).sort(),
      'the open routes are still there, driverless, with their stops',
    );
    assert.ok(open.every((route: { stops: unknown[] }) => route.stops.length === 1));
    // Nothing is driven on an open route: the dispatch board shows it once it has a driver.
    const dispatchBoard = await world.api.get(`/api/v1/client/dispatch/board?date=${BOARD_DATE}`, {
      token: world.admin,
    });
    assert.equal(dispatchBoard.status, 200, JSON.stringify(dispatchBoard.body));
    assert.deepEqual(dispatchBoard.body.routes, []);
  });

  it('refuses a claim that overlaps a route the driver holds, and names both windows', async () => {
    const racer = world.racers[0]!;
    assert.equal((await calls.claim(routes.morning1, racer)).status, 200);
    const overlap = await calls.claim(routes.morning2, racer);
    assert.equal(overlap.status, 409, JSON.stringify(overlap.body));
    assert.equal(overlap.body.error_code, 'BOARD_WINDOW_OVERLAP');
    assert.equal(overlap.body.details.other_route_id, routes.morning1);
    const afternoon = await calls.claim(routes.afternoon, racer);
    assert.equal(afternoon.status, 200, JSON.stringify(afternoon.body));
    const mine = async () =>
      (
        await world.api.get(`/api/v1/driver/board/routes?date=${BOARD_DATE}`, { token: racer.token })
      ).body.routes
        .map((route: { route_id: number }) => route.route_id)
        .sort();
    assert.deepEqual(await mine(), [routes.morning1, routes.afternoon].sort());
    // Claimed board routes stay locked: a rebuild with their driver keeps them as they are.
    const rebuilt = await world.api.post(
      '/api/v3/client/build-route',
      { date: BOARD_DATE, driver_ids: [racer.id] },
      { token: world.admin },
    );
    assert.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
    assert.deepEqual(rebuilt.body.rebuild.kept_route_ids.sort(), [routes.morning1, routes.afternoon].sort());
    assert.deepEqual(await mine(), [routes.morning1, routes.afternoon].sort());
  });

  it("refuses a claim outside the driver's shift that day, or with no shift that day", async () => {
    const [, withShift, without] = world.racers;
    // The fleet's calendar: an afternoon shift, and one of the racers signed up for it.
    const shifts = `/api/v1/client/fleets/${world.fleets.north}/shifts`;
    const shift = await world.api.post(
      shifts,
      { date: BOARD_DATE, start: '13:00', end: '18:00', vehicle_kind: 'van', slots: 5 },
      { token: world.admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    const signup = await world.api.call('PUT', `${shifts}/${shift.body.shift.id}/signups/${withShift!.id}`, {
      token: withShift!.token,
    });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const refused = await calls.claim(routes.morning2, withShift!);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'BOARD_OUTSIDE_SHIFT');
    assert.deepEqual(refused.body.details.shifts, [{ start: '13:00', end: '18:00' }]);
    // The fleet keeps a calendar now: a driver with no shift that day may not claim.
    const offShift = await calls.claim(routes.morning2, without!);
    assert.equal(offShift.status, 409, JSON.stringify(offShift.body));
    assert.equal(offShift.body.error_code, 'BOARD_OFF_SHIFT');
    assert.equal(offShift.body.details.date, BOARD_DATE);
    // Staff may still call it in on its day off.
    const calledIn = await calls.reassign(routes.morning2, without!.id);
    assert.equal(calledIn.status, 200, JSON.stringify(calledIn.body));
    assert.equal(calledIn.body.route.claimant.id, without!.id);

    // Its afternoon route fits the shift: a captain hands it over, ahead of any queue.
    const captain = world.drivers.captain!;
    const reassigned = await calls.reassign(routes.afternoon, withShift!.id, captain.token);
    assert.equal(reassigned.status, 200, JSON.stringify(reassigned.body));
    assert.equal(reassigned.body.route.claimant.id, withShift!.id);
    assert.deepEqual(reassigned.body.route.history.at(-1).details, { from_driver_id: world.racers[0]!.id });
    const outsider = await calls.reassign(routes.afternoon, world.drivers['south-driver']!.id, captain.token);
    assert.equal(outsider.body.error_code, 'DRIVER_NOT_FOUND');
  });
});
