import assert from 'node:assert/strict';
import { a, adminOfB, api, b, type Checks, tokenOfA, tokensOfB } from './tenancy.ts';

/** A's fleet with A's driver in it, a weekly pattern, and a shift by hand A's driver signed up for. */
let calendarMade: Promise<{ fleet: number; pattern: number; shift: number }> | undefined;
const calendarOfA = () =>
  (calendarMade ??= (async () => {
    const fleet = await api.post('/api/v1/client/fleets', { name: 'A fleet' }, { token: tokenOfA });
    assert.equal(fleet.status, 200, JSON.stringify(fleet.body));
    const fleetId = fleet.body.fleet.id as number;
    await api.call('PUT', `/api/v1/client/fleets/${fleetId}/members/${a.userIds.driver}`, {
      token: tokenOfA,
      body: { role: 'captain' },
    });
    const pattern = await api.post(
      `/api/v1/client/fleets/${fleetId}/shift-patterns`,
      {
        weekdays: [3],
        start: '08:00',
        end: '12:00',
        vehicle_kind: 'van',
        slots: 2,
        valid_from: '2026-11-01',
      },
      { token: tokenOfA },
    );
    assert.equal(pattern.status, 200, JSON.stringify(pattern.body));
    const shift = await api.post(
      `/api/v1/client/fleets/${fleetId}/shifts`,
      { date: '2026-11-10', start: '09:00', end: '17:00', vehicle_kind: 'van', slots: 3 },
      { token: tokenOfA },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    const shiftId = shift.body.shift.id as number;
    const signed = await api.call(
      'PUT',
      `/api/v1/client/fleets/${fleetId}/shifts/${shiftId}/signups/${a.userIds.driver}`,
      { token: tokenOfA },
    );
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    return { fleet: fleetId, pattern: pattern.body.pattern.id as number, shift: shiftId };
  })());

/** A's fleet and calendar as A reads them: its members, its patterns, and its shift with the signup. */
const calendarAsA = async () => {
  const { fleet } = await calendarOfA();
  const members = await api.get(`/api/v1/client/fleets/${fleet}`, { token: tokenOfA });
  const patterns = await api.get(`/api/v1/client/fleets/${fleet}/shift-patterns`, { token: tokenOfA });
  const shifts = await api.get(`/api/v1/client/fleets/${fleet}/shifts?from=2026-11-10&to=2026-11-10`, {
    token: tokenOfA,
  });
  return { fleet: members.body.fleet, patterns: patterns.body.patterns, shifts: shifts.body.shifts };
};

/**
 * B's admin and B's driver (staff only, for the operations drivers may not call) on A's fleet:
 * FLEET_NOT_FOUND, and A's fleet and calendar unchanged.
 */
const refusedToB =
  (
    method: string,
    path: (ids: { fleet: number; pattern: number; shift: number }) => string,
    body?: object,
    callers: 'staff' | 'staff and driver' = 'staff and driver',
  ) =>
  async () => {
    const ids = await calendarOfA();
    const before = await calendarAsA();
    const tokens = callers === 'staff' ? [adminOfB()] : [adminOfB(), tokensOfB.driver!];
    for (const token of tokens) {
      const answer = await api.call(method, `/api/v1/client/fleets/${ids.fleet}${path(ids)}`, {
        token,
        body,
      });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'FLEET_NOT_FOUND');
    }
    assert.deepEqual(await calendarAsA(), before);
  };
const pattern = {
  weekdays: [1],
  start: '09:00',
  end: '10:00',
  vehicle_kind: 'van',
  slots: 1,
  valid_from: '2026-11-01',
};
const signupOfA = ({ shift }: { shift: number }) => `/shifts/${shift}/signups/${a.userIds.driver}`;

export const fleetChecks: Checks = {
  // The fleets themselves.
  create_fleet: async () => {
    const before = await calendarAsA();
    const same = await api.post('/api/v1/client/fleets', { name: 'A fleet' }, { token: adminOfB() });
    assert.equal(same.status, 200, 'a name is unique in its business only');
    assert.deepEqual(await calendarAsA(), before);
  },
  get_fleets: async () => {
    const { fleet } = await calendarOfA();
    for (const token of [adminOfB(), tokensOfB.driver!]) {
      const listed = await api.get('/api/v1/client/fleets', { token });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.fleets.every((one: { id: number }) => one.id !== fleet));
    }
  },
  get_fleet: refusedToB('GET', () => ''),
  rename_fleet: refusedToB('PATCH', () => '', { name: 'Renamed by B' }),
  delete_fleet: refusedToB('DELETE', () => '', undefined, 'staff'),
  set_fleet_member: refusedToB('PUT', () => `/members/${b.userIds.driver}`, { role: 'captain' }, 'staff'),
  remove_fleet_member: refusedToB('DELETE', () => `/members/${a.userIds.driver}`, undefined, 'staff'),
  // Their calendars.
  create_shift_pattern: refusedToB('POST', () => '/shift-patterns', pattern),
  get_shift_patterns: refusedToB('GET', () => '/shift-patterns'),
  update_shift_pattern: refusedToB('PATCH', (ids) => `/shift-patterns/${ids.pattern}`, { slots: 9 }),
  delete_shift_pattern: refusedToB('DELETE', (ids) => `/shift-patterns/${ids.pattern}`),
  get_fleet_shifts: refusedToB('GET', () => '/shifts?from=2026-11-01&to=2026-11-30'),
  create_fleet_shift: refusedToB('POST', () => '/shifts', {
    date: '2026-11-10',
    start: '09:00',
    end: '10:00',
    vehicle_kind: 'van',
    slots: 1,
  }),
  update_fleet_shift: refusedToB('PATCH', (ids) => `/shifts/${ids.shift}`, { slots: 9 }),
  cancel_fleet_shift: refusedToB('POST', (ids) => `/shifts/${ids.shift}/cancel`, {}),
  sign_up_for_shift: refusedToB('PUT', signupOfA),
  withdraw_shift_signup: refusedToB('DELETE', signupOfA),
  set_shift_signup_state: refusedToB('PATCH', signupOfA, { state: 'checked_in' }),
  get_my_shifts: async () => {
    await calendarOfA();
    const mine = await api.get('/api/v1/driver/shifts?from=2026-11-01&to=2026-11-30', {
      token: tokensOfB.driver!,
    });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual(mine.body.shifts, []);
  },
};
