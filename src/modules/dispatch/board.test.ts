import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BoardAnswer, type BoardRoute, exceptionsOf, localInstant } from './board.ts';
import { deltasBetween } from './board-deltas.ts';

const QUERY = { businessId: 1, date: '2026-03-29', depotId: null, silentMinutes: 15 };

function route(id: number, changes: Partial<BoardRoute> = {}): BoardRoute {
  return {
    id,
    driver: { id: 10 + id, name: `Driver ${id}` },
    vehicle_type: 'van',
    vehicle_id: null,
    depot_id: 1,
    status: 'planned',
    locked: false,
    plan_version: 1,
    departure: '08:30',
    started_at: null,
    finished_at: null,
    stops_done: 0,
    stops_failed: 0,
    stops_remaining: 1,
    position: null,
    stops: [
      {
        order_id: 100 + id,
        order_ref: `R${id}`,
        sequence: 1,
        leg: 'delivery',
        state: 'pending',
        order_status: 'PLANNED',
        window: { start: '08:00', end: '09:00' },
        kind: 'door',
        lat: 48.8,
        lng: 2.3,
        arrived_at: null,
        completed_at: null,
      },
    ],
    ...changes,
  };
}

function answer(routes: BoardRoute[], version: number): BoardAnswer {
  return {
    date: QUERY.date,
    depot_id: null,
    version,
    observed_at: '',
    silent_after_minutes: 15,
    totals: {
      routes: routes.length,
      stops_done: 0,
      stops_failed: 0,
      stops_remaining: 1,
      unplanned: 0,
      held: 0,
      exceptions: 0,
    },
    routes,
    exceptions: exceptionsOf(routes, [], {
      query: QUERY,
      now: new Date('2026-03-29T07:30:00Z'),
      timeZone: 'Europe/Paris',
    }),
  };
}

describe('the dispatch board, judged', () => {
  it('places local times on either side of a daylight-saving change', () => {
    // Paris moves from UTC+1 to UTC+2 at 02:00 on 29 March 2026.
    assert.equal(
      localInstant('2026-03-29', '01:30', 'Europe/Paris').toISOString(),
      '2026-03-29T00:30:00.000Z',
    );
    assert.equal(
      localInstant('2026-03-29', '09:00', 'Europe/Paris').toISOString(),
      '2026-03-29T07:00:00.000Z',
    );
    assert.equal(
      localInstant('2026-11-02', '17:30:00', 'Asia/Shanghai').toISOString(),
      '2026-11-02T09:30:00.000Z',
    );
  });

  it('tells a silent driver once, however many routes they have started', () => {
    const started = { status: 'started' as const, started_at: '2026-03-29T06:00:00.000Z' };
    const routes = [route(1, started), route(2, { ...started, driver: { id: 11, name: 'Driver 1' } })];
    const found = exceptionsOf(routes, [], {
      query: QUERY,
      now: new Date('2026-03-29T06:20:00Z'),
      timeZone: 'Europe/Paris',
    });
    assert.deepEqual(
      found.filter((e) => e.kind === 'driver_silent').map((e) => [e.key, e.since]),
      [['driver_silent:11', '2026-03-29T06:00:00.000Z']],
    );
  });

  it('sends what changed, and only that', () => {
    const before = answer([route(1), route(2)], 5);
    // 09:30 in Paris: both windows ended, both routes late to leave.
    assert.deepEqual(
      before.exceptions.map((e) => e.key),
      ['stop_late:101:delivery', 'stop_late:102:delivery', 'route_not_started:1', 'route_not_started:2'],
    );
    const done = route(1, {
      status: 'started',
      started_at: '2026-03-29T07:25:00.000Z',
      stops_done: 1,
      stops_remaining: 0,
    });
    done.stops = [{ ...done.stops[0]!, state: 'done', completed_at: '2026-03-29T07:10:00.000Z' }];
    const after = answer([done, route(3)], 6);
    const events = deltasBetween(before, after).map((e) => [
      e.event,
      Object.keys(e.data as object)
        .sort()
        .join(),
    ]);
    assert.deepEqual(events, [
      ['route', 'route,version'],
      ['stop', 'route_id,stop,version'],
      ['route', 'route,version'],
      ['route_removed', 'route_id,version'],
      ['exception', 'exception,version'],
      ['exception', 'exception,version'],
      ['exception_cleared', 'key,kind,version'],
      ['exception_cleared', 'key,kind,version'],
      ['exception_cleared', 'key,kind,version'],
      ['exception_cleared', 'key,kind,version'],
    ]);
    const summary = deltasBetween(before, after)[0]!.data as { route: Partial<BoardRoute> };
    assert.equal(summary.route.stops, undefined, 'a route whose stops kept their places comes without them');
    assert.deepEqual(deltasBetween(after, after), []);
  });

  it("tells a route's new plan version, so that a live copy edits the plan it shows", () => {
    const before = answer([route(1)], 5);
    const after = answer([route(1, { locked: true, plan_version: 2 })], 6);
    const messages = deltasBetween(before, after);
    assert.deepEqual(
      messages.map((message) => [message.event, (message.data as { route: BoardRoute }).route.plan_version]),
      [['route', 2]],
    );
  });
});
