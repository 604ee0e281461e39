import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
// The named export: 4.13's package gives TypeScript CommonJS types, where the default is the module.
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { phaseLabel } from '../src/modules/tracking/index.ts';
import { DESKTOP, launchBrowser, PHONE } from './support/browser.ts';
import { createTenant, DROPOFF, deliverWithProof, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The public tracking page in a real (headless) browser: what a visitor sees, on a phone too. */
describe('tracking page /track/{number}', () => {
  let server: TestServer;
  let browser: Browser;
  let number: string;
  /** Problems the browser reported (a style refused by the CSP, ...). */
  const consoleErrors: string[] = [];

  async function open(path: string, options: BrowserContextOptions = {}) {
    const context = await browser.newContext({ locale: 'en-US', ...options });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const response = await page.goto(server.baseUrl + path);
    return { page, status: response?.status(), close: () => context.close() };
  }
  const texts = (page: Page, selector: string) => page.locator(selector).allInnerTexts();

  before(async () => {
    server = await startTestServer();
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'page');
    const admin = await login(api, tenant.emails.client_admin);
    const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    number = created.body.tracking_number;
    await deliverWithProof(api, admin, server.clock, created.body.order_id);
    // A hub scan a partner reported in its own local time (09:45 UTC), between pickup and delivery.
    const provider = await api.post('/api/v1/client/otep/providers', { name: 'Hub Co' }, { token: admin });
    const pushed = await api.post(
      '/api/v1/otep/ingest',
      {
        otep_version: '0.1',
        profile: 'parcel',
        subject: { tracking_number: number },
        events: [
          {
            occurred_at: '2026-11-02T10:45:00+01:00',
            status_code: 'arrival_scan',
            source: { type: 'provider_push' },
            location: { name: 'Hub Lyon', address: '1 Rue du Dépôt', city: 'Lyon', country: 'FR' },
          },
        ],
      },
      { headers: { 'x-otep-provider-key': provider.body.provider.key } },
    );
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  it('shows the status, the timeline newest first and the proof of delivery', async () => {
    const { page, status, close } = await open(`/track/${number}`);
    assert.equal(status, 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.locator('h1').innerText(), 'Track your parcel');
    assert.equal(await page.locator('.status-text').innerText(), 'Delivered');
    assert.deepEqual(await texts(page, '.timeline .event-status'), [
      'Delivered',
      'Out for delivery',
      'Arrived at facility',
      'Picked up',
      'Shipping information received',
    ]);
    // Times as they were on the clock where each event happened, with the offset.
    const [, , scan] = await texts(page, '.timeline li');
    assert.match(scan!, /Nov 2, 2026, 10:45\sAM \(UTC\+01:00\) · Hub Lyon, Lyon, France/);
    const pod = await page.locator('section', { has: page.locator('#pod-heading') }).innerText();
    assert.match(pod, /Proof of delivery/);
    assert.match(pod, /Signed by\s+Léa M\./);
    assert.match(pod, /Left with the concierge/);
    // The service's own event, timed by its clock, in the business's time zone (Asia/Shanghai).
    assert.match(pod, /Nov 2, 2026, 6:00\sPM \(UTC\+08:00\)/);
    assert.equal(await page.locator('.steps [aria-current="step"]').innerText(), 'Delivered');
    await close();
  });

  it('shows an event given without an offset at the time of the business’s zone, with its offset', async () => {
    const api = client(server.baseUrl);
    const paris = await createTenant(server.db, server.app.services, 'paris', { timeZone: 'Europe/Paris' });
    const admin = await login(api, paris.emails.client_admin);
    const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    // Picked up at 19:58 in Paris: the status change says only the instant (the service's clock).
    server.clock.set(new Date('2026-11-02T18:58:00Z'));
    const moved = await api.post(
      `/api/v1/client/orders/${created.body.order_id}/status`,
      { status: 'PICKED_UP' },
      { token: admin },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const { page, close } = await open(`/track/${created.body.tracking_number}?lang=de`);
    const [pickedUp] = await texts(page, '.timeline li');
    assert.match(pickedUp!, /02\.11\.2026, 19:58 \(UTC\+01:00\)/);
    const time = page.locator('.timeline li time').first();
    assert.equal(await time.getAttribute('datetime'), '2026-11-02T19:58:00+01:00');
    await close();
  });

  it('takes the status and the journey from the latest event by time, whatever order events came in', async () => {
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'late');
    const admin = await login(api, tenant.emails.client_admin);
    server.clock.set(new Date('2026-11-03T07:00:00Z'));
    const created = await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin });
    server.clock.set(new Date('2026-11-03T12:00:00Z'));
    const trackingNumber = created.body.tracking_number;
    const key = (await api.post('/api/v1/client/otep/providers', { name: 'Hub Co' }, { token: admin })).body
      .provider.key;
    const push = (occurredAt: string, statusCode: string) =>
      api.post(
        '/api/v1/otep/ingest',
        {
          otep_version: '0.1',
          profile: 'parcel',
          subject: { tracking_number: trackingNumber },
          events: [{ occurred_at: occurredAt, status_code: statusCode, source: { type: 'provider_push' } }],
        },
        { headers: { 'x-otep-provider-key': key } },
      );
    // The latest scan first; an earlier out-for-delivery, further along the journey, comes in after it.
    assert.equal((await push('2026-11-03T12:00:00+01:00', 'arrival_scan')).status, 200);
    assert.equal((await push('2026-11-03T09:00:00+01:00', 'out_for_delivery')).status, 200);
    const { page, close } = await open(`/track/${trackingNumber}`);
    assert.equal(await page.locator('.status-text').innerText(), 'Arrived at facility');
    assert.equal(await page.locator('.steps [aria-current="step"]').innerText(), phaseLabel('transit', 'en'));
    assert.equal((await texts(page, '.timeline .event-status'))[0], 'Arrived at facility');
    await close();
  });

  it('finds a number typed in lower case', async () => {
    const { page, status, close } = await open(`/track/${number.toLowerCase()}`);
    assert.equal(status, 200);
    assert.equal(await page.locator('.status-text').innerText(), 'Delivered');
    await close();
  });

  it('speaks German with ?lang=de, and the browser’s language otherwise', async () => {
    const german = await open(`/track/${number}?lang=de`, { locale: 'fr-FR' });
    assert.equal(await german.page.getAttribute('html', 'lang'), 'de');
    assert.equal(await german.page.locator('.status-text').innerText(), 'Zugestellt');
    assert.equal(await german.page.locator('#history-heading').innerText(), 'Sendungsverlauf');
    assert.equal((await texts(german.page, '.timeline .event-status'))[1], 'In Zustellung');
    assert.match(await german.page.locator('.timeline').innerText(), /02\.11\.2026, 10:45 \(UTC\+01:00\)/);
    await german.close();
    const french = await open(`/track/${number}`, { locale: 'fr-FR' });
    assert.equal(await french.page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await french.page.locator('.status-text').innerText(), 'Livré');
    await french.close();
  });

  it('shows a helpful not-found page with status 404', async () => {
    const { page, status, close } = await open('/track/TMSNOSUCH0000');
    assert.equal(status, 404);
    assert.equal(await page.locator('h1').innerText(), 'Parcel not found');
    assert.match(await page.locator('main').innerText(), /TMSNOSUCH0000/);
    assert.equal(await page.locator('input[name="number"]').inputValue(), 'TMSNOSUCH0000');
    await close();
    // Whatever the visitor typed is printed as text, never as markup.
    const typed = '"><img src=x onerror=alert(1)>';
    const answer = await fetch(`${server.baseUrl}/track/${encodeURIComponent(typed)}`);
    assert.equal(answer.status, 404);
    const source = await answer.text();
    assert.ok(!source.includes('<img'), source);
    assert.ok(source.includes('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'), source);
  });

  it('has no serious or critical accessibility violations, on a phone and a desktop', async () => {
    const pages = [`/track/${number}`, `/track/${number}?lang=zh-Hans`, '/track/TMSNOSUCH0000', '/track'];
    for (const device of [PHONE, DESKTOP]) {
      for (const path of pages) {
        const { page, close } = await open(path, device);
        const { violations, passes } = await new AxeBuilder({ page }).analyze();
        assert.ok(passes.length > 10, `axe ran its rules on ${path}`);
        const grave = violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`);
        assert.deepEqual(grave, [], `${path} at ${device.viewport.width}px`);
        await close();
      }
    }
  });

  it('fits a phone screen without horizontal scrolling', async () => {
    for (const path of [`/track/${number}`, `/track/${number}?lang=de`, '/track/TMSNOSUCH0000', '/track']) {
      const { page, close } = await open(path, PHONE);
      const width = await page.evaluate('document.documentElement.scrollWidth');
      assert.ok(Number(width) <= 390, `${path} is ${width}px wide`);
      if (path.startsWith(`/track/${number}`)) {
        const size = await page.evaluate('getComputedStyle(document.querySelector(".status-text")).fontSize');
        assert.equal(size, '32px', `${path}: the status stays big`);
      }
      await close();
    }
  });

  it('shows no street address, phone number, coordinates or full name', async () => {
    const { page, close } = await open(`/track/${number}`);
    const text = await page.locator('body').innerText();
    const source = await page.content();
    for (const secret of ['Rivoli', 'Dépôt', '+33', '12 34 56', '48.86', '2.3376', 'Martin']) {
      assert.ok(!text.includes(secret) && !source.includes(secret), secret);
    }
    await close();
  });

  it('finds a parcel from the form, with JavaScript off', async () => {
    const { page, status, close } = await open('/track?lang=es', { javaScriptEnabled: false });
    assert.equal(status, 200);
    await page.locator('input[name="number"]').fill(` ${number} `);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(`**/track/${number}?lang=es`);
    assert.equal(await page.locator('.status-text').innerText(), 'Entregado');
    await close();
  });

  it('applies its inline styles under its own Content-Security-Policy', async () => {
    const { page, close } = await open(`/track/${number}`);
    const answer = await fetch(`${server.baseUrl}/track/${number}`);
    assert.match(answer.headers.get('content-security-policy') ?? '', /style-src 'sha256-/);
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=60');
    assert.match(answer.headers.get('vary') ?? '', /accept-language/i);
    const weight = await page.evaluate('getComputedStyle(document.querySelector(".status-text")).fontWeight');
    assert.equal(weight, '700');
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy/i.test(e)),
      [],
    );
    await close();
  });
});
