import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriver, type Tenant } from './support/fixtures.ts';
import { fleetOf } from './support/fleets.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The business is in Asia/Shanghai (UTC+8): 2026-11-01T20:00Z is Monday 2 November, 04:00 there,
// while UTC still reads Sunday 1 November.
const MONDAY_4AM_LOCAL = new Date('2026-11-01T20:00:00Z');
const DAY_MS = 24 * 3600_000;

interface ShiftView {
  id: number;
  date: string;
  start: string;
  end: string;
  slots: number;
  free_slots: number;
  pattern_id: number | null;
  cancelled: boolean;
  signups: Array<{ driver_id: number; name: string; state: string }>;
}

describe('the fleet shift calendar', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let north: number;
  let south: number;
  const driver: Record<string, { id: number; token: string }> = {};

  const base = () => `/api/v1/client/fleets/${north}`;
  const shifts = async (from: string, to: string, token = driver.cap!.token): Promise<ShiftView[]> => {
    const answer = await api.get(`${base()}/shifts?from=${from}&to=${to}`, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.shifts;
  };
  const signUp = (shiftId: number, who: string, token = driver[who]!.token) =>
    api.call('PUT', `${base()}/shifts/${shiftId}/signups/${driver[who]!.id}`, { token });

  before(async () => {
    // Tokens outlive the weeks the calendar's clock travels.
    server = await startTestServer({ tokenTtlHours: 24 * 60 });
    server.clock.set(MONDAY_4AM_LOCAL);
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'cal');
    admin = await login(api, tenant.emails.client_admin);
    for (const name of ['cap', 'd1', 'd2', 'd3', 'd4', 'd5', 'out', 'sol']) {
      driver[name] = await signedInDriver(server, api, tenant, name);
    }
    const other = await createTenant(server.db, server.app.services, 'calx');
    driver.zed = await signedInDriver(server, api, other, 'zed');
    const members = ['d1', 'd2', 'd3', 'd4', 'd5'].map((name) => driver[name]!);
    north = await fleetOf(api, admin, 'North', { drivers: members, captains: [driver.cap!] });
    south = await fleetOf(api, admin, 'South', { captains: [driver.sol!] });
  });
  after(() => server?.close());

  it("generates a pattern's shifts on its weekdays in the business's time zone, and tops them up as days pass", async () => {
    const made = await api.post(
      `${base()}/shift-patterns`,
      {
        weekdays: [7, 1],
        start: '09:00',
        end: '13:00',
        vehicle_kind: 'van',
        slots: 2,
        valid_from: '2026-10-01',
      },
      { token: driver.cap!.token },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.pattern.weekdays, [1, 7]);
    assert.equal(made.body.shifts.added, 8);

    // Today is Monday 2 November there: Sunday 1 November (UTC's today) is already past, and the
    // 28 days run to Sunday 29 November.
    const first = await shifts('2026-10-25', '2026-12-24');
    assert.deepEqual(
      first.map((shift) => shift.date),
      [
        '2026-11-02',
        '2026-11-08',
        '2026-11-09',
        '2026-11-15',
        '2026-11-16',
        '2026-11-22',
        '2026-11-23',
        '2026-11-29',
      ],
    );
    assert.ok(
      first.every((shift) => shift.start === '09:00' && shift.end === '13:00' && shift.free_slots === 2),
    );
    // Reading again generates nothing twice.
    assert.equal((await shifts('2026-10-25', '2026-12-24')).length, 8);

    server.clock.advance(7 * DAY_MS);
    const week = await shifts('2026-10-25', '2026-12-24');
    assert.deepEqual(
      week.map((shift) => shift.date).slice(-3),
      ['2026-11-29', '2026-11-30', '2026-12-06'],
      'a week later the horizon has moved a week on',
    );
    assert.equal(week[0]!.date, '2026-11-02', 'past shifts stay');
    assert.equal(week.length, 10);

    const tooLong = await api.get(`${base()}/shifts?from=2026-11-01&to=2027-01-31`, { token: admin });
    assert.equal(tooLong.status, 422);
    assert.equal(tooLong.body.error_code, 'VALIDATION_FAILED');
    const patterns = await api.get(`${base()}/shift-patterns`, { token: driver.d1!.token });
    assert.equal(patterns.body.patterns.length, 1);
  });

  it('rewrites the shifts nobody signed up for when a pattern changes, and keeps and reports the others', async () => {
    // Today: Monday 9 November, 04:00 there.
    const made = await api.post(
      `${base()}/shift-patterns`,
      {
        weekdays: [2, 4],
        start: '08:00',
        end: '12:00',
        vehicle_kind: 'van',
        slots: 3,
        valid_from: '2026-11-01',
      },
      { token: driver.cap!.token },
    );
    const patternId = made.body.pattern.id as number;
    const own = async () =>
      (await shifts('2026-11-09', '2026-12-31')).filter((shift) => shift.pattern_id === patternId);
    const generated = await own();
    assert.deepEqual(
      generated.map((shift) => shift.date),
      [
        '2026-11-10',
        '2026-11-12',
        '2026-11-17',
        '2026-11-19',
        '2026-11-24',
        '2026-11-26',
        '2026-12-01',
        '2026-12-03',
      ],
    );
    const tuesday = generated[0]!;
    const thursday = generated[1]!;
    assert.equal((await signUp(tuesday.id, 'd1')).status, 200);
    assert.equal((await signUp(thursday.id, 'd2')).status, 200);

    const changed = await api.call('PATCH', `${base()}/shift-patterns/${patternId}`, {
      token: driver.cap!.token,
      body: { weekdays: [2], start: '09:00', end: '13:00' },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.shifts, { rewritten: 3, removed: 3, added: 0 });
    assert.deepEqual(changed.body.kept_shifts, [
      { id: tuesday.id, date: '2026-11-10', start: '08:00', end: '12:00', signups: 1 },
      { id: thursday.id, date: '2026-11-12', start: '08:00', end: '12:00', signups: 1 },
    ]);
    const after = await own();
    assert.deepEqual(
      after.map((shift) => [shift.date, shift.start, shift.end, shift.signups.map((s) => s.driver_id)]),
      [
        ['2026-11-10', '08:00', '12:00', [driver.d1!.id]],
        ['2026-11-12', '08:00', '12:00', [driver.d2!.id]],
        ['2026-11-17', '09:00', '13:00', []],
        ['2026-11-24', '09:00', '13:00', []],
        ['2026-12-01', '09:00', '13:00', []],
      ],
    );

    const deleted = await api.call('DELETE', `${base()}/shift-patterns/${patternId}`, {
      token: driver.cap!.token,
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body.shifts, { removed: 3 });
    assert.deepEqual(
      deleted.body.kept_shifts.map((shift: { id: number }) => shift.id),
      [tuesday.id, thursday.id],
    );
    const left = (await shifts('2026-11-09', '2026-12-31')).filter((shift) =>
      [tuesday.id, thursday.id].includes(shift.id),
    );
    assert.deepEqual(
      left.map((shift) => [shift.pattern_id, shift.signups.length]),
      [
        [null, 1],
        [null, 1],
      ],
      'the shifts with drivers stay, detached from the deleted pattern',
    );
  });

  it('gives an N-slot shift to exactly N of N+1 drivers signing up at once', async () => {
    const made = await api.post(
      `${base()}/shifts`,
      { date: '2026-11-20', start: '10:00', end: '16:00', vehicle_kind: 'cargo_bike', slots: 5 },
      { token: driver.cap!.token },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const shiftId = made.body.shift.id as number;
    const everyone = ['cap', 'd1', 'd2', 'd3', 'd4', 'd5'];
    const answers = await Promise.all(everyone.map((name) => signUp(shiftId, name)));
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 409], JSON.stringify(answers.map((a) => a.body)));
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.equal(refused.body.error_code, 'SHIFT_FULL');
    const [shift] = (await shifts('2026-11-20', '2026-11-20')).filter((one) => one.id === shiftId);
    assert.equal(shift!.signups.length, 5);
    assert.equal(shift!.free_slots, 0);

    // A driver withdraws before the start, and its slot is free again.
    const leaver = shift!.signups.find((signup) => signup.driver_id !== driver.cap!.id)!;
    const name = Object.keys(driver).find((key) => driver[key]!.id === leaver.driver_id)!;
    const withdrawn = await api.call('DELETE', `${base()}/shifts/${shiftId}/signups/${leaver.driver_id}`, {
      token: driver[name]!.token,
    });
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal(withdrawn.body.shift.free_slots, 1);
  });

  it('moves signups through their states, and refuses the moves it does not allow', async () => {
    const [shift] = await shifts('2026-11-16', '2026-11-16');
    assert.equal((await signUp(shift!.id, 'd3')).status, 200);
    const set = (state: string, token = driver.cap!.token) =>
      api.call('PATCH', `${base()}/shifts/${shift!.id}/signups/${driver.d3!.id}`, { token, body: { state } });
    const self = await set('checked_in', driver.d3!.token);
    assert.equal(self.status, 403);
    assert.equal(self.body.error_code, 'FLEET_CAPTAIN_REQUIRED');
    assert.equal((await set('checked_in')).status, 200);
    const done = await set('done');
    assert.equal(done.status, 200);
    assert.equal(done.body.shift.signups[0].state, 'done');
    const back = await set('no_show');
    assert.equal(back.status, 409);
    assert.equal(back.body.error_code, 'SIGNUP_STATE_INVALID');
    assert.deepEqual(back.body.details.allowed, []);
    // A signup no longer scheduled is not the driver's to withdraw.
    const withdraw = await api.call('DELETE', `${base()}/shifts/${shift!.id}/signups/${driver.d3!.id}`, {
      token: driver.d3!.token,
    });
    assert.equal(withdraw.status, 409);
    assert.equal(withdraw.body.error_code, 'SIGNUP_STATE_INVALID');

    const mine = await api.get('/api/v1/driver/shifts?from=2026-11-16&to=2026-11-16', {
      token: driver.d3!.token,
    });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual(
      mine.body.shifts.map((one: { id: number; state: string; fleet: { name: string } }) => [
        one.id,
        one.state,
        one.fleet.name,
      ]),
      [[shift!.id, 'done', 'North']],
    );
  });

  it('cancels a shift: its drivers keep seeing it, cancelled, and nobody signs up any more', async () => {
    const [shift] = await shifts('2026-11-22', '2026-11-22');
    assert.equal((await signUp(shift!.id, 'd4')).status, 200);
    const cancelled = await api.post(
      `${base()}/shifts/${shift!.id}/cancel`,
      {},
      { token: driver.cap!.token },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.shift.cancelled, true);
    assert.equal(cancelled.body.shift.free_slots, 0);
    const late = await signUp(shift!.id, 'd5');
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'SHIFT_CANCELLED');
    const mine = await api.get('/api/v1/driver/shifts?from=2026-11-22&to=2026-11-22', {
      token: driver.d4!.token,
    });
    assert.deepEqual(
      mine.body.shifts.map((one: { cancelled: boolean; state: string }) => [one.cancelled, one.state]),
      [[true, 'scheduled']],
    );
  });

  it('refuses a withdrawal once the shift has started, and a one-off shift in the past', async () => {
    const [shift] = await shifts('2026-11-10', '2026-11-10');
    server.clock.set(new Date('2026-11-10T00:30:00Z')); // 08:30 there: the 08:00 shift has started
    const withdraw = await api.call('DELETE', `${base()}/shifts/${shift!.id}/signups/${driver.d1!.id}`, {
      token: driver.d1!.token,
    });
    assert.equal(withdraw.status, 409);
    assert.equal(withdraw.body.error_code, 'SHIFT_STARTED');
    const past = await api.post(
      `${base()}/shifts`,
      { date: '2026-11-10', start: '08:00', end: '09:00', vehicle_kind: 'van', slots: 1 },
      { token: driver.cap!.token },
    );
    assert.equal(past.status, 422);
    assert.equal(past.body.error_code, 'SHIFT_IN_PAST');
  });

  it('lets only staff and the fleet captains write, and shows nothing to anyone outside the fleet', async () => {
    const pattern = {
      weekdays: [3],
      start: '09:00',
      end: '12:00',
      vehicle_kind: 'van',
      slots: 1,
      valid_from: '2026-11-01',
    };
    const plain = await api.post(`${base()}/shift-patterns`, pattern, { token: driver.d1!.token });
    assert.equal(plain.status, 403);
    assert.equal(plain.body.error_code, 'FLEET_CAPTAIN_REQUIRED');
    const [shift] = await shifts('2026-11-16', '2026-11-16');
    const forOther = await signUp(shift!.id, 'd2', driver.d1!.token);
    assert.equal(forOther.status, 403);
    assert.equal(forOther.body.error_code, 'FLEET_CAPTAIN_REQUIRED');

    // The captain of South is nobody in North, and North's captain nobody in South.
    const southCaptain = await api.post(`${base()}/shift-patterns`, pattern, { token: driver.sol!.token });
    assert.equal(southCaptain.status, 404);
    assert.equal(southCaptain.body.error_code, 'FLEET_NOT_FOUND');
    const intoSouth = await api.post(`/api/v1/client/fleets/${south}/shift-patterns`, pattern, {
      token: driver.cap!.token,
    });
    assert.equal(intoSouth.status, 404);
    const cancelNorth = await api.post(
      `${base()}/shifts/${shift!.id}/cancel`,
      {},
      { token: driver.sol!.token },
    );
    assert.equal(cancelNorth.status, 404);

    const otherAdmin = await login(api, 'client-admin@calx.test');
    for (const token of [driver.out!.token, driver.zed!.token, otherAdmin]) {
      const read = await api.get(`${base()}/shifts?from=2026-11-01&to=2026-11-30`, { token });
      assert.equal(read.status, 404);
      assert.equal(read.body.error_code, 'FLEET_NOT_FOUND');
      assert.equal((await signUp(shift!.id, 'd1', token)).status, 404);
    }
    const nothing = await api.get('/api/v1/driver/shifts?from=2026-11-01&to=2026-11-30', {
      token: driver.zed!.token,
    });
    assert.deepEqual(nothing.body.shifts, []);
    // Staff run every fleet of their business.
    const staff = await api.post(`${base()}/shift-patterns`, pattern, { token: admin });
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
  });
});
