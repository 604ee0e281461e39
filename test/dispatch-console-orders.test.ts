import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  graveViolations,
  launchBrowser,
  screenshotWhenAsked,
  signedInPage,
} from './support/browser.ts';
import { createTenant, deliverWithProof, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/** 07:00 on 3 November 2026 in Shanghai, the tenant's time zone: the console opens on that day. */
const SEVEN_AM = new Date('2026-11-02T23:00:00Z');
const DAY = '2026-11-03';
const CENTRE = { lat: 31.2304, lng: 121.4737 };

interface Order {
  id: number;
  order_ref: string;
  status: string;
  dropoff: { name?: string; lat?: number; lng?: number } | null;
  time_window: { start: string; end: string } | null;
}

/** The console's order panel and new orders, driven as a person does; every outcome read back from the API. */
describe('dispatch console: orders', () => {
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;
  /** The located orders of the day, on one east-west line, by recipient. */
  const located: Record<string, Order> = {};
  /** Orders whose address the service could not place. */
  const unplaced: Order[] = [];
  /** What went wrong on the page of the running test: errors thrown, words missing. */
  let problems: string[] = [];
  let page: Page | undefined;

  const create = async (dropoff: Record<string, unknown>): Promise<Order> => {
    const made = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff, scheduled_date: DAY, time_window: { start: '09:00', end: '17:00' } },
      { token: admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return made.body.orders[0];
  };
  const read = async (id: number): Promise<Order> => {
    const answer = await api.get(`/api/v1/client/orders/${id}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.order;
  };
  /** Waits until the API answers what the page's action should have made. */
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The console's status line says why, when the API refused.
    const said = page ? await page.locator('.notice').allInnerTexts() : [];
    assert.fail(`never: ${what} (${said.join(' / ')})`);
  };
  /** A page signed in through the console's own form, its board drawn; its errors collected. */
  const signedIn = async (): Promise<Page> => {
    page = await signedInPage(
      browser,
      served,
      { email: tenant.emails.client_admin, password: PASSWORD },
      DESKTOP,
      (opened) => {
        opened.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        opened.on('console', (message) => {
          if (message.type() === 'error' && message.text().includes('sent no text'))
            problems.push(message.text());
        });
      },
    );
    await page.waitForSelector('body[data-drawn]');
    return page;
  };
  /** Opens an order from the list of orders not on a route, by keyboard. */
  const openWaiting = async (current: Page, order: Order) => {
    await current.locator(`#unplanned li[data-order="${order.id}"] button.link`).focus();
    await current.keyboard.press('Enter');
    await current.waitForSelector(`#order h3:text-is("${order.order_ref}")`);
  };
  const status = (current: Page, value: string) =>
    current.waitForSelector(`#order-facts dd[data-status="${value}"]`);

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'console-orders');
    admin = await login(api, tenant.emails.client_admin);
    server.clock.set(SEVEN_AM);
    for (const [n, name] of [
      'Wang Fang',
      'Zhao Lei',
      'Sun Li',
      'Qian Yu',
      'Zhou Ping',
      'Ma Xiaoling',
    ].entries()) {
      located[name] = await create({
        name,
        phone: `+86 21 5555 100${n}`,
        line1: `${n + 1} Huaihai Road`,
        city: 'Shanghai',
        country: 'CN',
        lat: CENTRE.lat,
        lng: CENTRE.lng + 0.01 * n,
      });
    }
    await deliverWithProof(api, admin, server.clock, located['Ma Xiaoling']!.id);
    for (const n of [1, 2]) {
      unplaced.push(await create({ name: `Nowhere ${n}`, line1: `${n} Unknown Lane`, country: 'CN' }));
    }
    const saved = await api.post(
      '/api/v1/client/addresses',
      {
        label: 'Head office of Chen',
        name: 'Chen Jie',
        phone: '+86 21 6666 0000',
        line1: '1 Lujiazui Ring Road',
        city: 'Shanghai',
        country: 'CN',
        lat: 31.2397,
        lng: 121.4998,
      },
      { token: admin },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    served = await startInstance(server);
    browser = await launchBrowser();
  });
  afterEach(async () => {
    if (page) {
      const text = await page.locator('body').innerText();
      if (text.includes('⟦')) problems.push(`a word is missing: ${text.match(/⟦[^⟧]*⟧/)?.[0]}`);
      await page.context().close();
      page = undefined;
    }
    const seen = problems;
    problems = [];
    assert.deepEqual(seen, [], 'no page error and no missing word');
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  it('holds an order and releases it from its panel', async () => {
    const current = await signedIn();
    const order = located['Wang Fang']!;
    await openWaiting(current, order);
    assert.match(await current.locator('#order-facts').innerText(), /\+86 21 5555 1000/);
    assert.match(await current.locator('#order-parcels').innerText(), /TMS/);
    await current.getByRole('button', { name: 'Hold', exact: true }).click();
    await until('the order is held', async () => (await read(order.id)).status === 'HOLD');
    await status(current, 'HOLD');
    await current.waitForSelector(`#unplanned li[data-order="${order.id}"]:has-text("Held:")`);
    await current.getByRole('button', { name: 'Release', exact: true }).click();
    await until('the order is released', async () => (await read(order.id)).status === 'NEW_ORDER');
    await status(current, 'NEW_ORDER');
    // The history lists both changes, as the audit timeline has them.
    await current.locator('#order-history summary').click();
    await current.waitForSelector('#order-history li:has-text("HOLD → NEW_ORDER")');
  });

  it('cancels an order only once the person confirms it', async () => {
    const current = await signedIn();
    const order = located['Sun Li']!;
    await openWaiting(current, order);
    await current.getByRole('button', { name: 'Cancel the order' }).click();
    await current.waitForSelector('dialog[open]');
    await current.keyboard.press('Escape');
    await current.waitForSelector('dialog[open]', { state: 'detached' });
    assert.equal((await read(order.id)).status, 'NEW_ORDER', 'Escape keeps the order');
    await current.getByRole('button', { name: 'Cancel the order' }).click();
    await current.locator('#confirm-cancel').click();
    await until('the order is cancelled', async () => (await read(order.id)).status === 'CANCELLED');
    await status(current, 'CANCELLED');
    assert.equal(await current.locator('#order-actions button').count(), 0, 'nothing more to do with it');
  });

  it('shows a refusal in the API’s words and keeps the order as it was', async () => {
    const current = await signedIn();
    const order = located['Qian Yu']!;
    await openWaiting(current, order);
    await current.getByRole('button', { name: 'Change the window' }).click();
    await current.fill('#window-start', '16:00');
    await current.fill('#window-end', '10:00');
    await current.locator('#window-end').press('Enter');
    await current.waitForSelector('.notice:has-text("Not done:")');
    assert.deepEqual((await read(order.id)).time_window, { start: '09:00', end: '17:00' });
    await current.getByRole('button', { name: 'Change the window' }).click();
    await current.fill('#window-start', '10:00');
    await current.fill('#window-end', '12:30');
    await current.locator('#window-end').press('Enter');
    await until('the window changed', async () => (await read(order.id)).time_window?.end === '12:30');
    await current.waitForSelector('#order-window:text-is("10:00–12:30")');
  });

  it('places an order that has no coordinates by a click on the map', async () => {
    const current = await signedIn();
    const order = unplaced[0]!;
    await openWaiting(current, order);
    await current.getByRole('button', { name: 'Place on the map' }).click();
    await current.locator('#pick-on-map').click();
    await current.waitForSelector('dialog[open]', { state: 'detached' });
    await current.waitForSelector('#map.picking');
    // North of the day's orders, which lie on one east-west line across the middle of the map.
    const box = (await current.locator('#map').boundingBox())!;
    await current.locator('#map').click({ position: { x: box.width * 0.6, y: box.height * 0.2 } });
    await current.waitForSelector('dialog[open]');
    const lat = Number(await current.inputValue('#location-lat'));
    const lng = Number(await current.inputValue('#location-lng'));
    assert.ok(lat > CENTRE.lat && lat < CENTRE.lat + 0.5, `latitude ${lat} is north of the orders`);
    assert.ok(Math.abs(lng - (CENTRE.lng + 0.015)) < 0.5, `longitude ${lng} is among the orders`);
    await current.getByRole('button', { name: 'Set the location' }).click();
    await until('the order is placed', async () => (await read(order.id)).dropoff?.lat !== undefined);
    const placed = (await read(order.id)).dropoff!;
    assert.equal(placed.lat, lat);
    assert.equal(placed.lng, lng);
    await current.waitForSelector('#order-actions');
    assert.equal(await current.getByRole('button', { name: 'Place on the map' }).count(), 0);
  });

  it('places one by its latitude and longitude typed, Escape giving up on the map', async () => {
    const current = await signedIn();
    const order = unplaced[1]!;
    await openWaiting(current, order);
    await current.getByRole('button', { name: 'Place on the map' }).click();
    await current.locator('#pick-on-map').click();
    await current.waitForSelector('#map.picking');
    await current.keyboard.press('Escape');
    await current.waitForSelector('dialog[open]');
    assert.equal(await current.locator('#map.picking').count(), 0, 'the map no longer waits for a click');
    assert.equal(await current.inputValue('#location-lat'), '');
    await current.locator('#location-lat').focus();
    await current.keyboard.type('31.2251');
    await current.keyboard.press('Tab');
    await current.keyboard.type('121.4612');
    await current.keyboard.press('Enter');
    await until('the order is placed', async () => (await read(order.id)).dropoff?.lat !== undefined);
    const placed = (await read(order.id)).dropoff!;
    assert.deepEqual([placed.lat, placed.lng], [31.2251, 121.4612]);
  });

  it('creates an order for the day from a saved address, which then waits for a route', async () => {
    const current = await signedIn();
    await current.locator('#new-order-button').click();
    await current.waitForSelector('dialog[open] #new-order');
    await current.locator('#new-order-find').fill('Head office');
    await current.locator('#new-order-matches button:has-text("Head office of Chen")').click();
    assert.equal(await current.inputValue('#new-order-name'), 'Chen Jie');
    assert.equal(await current.inputValue('#new-order-line1'), '1 Lujiazui Ring Road');
    await current.fill('#new-order-start', '13:00');
    await current.fill('#new-order-end', '15:00');
    await current.getByRole('button', { name: 'Create the order' }).click();
    await current.waitForSelector('dialog[open]', { state: 'detached' });
    const found = await api.get(`/api/v1/client/orders?scheduled_date=${DAY}&search=Chen%20Jie`, {
      token: admin,
    });
    assert.equal(found.body.orders.length, 1, JSON.stringify(found.body));
    const made: Order = found.body.orders[0];
    assert.equal(made.status, 'NEW_ORDER');
    assert.deepEqual(made.time_window, { start: '13:00', end: '15:00' });
    assert.deepEqual([made.dropoff?.lat, made.dropoff?.lng], [31.2397, 121.4998]);
    // The live board lists it among the orders not on a route, without a reload.
    await current.waitForSelector(`#unplanned li[data-order="${made.id}"]`);
  });

  it('finds an order by its recipient’s name and opens it', async () => {
    const current = await signedIn();
    const order = located['Zhao Lei']!;
    await current.locator('#filter-query').focus();
    await current.keyboard.type('zhao');
    await current.waitForSelector(`#found li[data-order="${order.id}"]`);
    assert.equal(await current.locator('#found li').count(), 1, 'only the order whose name matches');
    assert.deepEqual(
      await current
        .locator('#unplanned li[data-order]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-order'))),
      [String(order.id)],
      'the waiting orders narrow to those found',
    );
    await current.locator(`#found li[data-order="${order.id}"] button`).click();
    await current.waitForSelector(`#order h3:text-is("${order.order_ref}")`);
    await current.locator('#filter-query').fill('no such order');
    await current.waitForSelector('#found li:has-text("No order matches")');
  });

  it('shows a delivered order’s proof of delivery, and offers nothing more to do with it', async () => {
    const current = await signedIn();
    const order = located['Ma Xiaoling']!;
    await current.locator('#filter-query').fill('xiaoling');
    await current.locator(`#found li[data-order="${order.id}"] button`).click();
    await current.waitForSelector('#order-proof');
    const proof = await current.locator('#order-proof').innerText();
    assert.match(proof, /Received by Léa Martin/);
    assert.match(proof, /Left with the concierge/);
    await status(current, 'DELIVERED');
    assert.equal(await current.locator('#order-actions button').count(), 0);
  });

  it('reroutes an order to a typed address: the copy takes its place in the panel', async () => {
    const current = await signedIn();
    const order = located['Zhou Ping']!;
    await openWaiting(current, order);
    await current.getByRole('button', { name: 'Reroute' }).click();
    assert.equal(await current.inputValue('#reroute-name'), 'Zhou Ping', 'the recipient stays');
    await current.fill('#reroute-line1', '9 Nanjing West Road');
    await current.fill('#reroute-city', 'Shanghai');
    await current.locator('#reroute-city').press('Enter');
    await until('the order is cancelled', async () => (await read(order.id)).status === 'CANCELLED');
    await current.waitForSelector(`#order h3:text-is("${order.order_ref}-R1")`);
    const found = await api.get(`/api/v1/client/orders?scheduled_date=${DAY}&search=Nanjing%20West`, {
      token: admin,
    });
    assert.deepEqual(
      found.body.orders.map((one: Order) => [one.order_ref, one.status, one.dropoff?.name]),
      [[`${order.order_ref}-R1`, 'NEW_ORDER', 'Zhou Ping']],
    );
  });

  it('has no serious or critical accessibility violation with an order open, nor in the new order dialog', async () => {
    const current = await signedIn();
    await openWaiting(current, located['Qian Yu']!);
    await current.waitForSelector('#order-actions');
    assert.deepEqual(await graveViolations(current), []);
    await screenshotWhenAsked(current, 'dispatch-console-order');
    await current.locator('#new-order-button').click();
    await current.waitForSelector('dialog[open] #new-order');
    assert.deepEqual(await graveViolations(current), []);
    await screenshotWhenAsked(current, 'dispatch-console-new-order');
  });
});
