import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriver, type Tenant } from './support/fixtures.ts';
import { fleetOf } from './support/fleets.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The test clock reads Monday 2 November 2026, 17:30 in the businesses' time zone: the day planned
// is a week ahead, so what the suggestions judge is the plan itself, not the clock.
const DATE = '2026-11-10';
const DEPOT = { lat: 31.23, lng: 121.47 };
const CAPACITY = { weight_grams: 500_000, volume_cm3: 5_000_000, count: 20 };

interface Suggestion {
  id: string;
  kind: string;
  reason: { code: string; message: string };
  order_id: number | null;
  route_id: number | null;
  to_route_id: number | null;
  driver_id: number | null;
  added_distance_m: number | null;
  dimension: string | null;
  over: number | null;
  late_minutes: number | null;
  late_stops: number | null;
  write: { tool: string; arguments: Record<string, unknown> } | null;
}

interface Route {
  id: number;
  distance_meters: number;
  stops: Array<{ order_id: number; planned_arrival: string }>;
}

/**
 * A business's day: a depot, two drivers whose routes run up a street north of it (N1..N5) and
 * along one east of it (E1..E5), built one van per street, then with room for twenty parcels each.
 */
class Day {
  tenant!: Tenant;
  admin!: string;
  employee!: string;
  depotId!: number;
  north!: Route;
  east!: Route;
  readonly orders = new Map<string, number>();

  constructor(
    private readonly server: TestServer,
    private readonly api: Client,
    private readonly code: string,
  ) {}

  async build(familyOn: boolean): Promise<this> {
    const { server, api } = this;
    this.tenant = await createTenant(server.db, server.app.services, this.code);
    this.admin = await login(api, this.tenant.emails.client_admin);
    this.employee = await login(api, this.tenant.emails.employee);
    const depot = await api.post('/api/v1/client/depots', { name: 'Main', ...DEPOT }, { token: this.admin });
    this.depotId = depot.body.depot.id;
    const drivers = [];
    for (const name of ['north', 'east']) drivers.push((await this.driver(name, 5)).id);
    for (let i = 1; i <= 5; i++) await this.order(`N${i}`, { lat: DEPOT.lat + i * 0.01, lng: DEPOT.lng });
    for (let i = 1; i <= 5; i++) await this.order(`E${i}`, { lat: DEPOT.lat, lng: DEPOT.lng + i * 0.012 });
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DATE, driver_ids: drivers, time_limit_ms: 200 },
      { token: this.admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    for (const id of drivers) await this.profile(id, CAPACITY.count);
    const holding = (ref: string) =>
      built.body.routes.find((r: Route) => r.stops.some((stop) => stop.order_id === this.orders.get(ref))).id;
    this.north = await this.route(holding('N1'));
    this.east = await this.route(holding('E1'));
    assert.notEqual(this.north.id, this.east.id, 'one route per street');
    if (familyOn) {
      const on = await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
        token: this.admin,
        body: { enabled: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      // The family is set up once the business saved its agent settings.
      const setUp = await api.call('PUT', '/api/v1/client/agent/settings', {
        token: this.admin,
        body: { instructions: null },
      });
      assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
    }
    return this;
  }

  async driver(name: string, count: number) {
    const driver = await signedInDriver(this.server, this.api, this.tenant, `${name}-${this.code}`);
    await this.profile(driver.id, count);
    return driver;
  }

  async profile(id: number, count: number) {
    const profile = await this.api.call('PUT', `/api/v1/client/drivers/${id}/profile`, {
      token: this.admin,
      body: {
        depot_id: this.depotId,
        capacity: { ...CAPACITY, count },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
  }

  async order(ref: string, at: { lat?: number; lng?: number }, extra: object = {}) {
    const created = await this.api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: DATE, dropoff: { line1: `${ref} street`, ...at }, ...extra },
      { token: this.admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    this.orders.set(ref, created.body.orders[0].id);
    return created.body.orders[0].id as number;
  }

  async route(id: number): Promise<Route> {
    return (await this.api.get(`/api/v1/client/routes/${id}`, { token: this.admin })).body.route;
  }

  async suggestions(token = this.admin, lang?: string): Promise<Suggestion[]> {
    const answer = await this.api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, {
      token,
      headers: lang ? { 'accept-language': lang } : {},
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.total, answer.body.suggestions.length);
    return answer.body.suggestions;
  }

  propose(id: string, token = this.admin) {
    return this.api.post(`/api/v1/dispatch/suggestions/${id}/propose`, { date: DATE }, { token });
  }
}

const of = (suggestions: Suggestion[], kind: string, about: Partial<Suggestion>) =>
  suggestions.filter(
    (s) =>
      s.kind === kind &&
      Object.entries(about).every(([field, value]) => s[field as keyof Suggestion] === value),
  );

describe('dispatcher suggestions', () => {
  let server: TestServer;
  let api: Client;
  let day: Day;
  let idle: number;
  let spare: number;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    day = await new Day(server, api, 'sugg').build(true);
    // Beside the north street, a little off it: it fits the north route's slack.
    await day.order('FIT', { lat: DEPOT.lat + 0.035, lng: DEPOT.lng + 0.003 });
    // As near, but heavier than any van takes.
    await day.order(
      'HEAVY',
      { lat: DEPOT.lat + 0.025, lng: DEPOT.lng + 0.002 },
      {
        packages: [{ weight_grams: CAPACITY.weight_grams + 1 }],
      },
    );
    // Far away, and wanted within the first twenty minutes of the day: no route reaches it in time.
    await day.order(
      'NARROW',
      { lat: DEPOT.lat + 0.3, lng: DEPOT.lng },
      {
        time_window: { start: '08:00', end: '08:20' },
      },
    );
    // Held while its address was not on the map, then placed: the hold's reason is gone.
    const placed = await day.order('PLACED', {});
    const held = await day.order('HELD', { lat: DEPOT.lat + 0.02, lng: DEPOT.lng + 0.02 });
    for (const id of [placed, held]) {
      const hold = await api.post(`/api/v1/client/orders/${id}/hold`, {}, { token: day.admin });
      assert.equal(hold.status, 200, JSON.stringify(hold.body));
    }
    server.clock.advance(60_000);
    const located = await api.call('PUT', `/api/v1/client/orders/${placed}/location`, {
      token: day.admin,
      body: { lat: DEPOT.lat + 0.015, lng: DEPOT.lng + 0.001 },
    });
    assert.equal(located.status, 200, JSON.stringify(located.body));
    // A driver with a calendar shift that day and no route; another with no shift.
    const onShift = await day.driver('idle', 20);
    idle = onShift.id;
    spare = (await day.driver('spare', 20)).id;
    const fleet = await fleetOf(api, day.admin, 'Vans', { drivers: [onShift] });
    const shift = await api.post(
      `/api/v1/client/fleets/${fleet}/shifts`,
      { date: DATE, start: '09:00', end: '17:00', vehicle_kind: 'van', slots: 1 },
      { token: day.admin },
    );
    assert.equal(shift.status, 200, JSON.stringify(shift.body));
    const signed = await api.call(
      'PUT',
      `/api/v1/client/fleets/${fleet}/shifts/${shift.body.shift.id}/signups/${idle}`,
      { token: onShift.token },
    );
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
  });
  after(() => server?.close());

  it('proposes what the observed day allows, and nothing it does not', async () => {
    const suggestions = await day.suggestions();
    const id = (ref: string) => day.orders.get(ref)!;

    const [fit] = of(suggestions, 'insert_order', { order_id: id('FIT') });
    assert.ok(fit, JSON.stringify(suggestions));
    assert.equal(fit.route_id, day.north.id);
    assert.ok(fit.added_distance_m! > 0, JSON.stringify(fit));
    assert.ok(fit.added_distance_m! < 2_000, JSON.stringify(fit));
    assert.deepEqual(fit.write, {
      tool: 'assign_order_to_route',
      arguments: { route_id: day.north.id, order_id: id('FIT') },
    });
    assert.equal(fit.reason.code, 'fits_slack');
    assert.match(fit.reason.message, new RegExp(`${fit.added_distance_m} m`));
    for (const ref of ['HEAVY', 'NARROW', 'HELD']) {
      assert.deepEqual(of(suggestions, 'insert_order', { order_id: id(ref) }), [], ref);
    }

    const [release] = of(suggestions, 'release_hold', { order_id: id('PLACED') });
    assert.deepEqual(release?.write, {
      tool: 'release_order',
      arguments: { order_id: id('PLACED'), confirm: true },
    });
    assert.deepEqual(of(suggestions, 'release_hold', { order_id: id('HELD') }), []);

    const [shifted] = of(suggestions, 'idle_driver', { driver_id: idle });
    assert.deepEqual(shifted?.write, {
      tool: 'build_route',
      arguments: { date: DATE, driver_ids: [idle], confirm: true },
    });
    assert.match(shifted!.reason.message, /Driver idle-sugg/);
    assert.deepEqual(
      suggestions.filter((s) => s.kind === 'idle_driver').map((s) => s.driver_id),
      [idle],
      `not ${spare} (no shift), nor the drivers with routes`,
    );
    assert.deepEqual(
      suggestions.filter((s) => s.kind === 'route_over_capacity' || s.kind === 'route_late'),
      [],
    );

    // The same observed day, the same ids and order; the reasons in the reader's language.
    assert.deepEqual(
      (await day.suggestions()).map((s) => s.id),
      suggestions.map((s) => s.id),
    );
    const french = await day.suggestions(day.admin, 'fr');
    assert.deepEqual(
      french.map((s) => s.id),
      suggestions.map((s) => s.id),
    );
    assert.match(french.find((s) => s.id === fit.id)!.reason.message, /tient dans la tournée/);
  });

  it('turns a suggestion into a proposal in one call, which another staff member approves into the write', async () => {
    const [fit] = of(await day.suggestions(), 'insert_order', { order_id: day.orders.get('FIT') });
    const before = await day.route(day.north.id);
    const proposed = await day.propose(fit!.id);
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const proposal = proposed.body.proposal;
    assert.equal(proposal.status, 'pending');
    assert.equal(proposal.tool, 'assign_order_to_route');
    assert.deepEqual(proposal.arguments, fit!.write!.arguments);
    assert.ok(proposal.reason.includes(fit!.id), proposal.reason);
    assert.equal((await day.route(day.north.id)).stops.length, before.stops.length, 'nothing written yet');

    const approved = await api.post(
      `/api/v1/agent/approvals/${proposal.id}/approve`,
      {},
      { token: day.employee },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.proposal.succeeded, true, JSON.stringify(approved.body));
    const after = await day.route(day.north.id);
    assert.ok(after.stops.some((stop) => stop.order_id === day.orders.get('FIT')));
    assert.ok(
      Math.abs(after.distance_meters - before.distance_meters - fit!.added_distance_m!) <= 1,
      JSON.stringify({ before: before.distance_meters, after: after.distance_meters, fit }),
    );

    // The day changed: the suggestion is gone, and proposing it again is refused.
    const again = await day.propose(fit!.id);
    assert.equal(again.status, 404, JSON.stringify(again.body));
    assert.equal(again.body.error_code, 'SUGGESTION_NOT_FOUND');
    assert.ok(again.body.message.includes(fit!.id), again.body.message);
  });

  it('names a route over capacity, with the one move that relieves it, or none', async () => {
    const vehicleFor = async (count: number) => {
      const vehicle = await api.post(
        '/api/v1/client/vehicles',
        { name: `Small ${count}`, vehicle_type: 'van', capacity: { ...CAPACITY, count }, active: true },
        { token: day.admin },
      );
      assert.equal(vehicle.status, 200, JSON.stringify(vehicle.body));
      const given = await api.call('PUT', `/api/v1/client/routes/${day.east.id}/vehicle`, {
        token: day.admin,
        body: { vehicle_id: vehicle.body.vehicle.id, confirm_violations: true },
      });
      assert.equal(given.status, 200, JSON.stringify(given.body));
    };
    await vehicleFor(4);
    const suggestions = await day.suggestions();
    const [over] = of(suggestions, 'route_over_capacity', { route_id: day.east.id });
    assert.ok(over, JSON.stringify(suggestions));
    assert.deepEqual([over.dimension, over.over], ['count', 1]);
    assert.equal(over.reason.code, 'move_fixes_overload');
    assert.equal(over.to_route_id, day.north.id);
    assert.deepEqual(over.write, {
      tool: 'move_route_stop',
      arguments: { route_id: day.east.id, order_id: over.order_id, to_route_id: day.north.id },
    });
    assert.ok(day.east.stops.some((stop) => stop.order_id === over.order_id));
    assert.deepEqual(of(suggestions, 'route_over_capacity', { route_id: day.north.id }), []);
    assert.equal(suggestions[0]!.id, over.id, 'a route breaking a rule comes first');

    // Three parcels too many: no one order carries that much, so no single write fixes it.
    await vehicleFor(2);
    const [stuck] = of(await day.suggestions(), 'route_over_capacity', { route_id: day.east.id });
    assert.deepEqual(
      [stuck?.over, stuck?.write, stuck?.reason.code],
      [3, null, 'no_single_move_fixes_overload'],
    );
    const refused = await day.propose(stuck!.id);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'SUGGESTION_WITHOUT_WRITE');
  });

  it('names a route reaching a stop after its window, with the new order of its stops that keeps it', async () => {
    const late = await new Day(server, api, 'slow').build(true);
    const route = await late.route(late.north.id);
    const last = route.stops.at(-1)!;
    const first = route.stops[0]!;
    // The last stop wants to be served before the route now reaches it, yet after it could be first.
    const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
    const end = minutes(last.planned_arrival) - 5;
    assert.ok(end > minutes(first.planned_arrival) + 15, JSON.stringify(route.stops));
    const hhmm = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
    const ref = [...late.orders].find(([, id]) => id === last.order_id)![0];
    const windowed = await api.post(
      '/api/v1/client/orders/time-window',
      { order_refs: [ref], time_window: { start: '08:00', end: hhmm } },
      { token: late.admin },
    );
    assert.equal(windowed.status, 200, JSON.stringify(windowed.body));
    const suggestions = await late.suggestions();
    const [slow] = of(suggestions, 'route_late', { route_id: late.north.id });
    assert.ok(slow, JSON.stringify(suggestions));
    assert.equal(slow.late_stops, 1);
    // Planned times are whole minutes: five late by them, up to a minute more by the seconds driven.
    assert.ok(slow.late_minutes === 5 || slow.late_minutes === 6, JSON.stringify(slow));
    assert.deepEqual(slow.write, {
      tool: 'resequence_route',
      arguments: { route_id: late.north.id, optimize: true },
    });
    assert.deepEqual(of(suggestions, 'route_late', { route_id: late.east.id }), []);
  });

  it('answers 409 with feature_enabled false while the family is off', async () => {
    const off = await new Day(server, api, 'off').build(false);
    const read = await api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, { token: off.admin });
    assert.equal(read.status, 409, JSON.stringify(read.body));
    assert.deepEqual([read.body.error_code, read.body.feature_enabled], ['FEATURE_DISABLED', false]);
    const proposed = await off.propose('insert_order-0000000000000000');
    assert.equal(proposed.status, 409, JSON.stringify(proposed.body));
    assert.deepEqual([proposed.body.error_code, proposed.body.feature_enabled], ['FEATURE_DISABLED', false]);
  });

  it('refuses drivers and customers', async () => {
    const [any] = await day.suggestions();
    for (const kind of ['driver', 'customer'] as const) {
      const token = await login(api, day.tenant.emails[kind]);
      const read = await api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, { token });
      assert.equal(read.status, 403, JSON.stringify(read.body));
      const proposed = await day.propose(any!.id, token);
      assert.equal(proposed.status, 403, JSON.stringify(proposed.body));
    }
  });
});
