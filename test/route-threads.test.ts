import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asOrder, generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { createTenant, login, type Tenant, vansOf } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('route building on several solver threads (SOLVER_THREADS=2)', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  const instance = generateInstance({ stops: 120, vehicles: 6, seed: 21 });
  const searches: string[] = [];

  before(async () => {
    server = await startTestServer({ solverThreads: 2 });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'threads');
    admin = await login(api, tenant.emails.client_admin);
    await vansOf(api, admin, tenant, { db: server.db, services: server.app.services }, instance.vehicles);
    const orders = instance.stops.map((stop) => asOrder(stop, '2026-11-12'));
    for (let i = 0; i < orders.length; i += 100) {
      const bulk = await api.post(
        '/api/v1/client/orders/bulk',
        { orders: orders.slice(i, i + 100) },
        { token: admin },
      );
      assert.equal(bulk.body.failed, 0, JSON.stringify(bulk.body).slice(0, 300));
    }
    // The service's own solver pool, watched: which searches reach its threads.
    const pool = server.app.services.solvers;
    const run = pool.run.bind(pool);
    pool.run = ((kind: string, input: unknown, budgetMs: number) => {
      searches.push(kind);
      return run(kind, input, budgetMs);
    }) as typeof pool.run;
  });
  after(() => server.close());

  it('searches on both threads, answers health checks meanwhile, and plans every feasible order', async () => {
    const building = api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-12', time_limit_ms: 1500 },
      { token: admin },
    );
    let answered = 0;
    let built: Awaited<typeof building> | undefined;
    void building.then((answer) => {
      built = answer;
    });
    while (built === undefined) {
      assert.equal((await api.get('/api/health')).status, 200);
      if (built === undefined) answered++;
    }
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 300));
    assert.deepEqual(searches, ['routes', 'routes'], 'one search per thread');
    assert.ok(answered > 0, 'the service answered while the searches ran');
    assert.equal(built.body.totals.assigned, instance.stops.length - instance.infeasible.length);
    const reasons = new Map(
      built.body.unassigned.map((u: { order_ref: string; reason: string }) => [u.order_ref, u.reason]),
    );
    for (const { stopId, reason } of instance.infeasible) assert.equal(reasons.get(`GEN-${stopId}`), reason);
    const planned = built.body.routes.flatMap((route: { stops: Array<{ order_id: number }> }) =>
      route.stops.map((stop) => stop.order_id),
    );
    assert.equal(new Set(planned).size, built.body.totals.assigned, 'each order on one route, once');
  });
});
