import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import type { EmbeddedBroker } from '../src/platform/mqtt/broker.ts';
import { DESKTOP, graveViolations, launchBrowser, signedInPage } from './support/browser.ts';
import { createTenant, PASSWORD, type Tenant } from './support/fixtures.ts';
import type { Client } from './support/http.ts';
import { prepare, turnOn } from './support/order-chat.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/** The day support/order-chat.ts plans: one route, its driver's, with the chat's order on it. */
const DAY = '2026-11-04';

/**
 * The console's talk in a real (headless) browser: an order's chat with its driver, live over MQTT
 * on the page session's WebSocket; the dispatch suggestions applied in one action. Agent proposals
 * approved from their cards: test/dispatch-agent-panel.test.ts.
 */
describe('the dispatch console talks: chat live over MQTT, suggestions', () => {
  let server: TestServer;
  let served: TestInstance;
  let browser: Browser;
  let api: Client;
  let tenant: Tenant;
  let tokens: Record<string, string>;
  let orderId: number;
  let waitingId: number;
  let other: Tenant;
  let errors: string[] = [];

  before(async () => {
    server = await startTestServer();
    ({ api, tenant, tokens, orderId } = await prepare(server, 'talk'));
    await turnOn(api, tokens.client_admin!);
    // The suggestions are of the operations agent's family: on and set up (no model needed).
    const on = await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
      token: tokens.client_admin,
      body: { enabled: true },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const settings = await api.call('PUT', '/api/v1/client/agent/settings', {
      token: tokens.client_admin,
      body: { instructions: 'Be brief.' },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    // An order that waits for a route and fits the day's one: an insert_order suggestion.
    const waiting = await api.post(
      '/api/v1/client/orderCreate',
      { scheduled_date: DAY, dropoff: { line1: '5 Rue de Rivoli', lat: 48.861, lng: 2.361 } },
      { token: tokens.client_admin },
    );
    assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
    waitingId = waiting.body.order_id;
    other = await createTenant(server.db, server.app.services, 'talkother');
    served = await startInstance(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });
  beforeEach(() => {
    errors = [];
  });
  afterEach(() => {
    assert.deepEqual(errors, [], 'no page error');
  });

  /** The console on the chat's day, signed in through its form. */
  const signedIn = async (email = tenant.emails.client_admin): Promise<Page> => {
    const page = await signedInPage(browser, served, { email, password: PASSWORD }, DESKTOP, (opened) =>
      opened.on('pageerror', (error) => errors.push(error.message)),
    );
    await page.waitForSelector('#live');
    await page.goto(`${served.baseUrl}/dispatch?date=${DAY}`);
    await page.waitForSelector('body[data-drawn]');
    return page;
  };
  const wordsSent = async (page: Page) => assert.doesNotMatch(await page.locator('body').innerText(), /⟦/);
  const thread = async (token: string) => {
    const answer = await api.get(`/api/v1/order-chats/${orderId}`, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { messages: Array<{ id: number; text: string; author: { role: string } }> };
  };

  it('opens the chat of the route’s next order from its entry, posts there, and shows the driver’s answer live', async () => {
    const page = await signedIn();
    await page.locator('#routes [data-message-driver]').first().click();
    const chat = page.locator(`.chat[data-chat="${orderId}"]`);
    await chat.waitFor();
    // "Message the driver" leaves the person in the message field.
    await page.waitForFunction("document.activeElement?.id === 'chat-text'");
    await page.keyboard.type('The side gate is open until noon.');
    await chat.locator('button[type=submit]').click();
    await chat.locator('.chat-log').getByText('The side gate is open until noon.').waitFor();
    const read = await thread(tokens.driver!);
    assert.ok(
      read.messages.some(
        (m) => m.text === 'The side gate is open until noon.' && m.author.role === 'dispatcher',
      ),
      JSON.stringify(read.messages),
    );

    // The driver answers through the API; the open page shows it without a reload.
    await chat.and(page.locator('[data-live="yes"]')).waitFor({ timeout: 15_000 });
    await page.evaluate('window.kept = true');
    const posted = await api.post(
      `/api/v1/order-chats/${orderId}/messages`,
      { text: 'Thanks, I will park in the courtyard.' },
      { token: tokens.driver },
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    await chat
      .locator('.chat-log')
      .getByText('Thanks, I will park in the courtyard.')
      .waitFor({ timeout: 15_000 });
    assert.equal(await page.evaluate('window.kept'), true, 'no reload');
    // Shown, it is marked read: the driver sees the dispatcher's read receipt.
    const receipt = async () =>
      (
        (await thread(tokens.driver!)) as unknown as {
          reads: Array<{ user_id: number; last_read_message_id: number }>;
        }
      ).reads.some(
        (read) =>
          read.user_id === tenant.userIds.client_admin && read.last_read_message_id >= posted.body.message.id,
      );
    for (let tries = 0; !(await receipt()); tries++) {
      assert.ok(tries < 50, 'the read receipt arrives');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.match(await chat.locator('.chat-log').innerText(), /\(driver\)/);
    assert.deepEqual(await graveViolations(page), []);
    await wordsSent(page);
    await page.context().close();
  });

  it('applies a suggestion with one action, beside the route it concerns', async () => {
    const page = await signedIn();
    const suggestion = page.locator('#suggestions li[data-suggestion="insert_order"]').first();
    await suggestion.waitFor({ timeout: 20_000 });
    const routeId = Number(await suggestion.getAttribute('data-route'));
    // Its route's button selects the route in the list.
    await suggestion.locator('button.link').click();
    await page.locator(`#routes li[data-route="${routeId}"].selected`).waitFor();
    await suggestion.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.notice').getByText('Change made').waitFor({ timeout: 20_000 });
    const order = await api.get(`/api/v1/client/orders/${waitingId}`, { token: tokens.client_admin });
    assert.equal(order.body.order.route_id ?? null, routeId, JSON.stringify(order.body.order).slice(0, 400));
    // Read again after the change: that suggestion is gone.
    await page
      .locator('#suggestions li[data-suggestion="insert_order"]')
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 });
    await wordsSent(page);
    await page.context().close();
  });

  it('refuses the console’s MQTT WebSocket to a browser without a session, a bearer token included', async () => {
    const refused = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`${served.baseUrl.replace('http', 'ws')}/dispatch/mqtt`, 'mqtt', {
          headers,
        });
        socket.on('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          socket.terminate();
        });
        socket.on('open', () => {
          socket.terminate();
          reject(new Error('the WebSocket opened'));
        });
        socket.on('error', () => undefined);
      });
    assert.equal(await refused({}), 401);
    assert.equal(await refused({ authorization: `Bearer ${tokens.client_admin}` }), 401);
    assert.equal(await refused({ cookie: 'tms_dispatch=not-a-session' }), 401);
    // A live session's cookie from another site's page is refused too.
    const page = await signedIn();
    const cookie = await sessionCookie(page);
    assert.equal(await refused({ cookie, origin: 'https://elsewhere.example' }), 401);
    await page.context().close();
  });

  it('lets a session’s person hear only the topics it may: its own business’s conversations', async () => {
    const page = await signedIn();
    const cookie = await sessionCookie(page);
    const client = await mqtt.connectAsync(`${served.baseUrl.replace('http', 'ws')}/dispatch/mqtt`, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      clean: true,
      wsOptions: { headers: { cookie, origin: served.baseUrl } },
    });
    try {
      const prefix = server.config.mqtt.topicPrefix;
      const grant = async (topic: string) => {
        const granted = await client
          .subscribeAsync(topic, { qos: 1 })
          .catch((error) => error.packet?.granted ?? [128]);
        return (Array.isArray(granted) ? granted : [granted]).every(
          (one: number | { qos: number }) => (typeof one === 'number' ? one : one.qos) !== 128,
        );
      };
      assert.equal(await grant(`${prefix}/order-chat/${tenant.businessId}/${orderId}`), true);
      assert.equal(await grant(`${prefix}/order-chat/${other.businessId}/${orderId}`), false);
      assert.equal(await grant(`${prefix}/drivers/${tenant.businessId}/${tenant.userIds.driver}`), false);
      assert.equal(await grant(`${prefix}/order-chat/#`), false);
      // What it may hear, it hears.
      const heard = new Promise<string>((resolve) =>
        client.on('message', (_topic, payload) => resolve(String(payload))),
      );
      const posted = await api.post(
        `/api/v1/order-chats/${orderId}/messages`,
        { text: 'Heard over the session.' },
        { token: tokens.driver },
      );
      assert.equal(posted.status, 200);
      assert.match(await heard, /Heard over the session/);
      // Signed out, the session opens nothing: the next recheck disconnects it.
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await page.locator('form.who button[type=submit]').click();
      await page.waitForSelector('#email');
      await (served.app.mqtt as EmbeddedBroker<unknown>).recheck();
      await closed;
    } finally {
      await client.endAsync(true);
      await page.context().close();
    }
  });
});

async function sessionCookie(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'tms_dispatch');
  assert.ok(session, 'the page holds its session cookie');
  return `${session.name}=${session.value}`;
}
