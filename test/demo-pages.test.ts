import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedDemo } from '../src/demo/seed.ts';
import { launchBrowser } from './support/browser.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

interface Board {
  routes: Array<{ stops: Array<{ lat: number | null }> }>;
}

/** What a newcomer opens after `npm start`: the demo's day in the dispatch console, and its published map. */
describe('the demo in the pages', () => {
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let admin: string;
  let publicMap: { link: string };
  let bookingPage: string;

  before(async () => {
    server = await startTestServer();
    const credentials = await seedDemo(server.db, server.app.services, 'demo-pass', server.clock);
    assert.ok(credentials);
    publicMap = credentials.publicMap;
    bookingPage = new URL(credentials.reservations.booking_page).pathname;
    served = await startInstance(server);
    api = client(served.baseUrl);
    admin = await login(api, 'admin@demo.test', 'demo-pass');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  it("draws the demo's routes of today in the dispatch console, as the board answers them", async () => {
    const board = (await api.get('/api/v1/client/dispatch/board', { token: admin })).body as Board;
    const located = board.routes.flatMap((route) => route.stops.filter((stop) => stop.lat !== null));
    assert.ok(board.routes.length > 0 && located.length > 0, 'the demo plans today');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${served.baseUrl}/dispatch`);
    await page.fill('#email', 'admin@demo.test');
    await page.fill('#password', 'demo-pass');
    await page.click('button[type=submit]');
    await page.waitForSelector('body[data-drawn]');
    const map = page.locator('#map');
    assert.equal(await map.getAttribute('data-stops'), String(located.length));
    const lines = board.routes.filter((route) => route.stops.filter((stop) => stop.lat !== null).length > 1);
    assert.equal(await map.getAttribute('data-lines'), String(lines.length));
    await page.context().close();
  });

  it("opens the demo's published map with none of its recipients' or drivers' names and phones", async () => {
    const orders = (await api.get('/api/v1/client/orders?per_page=200', { token: admin })).body
      .orders as Array<{
      dropoff: { name?: string; phone?: string; line1?: string } | null;
    }>;
    const people = orders
      .flatMap((order) => [order.dropoff?.name, order.dropoff?.phone, order.dropoff?.line1])
      .filter((words): words is string => typeof words === 'string' && words.length > 3);
    assert.ok(people.length > 10);
    const page = await (await browser.newContext()).newPage();
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (/html|json|javascript/.test(response.headers()['content-type'] ?? '')) {
        bodies.push(await response.text().catch(() => ''));
      }
    });
    const opened = await page.goto(`${served.baseUrl}/maps/${publicMap.link}`);
    assert.equal(opened?.status(), 200);
    await page.waitForSelector('body[data-map-drawn]');
    assert.ok((await page.locator('path.feature').count()) > 0);
    const everything = [...bodies, await page.content()].join('\n');
    assert.deepEqual(
      [...people, 'Dara Driver'].filter((words) => everything.includes(words)),
      [],
    );
    await page.context().close();
  });

  it("offers the demo's pickup counter on its public booking page", async () => {
    const page = await api.get(bookingPage);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes('Parcel pickup counter, Gare de Lyon'), 'the resource is named');
    assert.ok((page.body.match(/name="starts_at"/g) ?? []).length > 10, 'a week of slots to pick from');
  });
});
