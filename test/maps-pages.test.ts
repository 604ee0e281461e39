import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP, graveViolations, launchBrowser, PHONE, screenshotWhenAsked } from './support/browser.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { everyLayer, type MapData, personalWords, seedMapData } from './support/maps.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** A site of its own origin (another loopback port) whose page frames `target`. */
async function framingSite(): Promise<{
  origin: string;
  frame(target: string): string;
  close(): Promise<void>;
}> {
  let target = '';
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Shop</title><iframe id="map" src="${target}" width="600" height="400"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    frame: (url) => {
      target = url;
      return `${origin}/`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The maps pages in a real (headless) browser: a published map for anyone, the list for staff. */
describe('maps pages /maps', () => {
  let server: TestServer;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;
  let data: MapData;
  let mapId: number;
  let link: { id: string; url: string };
  let allowed: Awaited<ReturnType<typeof framingSite>>;
  let outsider: Awaited<ReturnType<typeof framingSite>>;

  const newPage = async (options: BrowserContextOptions = DESKTOP): Promise<Page> =>
    (await browser.newContext(options)).newPage();
  const drawn = (page: Page) => page.waitForSelector('body[data-map-drawn]');

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'map-pages');
    admin = await login(api, tenant.emails.client_admin);
    data = await seedMapData(server, api, tenant, admin);
    const created = await api.post(
      '/api/v1/client/maps',
      { name: 'Where we work', layers: everyLayer(data) },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    mapId = created.body.map.id;
    allowed = await framingSite();
    outsider = await framingSite();
    const published = await api.post(
      `/api/v1/client/maps/${mapId}/publish`,
      { embed_origins: [allowed.origin] },
      { token: admin },
    );
    assert.equal(published.status, 200, JSON.stringify(published.body));
    // The link names PUBLIC_BASE_URL; the test server listens elsewhere.
    link = { ...published.body.link, url: `${server.baseUrl}/maps/${published.body.link.id}` };
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await allowed?.close();
    await outsider?.close();
    await server?.close();
  });

  it('opens a published map without a session, draws its layers, and sends no personal data', async () => {
    const page = await newPage();
    const bodies: string[] = [];
    page.on('response', async (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (/html|json|javascript/.test(type)) bodies.push(await response.text().catch(() => ''));
    });
    const opened = await page.goto(link.url);
    assert.equal(opened?.status(), 200);
    await drawn(page);
    assert.ok((await page.locator('path.feature').count()) > 0, 'the layers are drawn');
    assert.equal(await page.locator('#legend-heading + ul li').count(), everyLayer(data).length);
    const everything = [...bodies, await page.content()].join('\n');
    const personal = personalWords(data);
    assert.deepEqual(
      personal.filter((value) => everything.includes(value)),
      [],
      'nothing that names a person reaches the page or its requests',
    );
    await page.context().close();
  });

  it('may be framed by the sites its business named, and by no other', async () => {
    const page = await newPage();
    await page.goto(allowed.frame(link.url));
    const inside = page.frameLocator('#map');
    await inside.locator('body[data-map-drawn]').waitFor();
    await page.goto(outsider.frame(link.url));
    await page.waitForLoadState('load');
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    assert.ok(frame, 'the frame element is there');
    // A refused frame holds the browser's error page, never the map.
    assert.equal(await frame.locator('#map-data').count(), 0);
    const direct = await fetch(link.url);
    assert.match(
      direct.headers.get('content-security-policy') ?? '',
      new RegExp(`frame-ancestors ${allowed.origin}(;|$)`),
    );
    await page.context().close();
  });

  it('lists the business’s maps for its staff once signed in, and draws one in full', async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/maps`);
    await page.fill('#email', tenant.emails.client_admin);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.click('text=Where we work');
    await drawn(page);
    const staff = await api.get(`/api/v1/client/maps/${mapId}`, { token: admin });
    const features = staff.body.layers.reduce(
      (count: number, layer: { geojson: { features: unknown[] } }) => count + layer.geojson.features.length,
      0,
    );
    assert.ok(features > 0);
    assert.ok((await page.locator('path.feature').count()) > 0);
    await page.context().close();
  });

  for (const [name, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`has no serious or critical accessibility violation on a ${name}`, async () => {
      const page = await newPage(options);
      await page.goto(link.url);
      await drawn(page);
      assert.deepEqual(await graveViolations(page), []);
      await screenshotWhenAsked(page, `public-map-${name}`);
      await page.context().close();
    });
  }

  it('answers 404 for a revoked link, in words', async () => {
    const revoked = await api.post(`/api/v1/client/maps/${mapId}/revoke`, {}, { token: admin });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    const page = await newPage();
    const opened = await page.goto(link.url);
    assert.equal(opened?.status(), 404);
    assert.match(await page.locator('[role=alert]').innerText(), /\S/);
    assert.equal(await page.locator('#map-data').count(), 0);
    await page.context().close();
  });
});
