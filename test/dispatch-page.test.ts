import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP, graveViolations, launchBrowser, PHONE, signedInPage } from './support/browser.ts';
import { createTenant, login, PASSWORD, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/** The console's desktop: the width dispatchers' screens have. */
const WIDE = { viewport: { width: 1440, height: 900 } };
/** A tablet held upright, touch first. */
const TABLET = { viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true };
/** 07:00 on 3 November 2026 in Shanghai, the tenant's time zone: the console opens on that day. */
const SEVEN_AM = new Date('2026-11-02T23:00:00Z');
const DAY = '2026-11-03';
/** 18:00 there: every window of the day ended at 17:00. */
const SIX_PM = new Date('2026-11-03T10:00:00Z');
const DEPOT = { lat: 31.2304, lng: 121.4737 };

interface Board {
  version: number;
  routes: Array<{
    id: number;
    driver: { id: number; name: string };
    stops: Array<{ order_id: number; order_ref: string; state: string; lat: number | null }>;
  }>;
  exceptions: Array<{ kind: string; order_id: number | null }>;
}

/** The dispatcher's console in a real (headless) browser: the board on a map, kept live. */
describe('dispatch console /dispatch', () => {
  let server: TestServer;
  /** The instance the browser opens: it listens for what every instance commits, as a served one does. */
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;
  let drivers: Array<{ id: number; token: string }>;
  let unplannedRef: string;
  let writes = 0;

  const board = async (): Promise<Board> => {
    const answer = await api.get(`/api/v1/client/dispatch/board?date=${DAY}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const drive = (token: string, route: number, step: string, body: Record<string, unknown> = {}) =>
    api.post(
      `/api/v1/driver/routes/${route}/${step}`,
      { client_id: `console-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
      { token },
    );
  /** A page signed in through the console's own form. */
  const signedIn = async (
    options: BrowserContextOptions,
    email = tenant.emails.client_admin,
  ): Promise<Page> => {
    return signedInPage(browser, served, { email, password: PASSWORD }, options);
  };
  /** Waits for the board's snapshot to be drawn. */
  const drawn = (page: Page) => page.waitForSelector('body[data-drawn]');

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'console');
    admin = await login(api, tenant.emails.client_admin);
    server.clock.set(SEVEN_AM);
    drivers = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: DEPOT,
      names: ['east', 'west'],
      shift: { start: '08:00', end: '18:00' },
    });
    const place = (n: number) => ({
      name: `Recipient ${n}`,
      phone: `+86 21 5555 ${1000 + n}`,
      line1: `${n} Huaihai Road`,
      city: 'Shanghai',
      country: 'CN',
      lat: DEPOT.lat + 0.01 * Math.cos(n),
      lng: DEPOT.lng + 0.01 * Math.sin(n),
    });
    for (let n = 1; n <= 8; n++) {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: place(n), scheduled_date: DAY, time_window: { start: '09:00', end: '17:00' } },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DAY, time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 400));
    const late = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: place(9), scheduled_date: DAY, time_window: { start: '09:00', end: '17:00' } },
      { token: admin },
    );
    unplannedRef = late.body.orders?.[0]?.order_ref ?? late.body.order_ref;
    served = await startInstance(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  it('asks a person to sign in, and draws every stop and route of the day the board answers', async () => {
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const expected = await board();
    const located = expected.routes.flatMap((route) => route.stops.filter((stop) => stop.lat !== null));
    assert.ok(located.length >= 8, 'the built routes hold the orders');
    const map = page.locator('#map');
    assert.equal(await map.getAttribute('data-stops'), String(located.length), 'a marker per located stop');
    const lines = expected.routes.filter(
      (route) => route.stops.filter((stop) => stop.lat !== null).length > 1,
    ).length;
    assert.equal(await map.getAttribute('data-lines'), String(lines), 'a line per route');
    assert.equal(await page.locator('#routes > li').count(), expected.routes.length);
    assert.match(await page.locator('#unplanned').innerText(), new RegExp(unplannedRef));
    await page.context().close();
  });

  it('turns a delivered stop green on the open page, without a reload, in one draw for its messages', async () => {
    const page = await signedIn(DESKTOP);
    await drawn(page);
    assert.equal(await page.locator('#map').getAttribute('data-stops-done'), '0');
    // The board's messages and the console's draws, counted from here (the User Timing marks the
    // console sets: bench/dispatch-console.ts reads the same).
    await page.evaluate(() => {
      const counts = { messages: 0, draws: 0 };
      (globalThis as unknown as { __counts: typeof counts }).__counts = counts;
      const mark = performance.mark.bind(performance);
      performance.mark = (name: string, options?: { detail?: unknown }) => {
        if (name === 'board-message') counts.messages++;
        if (name === 'board-drawn') counts.draws++;
        return mark(name, options);
      };
    });
    const route = (await board()).routes[0]!;
    const driver = drivers.find((candidate) => candidate.id === route.driver.id)!;
    const stop = route.stops[0]!;
    assert.equal((await drive(driver.token, route.id, 'start')).status, 200);
    assert.equal((await drive(driver.token, route.id, `stops/${stop.order_id}/arrive`)).status, 200);
    const done = await drive(driver.token, route.id, `stops/${stop.order_id}/complete`, {
      outcome: 'delivered',
      recipient: 'Li Wei',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    await page.waitForSelector('#map[data-stops-done="1"]', { state: 'attached' });
    // A stop completed sends several messages (the stop, its route, the day's totals) that arrive
    // together: the console draws once for them, not once each.
    const counts = () =>
      page.evaluate(
        () => (globalThis as unknown as { __counts: { messages: number; draws: number } }).__counts,
      );
    await page.waitForFunction(
      () => (globalThis as unknown as { __counts: { messages: number } }).__counts.messages >= 3,
    );
    await page.waitForTimeout(500);
    const { messages, draws } = await counts();
    assert.ok(draws >= 1 && draws < messages, `${draws} draws for ${messages} messages`);
    await page.context().close();
  });

  it("moves a driver's marker where the driver reports, without a reload", async () => {
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const route = (await board()).routes[0]!;
    const driver = drivers.find((candidate) => candidate.id === route.driver.id)!;
    const report = (lat: number, lng: number) =>
      api.post(
        `/api/v1/driver/routes/${route.id}/positions`,
        {
          client_id: `console-${++writes}`,
          positions: [{ lat, lng, accuracy_meters: 5, device_time: server.clock.now().toISOString() }],
        },
        { token: driver.token },
      );
    assert.equal((await report(DEPOT.lat, DEPOT.lng)).status, 200);
    const marker = page.locator('#map .driver-marker');
    await marker.waitFor();
    const placed = await marker.boundingBox();
    assert.equal((await report(DEPOT.lat + 0.01, DEPOT.lng + 0.01)).status, 200);
    // North-east: up and to the right on the map.
    type Boxed = { querySelector(selector: string): { getBoundingClientRect(): { x: number; y: number } } };
    await page.waitForFunction((was) => {
      const page = (globalThis as unknown as { document: Boxed }).document;
      const box = page.querySelector('#map .driver-marker').getBoundingClientRect();
      return box.x > was.x && box.y < was.y;
    }, placed!);
    assert.equal(await marker.count(), 1, 'one marker a driver, moved, not drawn again beside the first');
    await page.context().close();
  });

  it('shows an order when its stop is chosen from a list, by keyboard', async () => {
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const button = page.locator('#unplanned button.link').first();
    await button.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#order h3');
    assert.equal(await page.locator('#order h3').innerText(), unplannedRef);
    await page.context().close();
  });

  for (const [name, options] of [
    ['phone', PHONE],
    ['tablet', TABLET],
    ['desktop', WIDE],
  ] as const) {
    it(`has no serious or critical accessibility violation on a ${name}, its dialogs included`, async () => {
      const page = await signedIn(options);
      await drawn(page);
      assert.deepEqual(await graveViolations(page), []);
      // A route's actions, opened from the keyboard: the dialog holds the focus and passes too.
      await page.locator('#routes > li button[data-actions]').first().focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog[open]');
      assert.ok(
        await page
          .locator('dialog[open]')
          .evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement)),
      );
      assert.deepEqual(await graveViolations(page), []);
      await page.keyboard.press('Escape');
      await page.waitForSelector('dialog[open]', { state: 'detached' });
      await page.context().close();
    });
  }

  it('draws over the configured tiles, and says why the streets are missing when they cannot load', async () => {
    // A tile server nobody answers at: the browser's tile requests fail at once.
    const unreachable = await startInstance(
      server,
      {},
      {
        mapTiles: { url: 'http://127.0.0.1:9/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' },
      },
    );
    try {
      const page = await (await browser.newContext(DESKTOP)).newPage();
      await page.goto(`${unreachable.baseUrl}/dispatch`);
      await page.fill('#email', tenant.emails.client_admin);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await drawn(page);
      await page.waitForSelector('[role=note]');
      assert.match(await page.locator('[role=note]').innerText(), /Street map unavailable/);
      assert.match(
        await page.locator('.leaflet-control-attribution').innerText(),
        /OpenStreetMap contributors/,
      );
      await page.context().close();
    } finally {
      await unreachable.close();
    }
  });

  it("serves the console's files from any instance, by names that say their content", async () => {
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const script = await page.locator('script[src^="/assets/web/"]').getAttribute('src');
    assert.match(script ?? '', /^\/assets\/web\/dispatch-[A-Z0-9]+\.js$/);
    // The other instance never served the console: it builds the same file when asked for it.
    const [here, there] = await Promise.all(
      [served.baseUrl, server.baseUrl].map((base) => fetch(`${base}${script}`)),
    );
    assert.equal(there!.status, 200);
    assert.equal(there!.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(
      Buffer.compare(Buffer.from(await here!.arrayBuffer()), Buffer.from(await there!.arrayBuffer())),
      0,
    );
    assert.equal((await fetch(`${server.baseUrl}/assets/web/dispatch-NOSUCHFILE.js`)).status, 404);
    await page.context().close();
  });

  it('signs out a person who may not read the board, saying why', async () => {
    const page = await signedIn(DESKTOP, tenant.emails.customer);
    await page.waitForSelector('#email');
    assert.match(await page.locator('[role=alert]').innerText(), /\S/);
    await page.context().close();
  });

  // Last: the clock stays in the evening.
  it('words every exception of a late day, naming its order and driver', async () => {
    server.clock.set(SIX_PM);
    const expected = await board();
    const listed = expected.exceptions.filter((exception) => exception.kind !== 'order_unplanned');
    const late = listed.find((exception) => exception.kind === 'stop_late');
    assert.ok(late, 'a stop is late');
    const route = expected.routes.find((one) => one.stops.some((stop) => stop.order_id === late.order_id))!;
    const stop = route.stops.find((one) => one.order_id === late.order_id)!;
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const lines = await page.locator('#exceptions li').allInnerTexts();
    assert.equal(lines.length, listed.length, 'an item per exception');
    assert.ok(lines.includes(`Past its window: ${stop.order_ref} (${route.driver.name})`), lines.join('\n'));
    assert.match(await page.locator('#unplanned').innerText(), new RegExp(unplannedRef));
    // Delivered at last, the stop leaves the open page's list; the other items stay, in their order.
    const driver = drivers.find((candidate) => candidate.id === route.driver.id)!;
    assert.ok([200, 409].includes((await drive(driver.token, route.id, 'start')).status));
    assert.equal((await drive(driver.token, route.id, `stops/${stop.order_id}/arrive`)).status, 200);
    const done = await drive(driver.token, route.id, `stops/${stop.order_id}/complete`, {
      outcome: 'delivered',
      recipient: 'Li Wei',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const gone = `Past its window: ${stop.order_ref} (${route.driver.name})`;
    await page.locator('#exceptions li', { hasText: gone }).waitFor({ state: 'detached' });
    assert.deepEqual(
      await page.locator('#exceptions li').allInnerTexts(),
      lines.filter((line) => line !== gone),
    );
    await page.context().close();
  });

  it('answers the console API only to a session, and its writes only with the session token', async () => {
    const stream = await fetch(`${served.baseUrl}/dispatch/api/v1/client/dispatch/board`, {
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(stream.status, 401);
    const body = (await stream.json()) as { result: boolean; error_code: string };
    assert.equal(body.result, false);
    assert.equal(body.error_code, 'UNAUTHENTICATED');
    // Signed in, a write without the session's anti-forgery token is refused, and changes nothing.
    const page = await signedIn(DESKTOP);
    await drawn(page);
    const route = (await board()).routes[0]!;
    const forged = await page.evaluate(async (id) => {
      const answer = await fetch(`/dispatch/api/v1/client/routes/${id}/lock`, { method: 'POST' });
      return { status: answer.status, body: (await answer.json()) as { error_code: string } };
    }, route.id);
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error_code, 'FORBIDDEN');
    const after = await api.get(`/api/v1/client/routes/${route.id}`, { token: admin });
    assert.equal(after.body.route.locked, false);
    await page.context().close();
  });
});
