import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriversAtDepot } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { eventually } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The test clock reads Monday 2 November 2026, 10:30 in the business's time zone (Europe/Paris).
const TODAY = '2026-11-02';
const TOMORROW = '2026-11-03';
const DEPOT = { lat: 48.85, lng: 2.35 };
const BOX = { length_mm: 600, width_mm: 400, height_mm: 400, weight_grams: 8000 };

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

describe("a route's load plan follows its route", () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let driver: { id: number; token: string };
  let routeId: number;
  let planId: number;
  let writes = 0;
  const orders: Record<string, number> = {};

  const order = async (ref: string, date: string, n: number, boxes = 2) => {
    const made = await api.post(
      '/api/v1/client/orderCreate',
      {
        order_ref: ref,
        scheduled_date: date,
        dropoff: { line1: `${ref} street`, lat: DEPOT.lat + 0.004 * (n + 1), lng: DEPOT.lng + 0.003 * n },
        packages: Array.from({ length: boxes }, () => BOX),
      },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    orders[ref] = made.body.order_id;
    return made.body.order_id as number;
  };
  const build = async (date: string) => {
    const built = await api.post(
      '/api/v3/client/build-route',
      { date, driver_ids: [driver.id], time_limit_ms: 200 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    return built.body.routes[0];
  };
  const plan = async (id = planId) => {
    const read = await api.get(`/api/v1/client/load-plans/${id}`, { token: admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    return read.body.plan;
  };
  const changesOf = (answer: Json) =>
    answer.changes.map((change: Json) => [change.kind, change.order_id, change.at]);
  const deliveries = async () => {
    const read = await api.get(`/api/v1/client/routes/${routeId}`, { token: admin });
    return read.body.route.stops.filter((stop: Json) => stop.leg === 'delivery');
  };
  /** How many boxes a plan loads. */
  const boxes = (answer: Json) => answer.placements.length;
  const drive = (path: string, body: object = {}) =>
    api.post(
      `/api/v1/driver/routes/${routeId}/${path}`,
      { client_id: `write-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
      { token: driver.token },
    );
  const now = () => server.clock.now().toISOString();

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'stale', { timeZone: 'Europe/Paris' });
    admin = await login(api, tenant.emails.client_admin);
    [driver] = (await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: DEPOT,
      names: ['loader'],
      shift: { start: '07:00', end: '19:00' },
    })) as [{ id: number; token: string }];
    for (let n = 0; n < 3; n++) await order(`D${n}`, TODAY, n);
    routeId = (await build(TODAY)).id;
    await order('LATE', TODAY, 3, 1);
    const made = await api.post(
      '/api/v1/client/load-plans',
      { space: 'van-3t5', route_id: routeId, time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    planId = made.body.plan.id;
  });
  after(() => server?.close());

  it('holds when planned, and says it is stale, since when and what changed, as stops are added and moved', async () => {
    const planned = await plan();
    assert.equal(planned.stale, false);
    assert.equal(planned.stale_since, null);
    assert.deepEqual(planned.changes, []);
    assert.equal(boxes(planned), 6);

    server.clock.advance(5 * 60_000);
    const addedAt = now();
    const added = await api.post(
      `/api/v1/client/routes/${routeId}/stops`,
      { order_id: orders.LATE, confirm_violations: true },
      { token: admin },
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const afterAdd = await plan();
    assert.equal(afterAdd.stale, true);
    assert.equal(afterAdd.stale_since, addedAt);
    assert.deepEqual(changesOf(afterAdd), [['stop_added', orders.LATE, addedAt]]);
    const late = (await deliveries()).findIndex((stop: Json) => stop.order_id === orders.LATE) + 1;
    assert.equal(afterAdd.changes[0].stop, late);
    assert.equal(afterAdd.changes[0].planned_stop, null);

    server.clock.advance(5 * 60_000);
    const movedAt = now();
    const [, , last] = (await deliveries()).filter((stop: Json) => stop.order_id !== orders.LATE);
    const moved = await api.post(
      `/api/v1/client/routes/${routeId}/stops/${last.order_id}/move`,
      { position: 1, confirm_violations: true },
      { token: admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const afterMove = await plan();
    assert.equal(afterMove.stale_since, addedAt, 'stale since the first change still listed');
    assert.deepEqual(changesOf(afterMove), [
      ['stop_added', orders.LATE, addedAt],
      ['stop_moved', last.order_id, movedAt],
    ]);
    assert.deepEqual(
      [afterMove.changes[1].planned_stop, afterMove.changes[1].stop],
      [3, 1],
      'the last delivery now comes first; the others only shifted',
    );
    const listed = await api.get(`/api/v1/client/load-plans?route_id=${routeId}`, { token: admin });
    assert.equal(listed.body.plans[0].stale, true, 'the list says it too');
  });

  it('is planned again on request from the route as it is now, and holds again', async () => {
    server.clock.advance(60_000);
    const replanned = await api.post(`/api/v1/client/load-plans/${planId}/replan`, {}, { token: admin });
    assert.equal(replanned.status, 200, JSON.stringify(replanned.body));
    const answer = replanned.body.plan;
    assert.equal(answer.id, planId);
    assert.equal(answer.stale, false);
    assert.equal(answer.stale_since, null);
    assert.deepEqual(answer.changes, []);
    assert.equal(answer.planned_at, now());
    assert.equal(boxes(answer), 7, "the late order's box is on board now");
    // The moved delivery is unloaded first now.
    const [firstNow] = await deliveries();
    const firstStopBoxes = answer.placements.filter((p: Json) => p.stop === 1).length;
    assert.equal(firstStopBoxes, firstNow.order_id === orders.LATE ? 1 : 2);
    assert.deepEqual(await plan(), answer);
  });

  it('goes stale when its driver completes a stop: that delivery has left the vehicle', async () => {
    const started = await drive('start');
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal((await plan()).stale, false, 'starting the route changes no delivery');
    server.clock.advance(10 * 60_000);
    const [first] = await deliveries();
    const doneAt = now();
    const delivered = await drive(`stops/${first.order_id}/complete`, { outcome: 'delivered' });
    assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
    const afterDone = await plan();
    assert.equal(afterDone.stale, true);
    assert.deepEqual(changesOf(afterDone), [['stop_completed', first.order_id, doneAt]]);
    assert.deepEqual([afterDone.changes[0].planned_stop, afterDone.changes[0].stop], [1, null]);

    // Planned again only when stale: once, then answered as it is.
    const replanned = await api.post(
      `/api/v1/client/load-plans/${planId}/replan`,
      { if_stale: true },
      { token: admin },
    );
    assert.equal(replanned.status, 200, JSON.stringify(replanned.body));
    assert.equal(replanned.body.plan.stale, false);
    const left = first.order_id === orders.LATE ? 1 : 2;
    assert.equal(boxes(replanned.body.plan), 7 - left, 'what was delivered is no longer loaded');
    server.clock.advance(60_000);
    const again = await api.post(
      `/api/v1/client/load-plans/${planId}/replan`,
      { if_stale: true },
      { token: admin },
    );
    assert.deepEqual(again.body.plan, replanned.body.plan, 'a plan that holds is answered as it is');
  });

  it('is planned again by a job where the business says so, as whoever planned it, once the change commits', async () => {
    const settings = await api.call('PUT', '/api/v1/client/loading-settings', {
      token: admin,
      body: { replan_automatically: true },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    assert.deepEqual(settings.body.settings, { replan_automatically: true });
    assert.deepEqual((await api.get('/api/v1/client/loading-settings', { token: admin })).body.settings, {
      replan_automatically: true,
    });
    const jobs = async () =>
      (await api.get('/api/v1/jobs?operation=replan_load_plan', { token: admin })).body.jobs as Json[];

    const pending = (await deliveries()).filter((stop: Json) => stop.status === 'pending');
    const [completed, second, third] = pending as [Json, Json, Json];
    /** Moves the third pending delivery before the second. */
    const moveThird = (headers: Record<string, string> = {}) =>
      api.post(
        `/api/v1/client/routes/${routeId}/stops/${third.order_id}/move`,
        { position: second.sequence, confirm_violations: true },
        { token: admin, headers },
      );
    // A dry run changes nothing: no staleness, no job.
    const dry = await moveThird({ 'x-dry-run': '1' });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal((await plan()).stale, false);
    assert.deepEqual(await jobs(), []);

    // The driver completes a delivery: the plan's planner, not the driver, plans it again.
    server.clock.advance(5 * 60_000);
    const doneAt = now();
    const delivered = await drive(`stops/${completed.order_id}/complete`, { outcome: 'delivered' });
    assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
    const stale = await plan();
    assert.equal(stale.stale, true);
    assert.deepEqual(changesOf(stale), [['stop_completed', completed.order_id, doneAt]]);
    assert.ok(stale.replan_job_id, 'a job is queued to plan it again');
    const [queued] = await jobs();
    assert.equal(queued.id, stale.replan_job_id);
    assert.equal(queued.status, 'queued');

    // A second change while the job waits queues no other: the job plans the route as it is then.
    server.clock.advance(60_000);
    const moved = await moveThird();
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const movedToo = await plan();
    assert.deepEqual(
      movedToo.changes.map((change: Json) => change.kind),
      ['stop_completed', 'stop_moved'],
    );
    assert.equal(movedToo.replan_job_id, stale.replan_job_id);
    assert.equal((await jobs()).length, 1);

    await server.app.jobs.start();
    const done = await eventually(async () => {
      const answer = await api.get(`/api/v1/jobs/${stale.replan_job_id}`, { token: admin });
      return ['succeeded', 'failed'].includes(answer.body.job.status) ? answer : undefined;
    }, 'the replanning job ends');
    assert.equal(done.body.job.status, 'succeeded', JSON.stringify(done.body.job.error));
    const replanned = await plan();
    assert.equal(replanned.stale, false);
    assert.deepEqual(replanned.changes, []);
    assert.equal(replanned.replan_job_id, null);
    assert.deepEqual(done.body.job.result.plan.id, planId);
    const onBoard = (await deliveries()).filter((stop: Json) => stop.status !== 'done');
    assert.equal(onBoard.length, 2);
    assert.equal(onBoard[0].order_id, third.order_id, 'unloaded first now');
    const boxesOnBoard = onBoard.reduce(
      (sum: number, stop: Json) => sum + (stop.order_id === orders.LATE ? 1 : 2),
      0,
    );
    assert.equal(boxes(replanned), boxesOnBoard, 'what is on board now, and nothing else');
  });

  it('says when a rebuild dissolved its route, and refuses to plan it again, in the caller’s language', async () => {
    for (let n = 0; n < 2; n++) await order(`T${n}`, TOMORROW, n);
    const tomorrow = await build(TOMORROW);
    const made = await api.post(
      '/api/v1/client/load-plans',
      { space: 'van-3t5', route_id: tomorrow.id, time_limit_ms: 200 },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    server.clock.advance(60_000);
    const dissolvedAt = now();
    const rebuilt = await build(TOMORROW);
    assert.notEqual(rebuilt.id, tomorrow.id);
    const gone = await plan(made.body.plan.id);
    assert.equal(gone.route_id, null);
    assert.equal(gone.stale, true);
    assert.deepEqual(changesOf(gone), [['route_dissolved', null, dissolvedAt]]);
    assert.equal(gone.replan_job_id, null, 'nothing to plan it from: no job');
    const refused = await api.post(
      `/api/v1/client/load-plans/${made.body.plan.id}/replan`,
      {},
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'LOAD_PLAN_ROUTE_GONE');
    assert.match(refused.body.message, /dissoute par une reconstruction/);
  });
});
