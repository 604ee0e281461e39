import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ContactMessage } from '../src/modules/reservations/index.ts';
import { DESKTOP, graveViolations, launchBrowser, PHONE } from './support/browser.ts';
import { createTenant, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The booking page in a real (headless) browser: pick a slot, give a contact, type the code sent there. */
describe('reservations: the public booking page', () => {
  let server: TestServer;
  let browser: Browser;
  let page: string;
  const sent: ContactMessage[] = [];

  before(async () => {
    server = await startTestServer(
      {},
      { contactSender: { send: async (message) => void sent.push(message) } },
    );
    await server.app.startBackground(server.pool);
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'counter', {
      timeZone: 'Europe/Paris',
    });
    const admin = await login(api, tenant.emails.client_admin);
    const made = await api.post(
      '/api/v1/reservations/resources',
      {
        name: 'Pickup counter, Gare de Lyon',
        kind: 'pickup_counter',
        rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=14,15;BYMINUTE=0;BYSECOND=0',
        starts_on: '2026-11-01',
        slot_minutes: 15,
        capacity: 1,
      },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    page = new URL(made.body.resource.booking_page).pathname;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  /** The code the (capturing) sender got for a contact, once the outbox has sent it. */
  async function codeFor(contact: string): Promise<string> {
    for (let tries = 0; tries < 200; tries++) {
      const message = sent.findLast((one) => one.to === contact);
      if (message) return /Confirmation code: (\d{6})/.exec(message.text)![1]!;
      server.app.outbox.poke();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no code sent to ${contact}`);
  }

  it('books a slot with a code, without an account, on a phone', async () => {
    const context = await browser.newContext({ locale: 'en-US', ...PHONE });
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}${page}`);
    assert.equal(await tab.locator('h1').textContent(), 'Pickup counter, Gare de Lyon');
    const first = tab.locator('input[name="starts_at"]').first();
    await first.check();
    await tab.getByLabel('Your name').fill('Inès Dupont');
    await tab.getByLabel('Email or phone number').fill('ines@example.test');
    await tab.getByRole('button', { name: 'Book' }).click();
    await tab.getByLabel('Confirmation code').waitFor();
    assert.deepEqual(await graveViolations(tab), [], 'code form');
    await tab
      .getByLabel('Confirmation code')
      .fill('000000' === (await codeFor('ines@example.test')) ? '111111' : '000000');
    await tab.getByRole('button', { name: 'Confirm' }).click();
    assert.match((await tab.getByRole('alert').textContent()) ?? '', /not the one we sent/);
    await tab.getByLabel('Confirmation code').fill(await codeFor('ines@example.test'));
    await tab.getByRole('button', { name: 'Confirm' }).click();
    assert.equal(await tab.locator('h1').textContent(), 'Booked');
    const calendar = await tab.getByRole('link', { name: /calendar/ }).getAttribute('href');
    assert.ok(calendar?.includes('/calendar?signature='), `a signed calendar link: ${calendar}`);
    assert.deepEqual(await graveViolations(tab), [], 'confirmation');
    // Links are absolute on the configured public address; the test server listens elsewhere.
    const own = new URL((await tab.getByRole('link', { name: /Your booking link/ }).getAttribute('href'))!);
    assert.equal(own.pathname.split('/')[1], 'booking');
    await tab.goto(`${server.baseUrl}${own.pathname}${own.search}`);
    assert.equal(await tab.locator('h1').textContent(), 'Pickup counter, Gare de Lyon');
    assert.match((await tab.getByRole('status').textContent()) ?? '', /Booked/);
    assert.deepEqual(await graveViolations(tab), [], 'booking page');
    const signed = tab.url();
    await tab.goto(signed.replace(/signature=[^&]+/, 'signature=forged-signature-0000'));
    assert.equal(
      await tab.locator('h1').textContent(),
      'Nothing to book here',
      'a forged link shows nothing',
    );
    await tab.goto(signed);
    await tab.getByRole('button', { name: 'Cancel this booking' }).click();
    assert.match((await tab.getByRole('status').textContent()) ?? '', /Cancelled/);
    assert.equal(
      await tab.getByRole('button', { name: 'Cancel this booking' }).count(),
      0,
      'nothing left to cancel',
    );
    await context.close();

    const slots = await client(server.baseUrl).get(`/api/v1${page}/slots`);
    assert.equal(slots.body.slots[0].remaining, 1, 'the cancelled place is back');
  });

  it('offers the waitlist for a full slot, shows nobody else, and passes axe on a desktop', async () => {
    const api = client(server.baseUrl);
    const slots = await api.get(`/api/v1${page}/slots`);
    const taken = await api.post(`/api/v1${page}`, {
      starts_at: slots.body.slots[0].starts_at,
      name: 'Inès Dupont',
      contact: 'ines@example.test',
    });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    const context = await browser.newContext({ locale: 'en-US', ...DESKTOP });
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}${page}`);
    assert.deepEqual(await graveViolations(tab), [], 'booking form');
    const text = (await tab.locator('main').textContent()) ?? '';
    assert.ok(text.includes('full: join the waitlist'), 'the full slot offers the waitlist');
    assert.ok(!text.includes('Inès') && !text.includes('ines@'), 'no other booker is shown');
    await tab.locator('input[name="starts_at"]').first().check();
    await tab.getByLabel('Your name').fill('Second');
    await tab.getByLabel('Email or phone number').fill('not a contact');
    await tab.getByRole('button', { name: 'Book' }).click();
    assert.match((await tab.getByRole('alert').textContent()) ?? '', /contact/);
    assert.deepEqual(await graveViolations(tab), [], 'refusal');
    await context.close();
  });

  it('answers 404 for a resource of no business', async () => {
    const answer = await client(server.baseUrl).get('/book/nobody/999');
    assert.equal(answer.status, 404);
  });
});
