import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { seedDemo } from '../src/demo/seed.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The pages a newcomer reads first say what the service does: every REST path they name is one the
 * OpenAPI document has (its server carries `/api`, so `/api/v1/x` in the pages is path `/v1/x`
 * there), each operation in their tables is at the path the table gives, and the complete
 * create-order example of docs/orders.md is taken as it is.
 */

const PAGES = ['README.md', 'docs/lockers.md', 'docs/orders.md', 'docs/demo.md', 'docs/third-party.md'];
const LOCKER_TAGS = [
  'Smart Locker',
  'Device Operations',
  'Device Orders',
  'Locker Resale',
  'Luggage Relay',
  'Locker Storage',
];

interface OpenApi {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
}

const text = (file: string) => readFile(new URL(`../${file}`, import.meta.url), 'utf8');
/** A path as a page writes it, without its query or an optional part (`/orders[/{id}]`). */
const bare = (path: string) => path.replace(/[?[].*$/, '');

/** Whether a page's path is the document's: a parameter there takes any segment (a value, a shell variable). */
function samePath(documented: string, written: string): boolean {
  const ours = documented.split('/');
  const theirs = bare(written).split('/');
  return (
    ours.length === theirs.length &&
    ours.every((segment, n) => segment === theirs[n] || (segment.startsWith('{') && theirs[n] !== ''))
  );
}

/** Every `METHOD /api/...` a page names in its prose and tables, and every curl call of its shell blocks. */
function routesNamed(page: string): Array<{ method: string; path: string; where: string }> {
  const found: Array<{ method: string; path: string; where: string }> = [];
  for (const match of page.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/v\d\/[^\s`'"?)\]]*)/g))
    found.push({ method: match[1]!, path: match[2]!, where: match[0] });
  for (const block of page.matchAll(/```sh\n([\s\S]*?)```/g)) {
    // One command per logical line: a backslash at the end goes on, and so does an open quote.
    const commands = block[1]!.replace(/\\\n/g, ' ').split('\n');
    for (const line of commands) {
      // A command substituted into the path is one segment, whatever it holds.
      const command = line.replace(/\$\([^()]*\)/g, 'X');
      for (const call of command.matchAll(/curl ([^|;]*)/g)) {
        const url = /http:\/\/127\.0\.0\.1:3000(\/api\/[^\s'"?]*)/.exec(call[1]!);
        if (!url) continue;
        const method = /-X (\w+)/.exec(call[1]!)?.[1] ?? 'GET';
        found.push({ method, path: url[1]!, where: line.trim() });
      }
    }
  }
  return found;
}

describe('the pages a newcomer reads first', () => {
  let openapi: OpenApi;
  /** The operation at a method and a path as a page writes it (under /api), if any. */
  let operationAt: (method: string, path: string) => string | undefined;
  before(async () => {
    openapi = JSON.parse(await text('openapi.json'));
    operationAt = (method, path) => {
      const under = path.replace(/^\/api/, '');
      // A literal path first: /orders/find is not /orders/{order_id}.
      const matches = Object.entries(openapi.paths)
        .filter(([documented, methods]) => methods[method.toLowerCase()] && samePath(documented, under))
        .sort(([a], [b]) => a.split('{').length - b.split('{').length);
      return matches[0]?.[1][method.toLowerCase()]?.operationId;
    };
  });

  it('read the OpenAPI paths under a server that carries /api, as the pages write them', () => {
    assert.match(openapi.servers[0]!.url, /\/api$/);
    assert.ok(Object.keys(openapi.paths).every((path) => path.startsWith('/v') || path === '/health'));
  });

  for (const file of PAGES) {
    it(`${file} names only REST paths the service has`, async () => {
      const named = routesNamed(await text(file));
      assert.ok(named.length > 0);
      const unknown = named.filter(({ method, path }) => !operationAt(method, path));
      assert.deepEqual(
        unknown.map(({ where }) => where),
        [],
      );
    });
  }

  for (const file of ['docs/lockers.md', 'docs/orders.md', 'docs/third-party.md']) {
    it(`${file} gives each operation of its tables the path the service has`, async () => {
      const wrong: string[] = [];
      let rows = 0;
      for (const row of (await text(file)).matchAll(
        /^\| `(\w+)`[^|]*\| `(GET|POST|PUT|PATCH|DELETE) \/api(\/[^\s`]*)/gm,
      )) {
        rows++;
        const at = operationAt(row[2]!, row[3]!);
        if (at !== row[1]) wrong.push(`${row[1]}: ${row[2]} /api${row[3]} is ${at ?? 'nothing'}`);
      }
      assert.ok(rows >= 5, `${rows} rows`);
      assert.deepEqual(wrong, []);
    });
  }

  it('docs/lockers.md gives the REST path of every locker operation', async () => {
    const page = await text('docs/lockers.md');
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(openapi.paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.tags.some((tag) => LOCKER_TAGS.includes(tag))) continue;
        const row = new RegExp(
          `^\\| \`${operation.operationId}\` \\| \`${method.toUpperCase()} /api(\\S+)\``,
          'm',
        );
        const documented = row.exec(page)?.[1];
        if (!documented || !samePath(path, documented)) missing.push(operation.operationId);
      }
    assert.deepEqual(missing, []);
  });

  describe('the create-order example of docs/orders.md', () => {
    let server: TestServer;
    let api: Client;
    before(async () => {
      server = await startTestServer();
      api = client(server.baseUrl);
      assert.ok(await seedDemo(server.db, server.app.services, 'demo-pass', server.clock));
    });
    after(() => server.close());

    it('creates the order it shows, every field as sent, against the demo', async () => {
      const page = await text('docs/orders.md');
      const section = page.slice(page.indexOf('## Creating an order'));
      const command = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
      assert.match(command, /curl -s -X POST http:\/\/127\.0\.0\.1:3000\/api\/v1\/client\/orderCreate /);
      const body = /-d '([\s\S]*)'\n$/.exec(command)![1]!;
      const sent = JSON.parse(body);
      const token = await login(api, 'admin@demo.test', 'demo-pass');
      const answer = await api.post('/api/v1/client/orderCreate', body, { token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.warnings, []);
      const [order] = answer.body.orders;
      assert.equal(answer.body.order_id, order.id);
      assert.equal(answer.body.tracking_number, order.packages[0].tracking_number);
      for (const field of ['order_ref', 'family', 'type', 'scheduled_date', 'time_window', 'note']) {
        assert.deepEqual(order[field], sent[field], field);
      }
      assert.deepEqual(order.pickup, sent.pickup);
      assert.deepEqual(order.dropoff, sent.dropoff);
      assert.deepEqual(order.required_skills, sent.required_skills);
      assert.equal(order.delivery_instruction, sent.delivery_instruction);
      assert.equal(order.status, 'NEW_ORDER');
      assert.equal(order.currency, 'EUR');
      assert.equal(order.shipping_price, 12.5);
      assert.equal(order.tax, 2.5);
      assert.deepEqual(order.surcharges, [{ code: 'fragile', amount: 1.5 }]);
      assert.equal(order.price_details.length, 2);
      assert.deepEqual(
        order.packages.map((one: { weight_grams: number; description: string }) => [
          one.weight_grams,
          one.description,
        ]),
        sent.packages.map((one: { weight_grams: number; description: string }) => [
          one.weight_grams,
          one.description,
        ]),
      );
      assert.equal(
        new Set(order.packages.map((one: { tracking_number: string }) => one.tracking_number)).size,
        2,
      );
      // Run again, it is refused as the page says.
      const again = await api.post('/api/v1/client/orderCreate', body, { token });
      assert.equal(again.status, 409);
      assert.equal(again.body.error_code, 'ORDER_REF_TAKEN');
    });

    it('takes the stand-in connection docs/third-party.md creates (where loopback is allowed)', async () => {
      const page = await text('docs/third-party.md');
      const body = /-d '(\{"name": "Stand-in over HTTP"[\s\S]*?\})'\n/.exec(page)![1]!;
      const operation = server.app.catalog.get('create_third_party_connection');
      const read = operation!.input.safeParse(JSON.parse(body));
      assert.ok(read.success, JSON.stringify(read.error?.issues));
    });
  });
});
