import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo } from '../src/demo/seed.ts';
import { EXCEPTION_KINDS } from '../src/modules/dispatch/index.ts';
import type { ContactMessage } from '../src/modules/reservations/index.ts';
import { LANGUAGES } from '../src/platform/i18n/index.ts';
import { DESKTOP, launchBrowser } from './support/browser.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/**
 * 20:00 in Paris on the demo's day (the test server's clock opens it at 10:30 on 2 November 2026):
 * every window of the day has ended, so stops are late and planned routes overdue.
 */
const EVENING = new Date('2026-11-02T19:00:00Z');
const PASSWORD = 'demo-pass';
/** What a page's script or app writes where the page did not send it a text (src/web/shared/texts.ts). */
const MISSING_TEXT = /⟦[^⟧]*⟧/g;

interface Board {
  date: string;
  routes: Array<{
    id: number;
    status: string;
    driver: { name: string };
    stops: Array<{ order_id: number; state: string }>;
  }>;
  exceptions: Array<{ kind: string }>;
}

/**
 * Every page the pages door serves, opened in a real (headless) browser in each of the six
 * languages on the demo's day late in the evening, with an exception of every kind on the board:
 * no page may throw, log an error, or show a text its script was not sent.
 */
describe('every page, on a demo day in the evening', () => {
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  /** The address of each page, in the demo's data. */
  let pages: string[];
  const sent: ContactMessage[] = [];
  const contactSender = { send: async (message: ContactMessage) => void sent.push(message) };

  /** The code sent to a contact, once the outbox sent it. */
  async function codeFor(contact: string): Promise<string> {
    for (let tries = 0; tries < 200; tries++) {
      const message = sent.findLast((one) => one.to === contact);
      if (message) return /Confirmation code: (\d{6})/.exec(message.text)![1]!;
      served.app.outbox.poke();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no code sent to ${contact}`);
  }

  before(async () => {
    server = await startTestServer({}, { contactSender });
    const demo = await seedDemo(server.db, server.app.services, PASSWORD, server.clock);
    assert.ok(demo);
    served = await startInstance(server, { contactSender });
    api = client(served.baseUrl);
    const admin = await login(api, 'admin@demo.test', PASSWORD);
    const board = async (): Promise<Board> => {
      const answer = await api.get('/api/v1/client/dispatch/board', { token: admin });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };

    // The demo driver goes out and fails a stop, then says nothing more: a failed attempt, and a
    // silent driver by the evening.
    const morning = await board();
    const route = morning.routes.find((one) => one.driver.name === 'Dara Driver' && one.status === 'planned');
    assert.ok(route, 'the demo driver has a route today');
    const driver = await login(api, 'driver@demo.test', PASSWORD);
    let writes = 0;
    const drive = async (step: string, body: Record<string, unknown> = {}) => {
      const answer = await api.post(
        `/api/v1/driver/routes/${route.id}/${step}`,
        { client_id: `every-page-${++writes}`, device_time: server.clock.now().toISOString(), ...body },
        { token: driver },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    await drive('start');
    await drive(`stops/${route.stops[0]!.order_id}/complete`, {
      outcome: 'failed',
      reason: { code: 'recipient_absent' },
    });
    // An order of the day for another van, which never leaves: a route not started. Then one more
    // order of the day, after the routes were built: on no route.
    const order = async (n: number) => {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        {
          scheduled_date: morning.date,
          dropoff: {
            name: 'Léa Martin',
            line1: `${n} Rue Cler`,
            city: 'Paris',
            postal_code: '75007',
            country: 'FR',
            lat: 48.8566,
            lng: 2.3126,
          },
        },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body as { tracking_number: string };
    };
    await order(8);
    const { id: van } = await server.app.services.accounts.userByEmail(server.db, 'driver2@demo.test');
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: morning.date, driver_ids: [van], time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 400));
    const unplanned = await order(9);

    // A booking at the demo's pickup counter, confirmed with the code sent: its own page.
    const bookingPage = new URL(demo.reservations.booking_page).pathname;
    const slots = await api.get(`/api/v1${bookingPage}/slots`);
    const held = await api.post(`/api/v1${bookingPage}`, {
      starts_at: (slots.body.slots as Array<{ starts_at: string }>).find(
        (slot) => Date.parse(slot.starts_at) > server.clock.now().getTime(),
      )!.starts_at,
      name: 'Inès Dupont',
      contact: 'ines@example.test',
    });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    const confirmed = await api.post(`/api/v1/bookings/${held.body.booking.reference}/confirm`, {
      code: await codeFor('ines@example.test'),
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const booking = new URL(confirmed.body.links.page);

    server.clock.set(EVENING);
    const evening = await board();
    assert.deepEqual(
      EXCEPTION_KINDS.filter((kind) => !evening.exceptions.some((exception) => exception.kind === kind)),
      [],
      'an exception of every kind on the board',
    );

    // The demo address of each route of the pages door with parameters; null for what pages load.
    const demoAddresses: Record<string, string | null> = {
      '/track/:number': `/track/${unplanned.tracking_number}`,
      '/book/:business/:resource': bookingPage,
      '/booking/:reference': `${booking.pathname}${booking.search}`,
      '/maps/:mapId/view': `/maps/${demo.publicMap.id}/view`,
      '/maps/:linkId': `/maps/${demo.publicMap.link}`,
      '/assets/web/:file': null,
    };
    pages = [];
    for (const route of served.app.pageRoutes) {
      if (/[:*]/.test(route)) {
        assert.ok(route in demoAddresses, `a demo address for ${route}, or null when it is no page`);
        const address = demoAddresses[route];
        if (address) pages.push(address);
        continue;
      }
      // A route without parameters is a page when it answers HTML (scripts and streams do not).
      const answer = await fetch(`${served.baseUrl}${route}`, { headers: { accept: 'text/html' } });
      await answer.body?.cancel();
      if (answer.headers.get('content-type')?.startsWith('text/html')) pages.push(route);
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  /**
   * Opens a page, signing in as the demo's admin first where it asks; answers its status once its
   * script, if it runs one, has drawn (`<body data-drawn>`) or failed.
   */
  async function open(page: Page, address: string, failed: Promise<void>): Promise<number | undefined> {
    let answer = await page.goto(address);
    const signIn = page.locator('form[action*="/sign-in"]');
    if ((await signIn.count()) > 0) {
      await page.fill('#email', 'admin@demo.test');
      await page.fill('#password', PASSWORD);
      await signIn.locator('button[type=submit]').click();
      await signIn.waitFor({ state: 'detached' });
      answer = await page.goto(address);
    }
    if ((await page.locator('script[src]').count()) > 0) {
      const drawn = page.waitForSelector('body[data-drawn]', { state: 'attached' });
      // A page that failed is closed before it draws: its wait ends there, unheard.
      drawn.catch(() => {});
      await Promise.race([drawn, failed]);
    }
    return answer?.status();
  }

  for (const lang of LANGUAGES) {
    it(`opens every page in ${lang} without an error or a missing text`, async () => {
      assert.ok(pages.includes('/dispatch'), `the pages found: ${pages.join(', ')}`);
      const context = await browser.newContext(DESKTOP);
      const problems: string[] = [];
      try {
        for (const address of pages) {
          const page = await context.newPage();
          const report = (problem: string) => problems.push(`${address}: ${problem}`);
          let fail = () => {};
          const failed = new Promise<void>((resolve) => {
            fail = resolve;
          });
          page.on('pageerror', (error) => {
            report(error.message);
            fail();
          });
          page.on('console', (message) => {
            if (message.type() !== 'error') return;
            report(message.text());
            fail();
          });
          const url = new URL(`${served.baseUrl}${address}`);
          url.searchParams.set('lang', lang);
          const status = await open(page, url.toString(), failed);
          if (status !== 200) report(`answered ${status}`);
          const missing = (await page.locator('body').innerText()).match(MISSING_TEXT) ?? [];
          if (missing.length > 0) report(`texts missing: ${missing.join(', ')}`);
          await page.close();
        }
      } finally {
        await context.close();
      }
      assert.deepEqual(problems, []);
    });
  }
});
