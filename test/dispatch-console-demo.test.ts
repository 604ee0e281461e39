import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { seedDemo } from '../src/demo/seed.ts';
import { launchBrowser, PHONE, screenshotWhenAsked, signedInPage } from './support/browser.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

const PASSWORD = 'demo-pass';
const WIDE = { viewport: { width: 1440, height: 900 } } satisfies BrowserContextOptions;

interface Board {
  routes: Array<{
    id: number;
    driver: { name: string };
    stops: Array<{ order_ref: string; lat: number | null }>;
  }>;
}

/**
 * The console on the demo's day, as `npm start` opens it: every route in its own colour, the same in
 * the list and on the map, a route opened with its stops and an order's panel. With SCREENSHOTS=1
 * it takes the pictures docs/dispatch-console.md shows.
 */
describe('the dispatch console on the demo day', () => {
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let board: Board;

  before(async () => {
    server = await startTestServer();
    assert.ok(await seedDemo(server.db, server.app.services, PASSWORD, server.clock));
    served = await startInstance(server);
    api = client(served.baseUrl);
    const admin = await login(api, 'admin@demo.test', PASSWORD);
    board = (await api.get('/api/v1/client/dispatch/board', { token: admin })).body as Board;
    assert.ok(board.routes.length >= 1, 'the demo day has routes');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  async function open(options: BrowserContextOptions): Promise<{ page: Page; errors: Error[] }> {
    const errors: Error[] = [];
    const page = await signedInPage(
      browser,
      served,
      { email: 'admin@demo.test', password: PASSWORD },
      options,
      (opened) => opened.on('pageerror', (error) => errors.push(error)),
    );
    await page.waitForSelector('body[data-drawn]');
    return { page, errors };
  }

  it('draws each route in its own colour, the same in the list and on the map', async () => {
    const { page, errors } = await open(WIDE);
    const drawn = JSON.parse((await page.locator('#map').getAttribute('data-colours')) ?? '{}') as Record<
      string,
      string
    >;
    assert.deepEqual(Object.keys(drawn).map(Number).sort(), board.routes.map((route) => route.id).sort());
    const listed: Record<string, string> = {};
    for (const route of board.routes) {
      listed[route.id] = await page
        .locator(`#routes > li[data-route="${route.id}"] .swatch`)
        .evaluate((swatch) => swatch.ownerDocument.defaultView!.getComputedStyle(swatch).backgroundColor);
    }
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;
    assert.deepEqual(
      Object.fromEntries(Object.entries(drawn).map(([id, colour]) => [id, rgb(colour)])),
      listed,
    );
    const colours = new Set(Object.values(drawn));
    assert.equal(colours.size, Math.min(board.routes.length, 12), 'routes apart while the palette lasts');

    // A route opened with its stops, and its first stop's order in the panel: the docs' picture.
    const route = board.routes.find((one) => one.stops.length > 0)!;
    await page.locator(`#routes > li[data-route="${route.id}"] .route-head button.link`).click();
    await page.waitForSelector(`#routes > li[data-route="${route.id}"] [data-stop]`);
    await screenshotWhenAsked(page, 'dispatch-console-desktop');
    await page.locator(`#routes > li[data-route="${route.id}"] [data-stop] button.link`).first().click();
    await page.waitForSelector('#order h3');
    assert.equal(await page.locator('#order h3').innerText(), route.stops[0]!.order_ref);
    assert.doesNotMatch(await page.locator('body').innerText(), /⟦/);
    await screenshotWhenAsked(page, 'dispatch-console-order');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('fits a phone: one column, the lists under the map', async () => {
    const { page, errors } = await open(PHONE);
    const map = await page.locator('#map').boundingBox();
    const routes = await page.locator('#routes').boundingBox();
    assert.ok(map && routes && routes.y > map.y + map.height, 'the routes come after the map');
    assert.ok(map.width <= 390, 'the map fits the screen');
    await screenshotWhenAsked(page, 'dispatch-console-phone');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
