import assert from 'node:assert/strict';
import { a, adminOfB, api, type Checks, routeOfA, tokenOfA, tokensOfB } from './tenancy.ts';

/** A's fleet with A's driver in it, and A's route open on its board: made by the first check that needs them. */
let boardOfAMade: Promise<number> | undefined;
const fleetOfA = () =>
  (boardOfAMade ??= (async () => {
    const fleet = await api.post('/api/v1/client/fleets', { name: 'A fleet' }, { token: tokenOfA });
    assert.equal(fleet.status, 200, JSON.stringify(fleet.body));
    const id = fleet.body.fleet.id as number;
    await api.call('PUT', `/api/v1/client/fleets/${id}/members/${a.userIds.driver}`, {
      token: tokenOfA,
      body: { role: 'driver' },
    });
    const published = await api.post(
      `/api/v1/client/fleets/${id}/board/routes`,
      { route_id: routeOfA },
      { token: tokenOfA },
    );
    assert.equal(published.status, 200, JSON.stringify(published.body));
    return id;
  })());

/** A's board route, as A's staff see it: unchanged by anything B does. */
const boardRouteOfA = async () => {
  const fleet = await fleetOfA();
  const answer = await api.get(`/api/v1/client/fleets/${fleet}/board/routes/${routeOfA}`, {
    token: tokenOfA,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.route;
};

/** B's staff on A's fleet's board: A's fleet does not exist for them, and A's board route stays as it was. */
const staffOfBOnBoardOfA =
  (method: string, path: (route: number) => string, body?: () => object) => async () => {
    const fleet = await fleetOfA();
    const before = await boardRouteOfA();
    const answer = await api.call(method, `/api/v1/client/fleets/${fleet}/board${path(routeOfA)}`, {
      token: adminOfB(),
      body: body?.(),
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'FLEET_NOT_FOUND');
    assert.deepEqual(await boardRouteOfA(), before);
  };

/** B's driver on A's board route: not on any board of theirs, and A's stays as it was. */
const driverOfBOnBoardOfA =
  (method: string, path = '') =>
  async () => {
    const before = await boardRouteOfA();
    const answer = await api.call(method, `/api/v1/driver/board/routes/${routeOfA}${path}`, {
      token: tokensOfB.driver,
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ROUTE_NOT_ON_BOARD');
    assert.deepEqual(await boardRouteOfA(), before);
  };

/** Fleets' route boards: what B must not reach of A's (the fleets themselves: tenancy-fleets.ts). */
export const boardChecks: Checks = {
  publish_board_route: async () => {
    const ownFleet = await api.post('/api/v1/client/fleets', { name: 'B fleet' }, { token: adminOfB() });
    const answer = await api.post(
      `/api/v1/client/fleets/${ownFleet.body.fleet.id}/board/routes`,
      { route_id: routeOfA },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
  },
  get_route_board: staffOfBOnBoardOfA('GET', () => '?date=2026-11-04'),
  get_fleet_board_route: staffOfBOnBoardOfA('GET', (route) => `/routes/${route}`),
  release_board_route: staffOfBOnBoardOfA(
    'POST',
    (route) => `/routes/${route}/release`,
    () => ({}),
  ),
  pull_back_board_route: staffOfBOnBoardOfA(
    'POST',
    (route) => `/routes/${route}/pull-back`,
    () => ({}),
  ),
  reassign_board_route: staffOfBOnBoardOfA(
    'POST',
    (route) => `/routes/${route}/reassign`,
    () => ({ driver_id: a.userIds.driver }),
  ),
  clear_board_standby: staffOfBOnBoardOfA('DELETE', (route) => `/routes/${route}/standby`),
  get_route_board_settings: async () => {
    await api.call('PUT', '/api/v1/client/route-board/settings', {
      token: tokenOfA,
      body: { withdrawal_cutoff_minutes: 45 },
    });
    const answer = await api.get('/api/v1/client/route-board/settings', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.settings.withdrawal_cutoff_minutes, 120, "B's own default, not A's");
  },
  update_route_board_settings: async () => {
    const answer = await api.call('PUT', '/api/v1/client/route-board/settings', {
      token: adminOfB(),
      body: { withdrawal_cutoff_minutes: 10 },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const ofA = await api.get('/api/v1/client/route-board/settings', { token: tokenOfA });
    assert.notEqual(ofA.body.settings.withdrawal_cutoff_minutes, 10);
  },
  get_my_board_routes: async () => {
    await fleetOfA();
    const answer = await api.get('/api/v1/driver/board/routes?date=2026-11-04', { token: tokensOfB.driver });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.routes, []);
  },
  get_board_route: driverOfBOnBoardOfA('GET'),
  claim_board_route: driverOfBOnBoardOfA('POST', '/claim'),
  join_board_standby: driverOfBOnBoardOfA('POST', '/standby'),
  leave_board_standby: driverOfBOnBoardOfA('DELETE', '/standby'),
  withdraw_board_route: driverOfBOnBoardOfA('POST', '/withdraw'),
};
