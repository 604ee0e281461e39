import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { asOrder, generateInstance } from '../src/modules/dispatch/solver/generate.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { JobQueue } from '../src/platform/jobs/queue.ts';
import { createTestDatabase } from './support/database.ts';
import { createTenant, login, type Tenant, vansOf } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startWorker as startWorkerProcess } from './support/process.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** Short enough that a job whose worker died is taken up again within seconds. */
const QUICK_JOBS = {
  run: false,
  concurrency: 1,
  pollingSeconds: 0.5,
  maintenanceSeconds: 1,
  expiryMarginSeconds: 1,
  retryLimit: 3,
};

/** Polls until `done` holds of what `read` answers, for at most 60 s (a loaded machine is slow). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('operation calls as jobs', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  let other: string;
  const instance = generateInstance({ stops: 20, vehicles: 2, seed: 11 });

  /** A day of the generated orders, waiting to be planned. */
  async function ordersOn(date: string): Promise<void> {
    const orders = instance.stops.map((stop) => ({
      ...asOrder(stop, date),
      order_ref: `${date}-${stop.id}`,
    }));
    const bulk = await api.post('/api/v1/client/orders/bulk', { orders }, { token: admin });
    assert.equal(bulk.body.failed, 0, JSON.stringify(bulk.body).slice(0, 500));
  }

  const jobAt = (location: string, token = admin) => api.get(location, { token });

  before(async () => {
    server = await startTestServer({ jobs: QUICK_JOBS });
    // The worker process reads the system clock: tokens and dates must hold for both.
    server.clock.set(new Date());
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'jobs');
    const otherTenant = await createTenant(server.db, server.app.services, 'jobs-other');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
    other = await login(api, otherTenant.emails.client_admin);
    await vansOf(api, admin, tenant, { db: server.db, services: server.app.services }, instance.vehicles);
  });
  after(() => server.close());

  it('a long build answers 202 with a Location; the job runs queued, running, succeeded with the synchronous answer', async () => {
    await ordersOn('2031-03-10');
    await ordersOn('2031-03-11');
    const accepted = await api.post(
      '/api/v3/client/build-route',
      { date: '2031-03-10', time_limit_ms: 5000 },
      { token: admin },
    );
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const location = accepted.headers.get('location')!;
    assert.match(location, /^\/api\/v1\/jobs\/[0-9a-f-]{36}$/);
    assert.equal(accepted.body.job.status, 'queued');
    assert.equal(accepted.body.job.operation, 'build_route');
    assert.equal((await jobAt(location)).body.job.status, 'queued', 'no instance runs jobs yet');

    // Who started the job hears how it stands on their own topic; no one else may listen there.
    await server.app.startBackground(server.pool);
    const broker = `mqtt://127.0.0.1:${(server.app.mqtt as unknown as { port: number }).port}`;
    const topic = `tms/users/${tenant.businessId}/${tenant.userIds.client_admin}`;
    const heard: Array<{ type: string; job: { id: string; status: string; progress: number } }> = [];
    const listener = await mqtt.connectAsync(broker, {
      username: 'tms',
      password: admin,
      reconnectPeriod: 0,
    });
    listener.on('message', (_topic, payload) => heard.push(JSON.parse(payload.toString())));
    const granted = await listener.subscribeAsync(topic, { qos: 1 });
    assert.notEqual(granted[0]!.qos, 128);
    const snooper = await mqtt.connectAsync(broker, {
      username: 'tms',
      password: employee,
      reconnectPeriod: 0,
    });
    await assert.rejects(snooper.subscribeAsync(topic, { qos: 1 }), 'a colleague may not listen on it');
    await snooper.endAsync(true);

    await server.app.jobs.start();
    const running = await until(
      () => jobAt(location),
      (answer) => answer.body.job.status !== 'queued',
      'the job starts',
    );
    assert.equal(running.body.job.status, 'running');
    assert.ok(running.body.job.started_at);
    const progressed = await until(
      () => jobAt(location),
      (answer) => answer.body.job.progress > 0,
      'the job reports progress',
    );
    const done = await until(
      () => jobAt(location),
      (answer) => answer.body.job.status === 'succeeded',
      'the job succeeds',
    );
    assert.ok(progressed.body.job.progress <= done.body.job.progress);
    const job = done.body.job;
    assert.equal(job.progress, 100);
    assert.equal(job.error, null);
    assert.ok(job.finished_at);
    assert.ok(job.result.routes.length > 0);

    const sync = await api.post(
      '/api/v3/client/build-route',
      { date: '2031-03-11', time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(sync.status, 200, JSON.stringify(sync.body).slice(0, 300));
    assert.deepEqual(Object.keys(job.result).sort(), Object.keys(sync.body).sort());
    server.app.catalog.get('build_route')!.output.parse(job.result);
    assert.equal(job.result.date, '2031-03-10');
    await until(
      async () => heard.filter((news) => news.job.id === job.id).map((news) => news.job.status),
      (statuses) => statuses.includes('succeeded'),
      'the pushes of the job',
    );
    const news = heard.filter((one) => one.job.id === job.id);
    assert.ok(news.every((one) => one.type === 'job' && ['running', 'succeeded'].includes(one.job.status)));
    assert.deepEqual(news.find((one) => one.job.status === 'succeeded')!.job, {
      id: job.id,
      operation: 'build_route',
      status: 'succeeded',
      progress: 100,
    });
    assert.ok(
      news.some((one) => one.job.status === 'running'),
      'the start was told',
    );
    await listener.endAsync(true);

    const listed = await api.get('/api/v1/jobs?status=succeeded', { token: admin });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.jobs.some((listedJob: { id: string }) => listedJob.id === job.id));
    assert.equal(listed.body.page, 1);
  });

  it('a refused job keeps the refusal as the synchronous call words it; Prefer: respond-async asks for a job', async () => {
    const accepted = await api.call('POST', '/api/v3/client/build-route', {
      token: admin,
      body: { date: '2020-01-01', time_limit_ms: 100 },
      headers: { prefer: 'respond-async; wait=0', 'accept-language': 'fr' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.equal(accepted.headers.get('preference-applied'), 'respond-async');
    const failed = await until(
      () => jobAt(accepted.headers.get('location')!),
      (answer) => answer.body.job.status === 'failed',
      'the job fails',
    );
    const sync = await api.call('POST', '/api/v3/client/build-route', {
      token: admin,
      body: { date: '2020-01-01', time_limit_ms: 100 },
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(sync.status, 422);
    assert.deepEqual(failed.body.job.error, { code: sync.body.error_code, message: sync.body.message });
    assert.equal(failed.body.job.result, null);
  });

  it("another business's job, and another person's, is unknown; the business's admin sees every job", async () => {
    const accepted = await api.call('POST', '/api/v3/client/build-route', {
      token: employee,
      body: { date: '2020-01-02' },
      headers: { prefer: 'respond-async' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const location = accepted.headers.get('location')!;
    const foreign = await jobAt(location, other);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error_code, 'JOB_NOT_FOUND');
    assert.equal((await api.get('/api/v1/jobs', { token: other })).body.total, 0);
    assert.equal((await jobAt(location, employee)).status, 200);
    assert.equal((await jobAt(location, admin)).status, 200);
    const mine = await api.get('/api/v1/jobs', { token: employee });
    assert.deepEqual(
      mine.body.jobs.map((job: { id: string }) => job.id),
      [accepted.body.job.id],
    );
    const made = await jobAt(`/api/v1/jobs/${crypto.randomUUID()}`);
    assert.equal(made.status, 404);
  });

  it('a large import answers 202; its job keeps the import report, its rows written with it', async () => {
    const csv = [
      'label,name,line1,postal_code,city,country,lat,lng',
      ...Array.from({ length: 1000 }, (_, i) => `Site ${i},,${i} Quai Perrache,69002,Lyon,FR,45.75,4.82`),
    ].join('\n');
    const accepted = await api.post('/api/v1/client/addresses/import', { csv }, { token: admin });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body).slice(0, 300));
    assert.equal(accepted.body.job.operation, 'import_saved_addresses');
    const done = await until(
      () => jobAt(accepted.headers.get('location')!),
      (answer) => answer.body.job.status === 'succeeded' || answer.body.job.status === 'failed',
      'the import runs',
    );
    assert.equal(done.body.job.status, 'succeeded', JSON.stringify(done.body.job.error));
    assert.equal(done.body.job.result.created, 1000, JSON.stringify(done.body.job.result.rows[0]));
    assert.equal(done.body.job.result.rows.length, 1000);
    const book = await api.get('/api/v1/client/addresses?per_page=1', { token: admin });
    assert.equal(book.body.total, 1000);
  });

  it("an analytics rebuild always runs as a job; its result counts the rollup's rows", async () => {
    const accepted = await api.post('/api/v1/analytics/rebuild', {}, { token: admin });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const done = await until(
      () => jobAt(accepted.headers.get('location')!),
      (answer) => answer.body.job.status === 'succeeded' || answer.body.job.status === 'failed',
      'the rebuild runs',
    );
    assert.equal(done.body.job.status, 'succeeded', JSON.stringify(done.body.job.error));
    assert.ok(done.body.job.result.written.daily > 0, JSON.stringify(done.body.job.result));
    const refused = await api.post('/api/v1/analytics/rebuild', {}, { token: employee });
    assert.equal(refused.status, 403);
  });

  it('`tms worker` runs jobs; a job whose worker dies is taken up by another and done once', async () => {
    await server.app.jobs.stop(1000);
    await ordersOn('2031-03-12');
    await ordersOn('2031-03-13');
    const worker = await startWorker(server.databaseUrl);
    try {
      const quick = await api.call('POST', '/api/v3/client/build-route', {
        token: admin,
        body: { date: '2031-03-12', time_limit_ms: 200 },
        headers: { prefer: 'respond-async' },
      });
      assert.equal(quick.status, 202);
      const quickDone = await until(
        () => jobAt(quick.headers.get('location')!),
        (answer) => answer.body.job.status !== 'queued' && answer.body.job.status !== 'running',
        'the worker runs the job',
      );
      assert.equal(quickDone.body.job.status, 'succeeded', worker.output());

      const long = await api.post(
        '/api/v3/client/build-route',
        { date: '2031-03-13', time_limit_ms: 8000 },
        { token: admin },
      );
      assert.equal(long.status, 202);
      const location = long.headers.get('location')!;
      await until(
        () => jobAt(location),
        (answer) => answer.body.job.progress > 10,
        'the worker searches',
      );
      // The worker dies in the middle of the search: its transaction goes with it.
      worker.child.kill('SIGKILL');
      await new Promise((resolve) => worker.child.once('exit', resolve));
      assert.equal((await jobAt(location)).body.job.status, 'running');

      await server.app.jobs.start();
      const done = await until(
        () => jobAt(location),
        (answer) => answer.body.job.status === 'succeeded',
        'another worker takes the job up',
      );
      const rows = await sql<{ attempts: number; routes: number }>`
        SELECT j.attempts,
               (SELECT count(*)::int FROM routes r
                 WHERE r.business_id = j.business_id AND r.route_date = '2031-03-13') AS routes
          FROM jobs j WHERE j.id = ${done.body.job.id}`.execute(server.db);
      assert.equal(rows.rows[0]!.attempts, 2);
      assert.equal(rows.rows[0]!.routes, done.body.job.result.routes.length);
      const audited = await sql<{ runs: number }>`
        SELECT count(*)::int AS runs FROM operation_audit
         WHERE request_id = ${`job-${done.body.job.id}`}`.execute(server.db);
      assert.equal(audited.rows[0]!.runs, 1);
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    }
  });

  it('a job taken up again after its worker died never shows less progress than it had reached', async () => {
    await server.app.jobs.stop(1000);
    await ordersOn('2031-03-15');
    const accepted = await api.call('POST', '/api/v3/client/build-route', {
      token: admin,
      body: { date: '2031-03-15', time_limit_ms: 1500 },
      headers: { prefer: 'respond-async' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const id: string = accepted.body.job.id;
    // A first run that got to 60 % and died: its row says so, and its message waits to be run again.
    await sql`UPDATE jobs SET status = 'running', progress = 60, attempts = 1, started_at = now()
               WHERE id = ${id}`.execute(server.db);
    await server.app.jobs.start();
    const done = await until(
      () => jobAt(accepted.headers.get('location')!),
      (answer) => answer.body.job.status === 'succeeded' || answer.body.job.status === 'failed',
      'the job taken up again',
    );
    assert.equal(done.body.job.status, 'succeeded', JSON.stringify(done.body.job.error));
    // Every push to its starter, in the order written: from 60 up, never down.
    const pushed = await sql<{ progress: number; status: string }>`
      SELECT (payload -> 'body' -> 'job' ->> 'progress')::int AS progress, payload -> 'body' -> 'job' ->> 'status' AS status
        FROM outbox WHERE topic = 'user.push' AND payload -> 'body' -> 'job' ->> 'id' = ${id} ORDER BY id`.execute(
      server.db,
    );
    const progress = pushed.rows.map((row) => row.progress);
    assert.ok(
      pushed.rows.some((row) => row.status === 'running'),
      JSON.stringify(pushed.rows),
    );
    assert.ok(
      progress.every((value, i) => value >= 60 && (i === 0 || value >= progress[i - 1]!)),
      JSON.stringify(progress),
    );
    assert.equal(progress.at(-1), 100);
  });

  it('`tms worker` stopped with SIGTERM finishes the job in hand, then exits with 0', async () => {
    await server.app.jobs.stop(1000);
    await ordersOn('2031-03-14');
    const worker = await startWorker(server.databaseUrl);
    const exited = new Promise<number | null>((resolve) => worker.child.once('exit', resolve));
    try {
      const accepted = await api.call('POST', '/api/v3/client/build-route', {
        token: admin,
        body: { date: '2031-03-14', time_limit_ms: 3000 },
        headers: { prefer: 'respond-async' },
      });
      const location = accepted.headers.get('location')!;
      await until(
        () => jobAt(location),
        (answer) => answer.body.job.progress > 10,
        'the worker searches',
      );
      worker.child.kill('SIGTERM');
      assert.equal(await exited, 0, worker.output());
      const job = (await jobAt(location)).body.job;
      assert.equal(job.status, 'succeeded');
      assert.equal(job.result.date, '2031-03-14');
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    }
  });
});

describe('the job queue', () => {
  it('starts on a new database from several instances at once, and each can send', async () => {
    const database = await createTestDatabase();
    const handles = [openDatabase(database.url), openDatabase(database.url), openDatabase(database.url)];
    const faults: Error[] = [];
    const queues = handles.map(
      (handle) => new JobQueue(handle.db, QUICK_JOBS, (error) => faults.push(error)),
    );
    try {
      await Promise.all(queues.map((queue) => queue.ready()));
      for (const [at, queue] of queues.entries()) {
        await handles[at]!.db.transaction().execute((trx) =>
          queue.send(trx, { business_id: 1, id: crypto.randomUUID() }, 60),
        );
      }
      const sent = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job`.execute(
        handles[0]!.db,
      );
      assert.equal(sent.rows[0]!.n, 3);
      // Every connection of the pools is usable: none was left in a failed transaction.
      for (const handle of handles) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db)),
        );
        assert.ok(answers.every((answer) => answer.rows[0]!.one === 1));
      }
      assert.deepEqual(faults, []);
    } finally {
      for (const queue of queues) await queue.stop(1000);
      for (const handle of handles) await handle.close();
      await database.drop();
    }
  });
});

/** `tms worker` on the test's database, with the test's short expiry. */
function startWorker(databaseUrl: string) {
  return startWorkerProcess({
    DATABASE_URL: databaseUrl,
    JOBS_CONCURRENCY: '1',
    JOBS_POLL_MS: '500',
    JOBS_MAINTENANCE_SECONDS: '1',
    JOBS_EXPIRY_MARGIN_SECONDS: '1',
  });
}
