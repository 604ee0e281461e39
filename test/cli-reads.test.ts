import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { CommandReads } from '../src/cli-reads.ts';
import { loadConfig } from '../src/config.ts';
import { formatLocalDateTime, systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { createServices } from '../src/services.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { runInProcess } from './support/process.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are asserted field by field
type Json = any;

/** The operator's read commands on the demo business, checked against its rows in the database. */
describe('tms orders list, tms routes list and tms today', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let sql: pg.Client;
  let today: string;

  const count = async (text: string, values: unknown[] = []) =>
    Number((await sql.query(text, values)).rows[0].count);

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, TMS_DEMO_PASSWORD: 'demo-password-1' };
    const seeded = await runInProcess(['seed', '--demo'], env);
    assert.equal(seeded.code, 0, seeded.stderr);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    today = formatLocalDateTime(new Date(), 'Europe/Paris').slice(0, 10);
  });
  after(async () => {
    await sql?.end();
    await database.drop();
  });

  const demoOrders = (where = 'true', values: unknown[] = []) =>
    count(
      `SELECT count(*) FROM orders o JOIN businesses b ON b.id = o.business_id WHERE b.code = 'demo' AND ${where}`,
      values,
    );

  it('lists the orders a page at a time, as a table and as get_orders answers', async () => {
    const total = await demoOrders();
    assert.ok(total > 10, `${total} demo orders`);
    const listed = await runInProcess(['orders', 'list', '--business', 'demo', '--per-page', '5'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+REF\s+STATUS\s+DATE\s+WINDOW\s+WHERE\s+ROUTE\s+DRIVER$/);
    assert.equal(lines.filter((line) => /^\d+\s/.test(line)).length, 5);
    const pages = Math.ceil(total / 5);
    assert.equal(lines.at(-1), `Orders 1-5 of ${total}, page 1 of ${pages}; --page 2 for the next.`);

    const first = await runInProcess(
      ['orders', 'list', '--business', 'demo', '--per-page', '5', '--json'],
      env,
    );
    const second = await runInProcess(
      ['orders', 'list', '--business', 'demo', '--per-page', '5', '--page', '2', '--json'],
      env,
    );
    const [one, two]: Json[] = [JSON.parse(first.stdout), JSON.parse(second.stdout)];
    assert.deepEqual([one.total, one.page, one.per_page, two.page], [total, 1, 5, 2]);
    const ids = [...one.orders, ...two.orders].map((order: Json) => order.id);
    assert.equal(new Set(ids).size, 10, 'two pages, ten orders');
    // The table shows the same orders, in the same order.
    assert.deepEqual(
      lines.filter((line) => /^\d+\s/.test(line)).map((line) => Number(line.split(/\s+/)[0])),
      one.orders.map((order: Json) => order.id),
    );

    const delivered = await runInProcess(
      ['orders', 'list', '--business', 'demo', '--status', 'DELIVERED', 'FAILED_ATTEMPT', '--json'],
      env,
    );
    const answer = JSON.parse(delivered.stdout);
    assert.equal(answer.total, await demoOrders(`o.status IN ('DELIVERED', 'FAILED_ATTEMPT')`));
    assert.ok(answer.orders.every((order: Json) => ['DELIVERED', 'FAILED_ATTEMPT'].includes(order.status)));
    const ofToday = JSON.parse(
      (await runInProcess(['orders', 'list', '--business', 'demo', '--date', today, '--json'], env)).stdout,
    );
    assert.equal(ofToday.total, await demoOrders('o.scheduled_date = $1', [today]));
  });

  it("lists a day's routes, today's by default on the business's clock", async () => {
    const routesOn = (date: string) =>
      count(
        `SELECT count(*) FROM routes r JOIN businesses b ON b.id = r.business_id
         WHERE b.code = 'demo' AND r.route_date = $1`,
        [date],
      );
    const expected = await routesOn(today);
    assert.ok(expected > 0, 'the demo plans routes for today');
    const listed = await runInProcess(['routes', 'list', '--business', 'demo'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+DATE\s+DRIVER\s+STATUS\s+TIMES\s+KM\s+STOPS\s+DONE\s+FAILED$/);
    assert.equal(lines.filter((line) => line.includes(` ${today} `)).length, expected);
    const json = JSON.parse(
      (await runInProcess(['routes', 'list', '--business', 'demo', '--date', today, '--json'], env)).stdout,
    );
    assert.equal(json.routes.length, expected);
    const stops = json.routes.reduce((sum: number, route: Json) => sum + route.stops.length, 0);
    assert.equal(lines.at(-1), `${expected} routes on ${today}, ${stops} stops.`);
    const empty = await runInProcess(['routes', 'list', '--business', 'demo', '--date', '2001-01-01'], env);
    assert.equal(empty.stdout, 'No routes on 2001-01-01.\n');
  });

  it("tells the day: today's orders by status, its routes, and what needs attention", async () => {
    const answer = JSON.parse((await runInProcess(['today', '--business', 'demo', '--json'], env)).stdout);
    assert.deepEqual([answer.business, answer.date, answer.time_zone], ['demo', today, 'Europe/Paris']);
    assert.equal(answer.orders.total, await demoOrders('o.scheduled_date = $1', [today]));
    assert.equal(
      answer.orders.by_status.PLANNED,
      await demoOrders(`o.scheduled_date = $1 AND o.status = 'PLANNED'`, [today]),
    );
    assert.ok(answer.routes.every((route: Json) => route.date === today));
    assert.ok(answer.exceptions.length > 0, 'the demo has orders needing attention');
    assert.ok(answer.exceptions.every((row: Json) => ['failed', 'held', 'late'].includes(row.reason)));

    const told = await runInProcess(['today', '--business', 'demo'], env);
    assert.equal(told.code, 0, told.stderr);
    assert.match(told.stdout, new RegExp(`^demo, ${today} \\(Europe/Paris\\)\\n`));
    assert.match(told.stdout, new RegExp(`\\n${answer.orders.total} orders today\\nSTATUS\\s+ORDERS\\n`));
    assert.match(told.stdout, new RegExp(`\\n${answer.routes.length} routes, \\d+ stops\\nID\\s+DATE`));
    assert.match(told.stdout, new RegExp(`\\n${answer.exceptions.length} orders need attention`));
    const one = await runInProcess(['today', '--business', 'demo', '--limit', '1'], env);
    assert.match(
      one.stdout,
      /\n1 orders need attention \(the first 1; --limit for more\)\nREASON\s+ID\s+REF/,
    );
  });

  it('explains each read command without reaching any database', async () => {
    const nowhere = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    for (const command of [['orders', 'list'], ['routes', 'list'], ['today']]) {
      const help = await runInProcess([...command, '--help'], nowhere);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /--business <code>/);
      assert.match(help.stdout, /--json/);
    }
  });

  it('refuses an unknown business, a bad day and a missing business, before reading anything', async () => {
    const unknown = await runInProcess(['orders', 'list', '--business', 'nowhere'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /business/i);
    const badDay = await runInProcess(['routes', 'list', '--business', 'demo', '--date', '2026-02-30'], env);
    assert.equal(badDay.code, 1);
    assert.match(badDay.stderr, /must be a day as YYYY-MM-DD/);
    const noBusiness = await runInProcess(['today'], env);
    assert.equal(noBusiness.code, 1);
    assert.match(noBusiness.stderr, /--business <code>/);
    const tooMany = await runInProcess(['orders', 'list', '--business', 'demo', '--per-page', '500'], env);
    assert.equal(tooMany.code, 1);
    assert.match(tooMany.stderr, /per_page/);
  });

  it('reads under the read-only profile: the same caller may not write', async () => {
    const handle = openDatabase(database.url, { maxConnections: 2, timeouts: 'none' });
    try {
      const services = createServices(loadConfig(env), systemClock);
      const before = await demoOrders();
      const reads = await CommandReads.of({ db: handle.db } as never, services, systemClock, 'demo');
      const refused = await reads
        .call('create_order', { dropoff: { line1: '1 Rue de Rivoli', postal_code: '75001' } })
        .then(
          () => assert.fail('a read command wrote'),
          (error: { code?: string }) => error,
        );
      assert.equal(refused.code, 'INSUFFICIENT_SCOPE');
      assert.equal(await demoOrders(), before);
      await services.labelReader.close();
    } finally {
      await handle.close();
    }
  });
});
