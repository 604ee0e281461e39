import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { createTenant, DROPOFF, issuedToken, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** The approval queue's page in a real (headless) browser, on a phone and a desktop. */
describe('approval page /mcp-approvals', () => {
  let server: TestServer;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;

  const newOrder = async () =>
    (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: admin })).body.orders[0] as {
      id: number;
    };
  const statusOf = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order.status as string;
  /** An agent's proposal to hold an order. */
  const propose = async (orderId: number, reason: string) => {
    const agent = await issuedToken(server, {
      userId: tenant.userIds.employee,
      kind: 'agent',
    });
    const answer = await api.post(
      '/api/v1/agent/approvals',
      { tool: 'hold_order', arguments: { order_id: orderId }, reason },
      { token: agent },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.proposal.id as number;
  };
  async function signedIn(options: BrowserContextOptions = {}) {
    const context = await browser.newContext({ locale: 'en-US', ...options });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/mcp-approvals`);
    await page.getByLabel('Email').fill(tenant.emails.client_admin);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/mcp-approvals$/);
    return { page, close: () => context.close() };
  }
  const grave = async (page: Page) =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help}`);

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'approvals-page');
    admin = await login(api, tenant.emails.client_admin);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  it('asks a person to sign in, refuses a wrong password in their language, and keeps the session HttpOnly', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    const response = await page.goto(`${server.baseUrl}/mcp-approvals`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    await page.getByLabel('E-mail').fill(tenant.emails.client_admin);
    await page.getByLabel('Mot de passe').fill('wrong password');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    assert.equal(
      await page.getByRole('alert').innerText(),
      "L'adresse e-mail ou le mot de passe est incorrect.",
    );
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    await context.close();

    const { page: queue, close } = await signedIn();
    const cookies = await queue.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'tms_approvals');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Strict');
    assert.equal(session?.path, '/mcp-approvals');
    assert.match(await queue.locator('h1').innerText(), /approvals/i);
    await close();
  });

  it('shows a pending proposal readably, and approving it runs it', async () => {
    const order = await newOrder();
    const id = await propose(order.id, 'The customer asked us to wait');
    const { page, close } = await signedIn(DESKTOP);
    const card = page.locator('section', { has: page.locator(`#proposal-${id}`) });
    assert.match(await card.locator('h3').innerText(), /hold_order/);
    assert.match(await card.innerText(), /The customer asked us to wait/);
    assert.match(await card.innerText(), new RegExp(`order_id\\s+${order.id}`));
    assert.match(await card.locator('summary').innerText(), /Preview/);
    assert.equal(await statusOf(order.id), 'NEW_ORDER');
    await card.getByRole('button', { name: 'Approve and run' }).click();
    await page.waitForURL(/done=approved/);
    assert.match(await page.getByRole('status').innerText(), new RegExp(`#${id} approved`));
    assert.equal(await statusOf(order.id), 'HOLD');
    assert.equal(await page.locator(`#proposal-${id}`).count(), 0);
    await close();
  });

  it('rejects with a reason, on a phone, and nothing runs', async () => {
    const order = await newOrder();
    const id = await propose(order.id, 'Hold it please');
    const { page, close } = await signedIn(PHONE);
    const card = page.locator('section', { has: page.locator(`#proposal-${id}`) });
    await card.getByLabel('Reason for rejecting').fill('Not this one');
    await card.getByRole('button', { name: 'Reject' }).click();
    await page.waitForURL(/done=rejected/);
    assert.equal(await statusOf(order.id), 'NEW_ORDER');
    const listed = await api.get('/api/v1/agent/approvals', { token: admin });
    assert.ok(listed.body.proposals.every((proposal: { id: number }) => proposal.id !== id));
    await close();
  });

  it('refuses a decision whose form does not carry the session’s token (CSRF)', async () => {
    const order = await newOrder();
    const id = await propose(order.id, 'forged');
    const { page, close } = await signedIn();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'tms_approvals')!;
    const forged = await fetch(`${server.baseUrl}/mcp-approvals/${id}/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `tms_approvals=${cookie.value}`,
      },
      body: 'csrf=guess',
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
    assert.equal(await statusOf(order.id), 'NEW_ORDER');
    await close();
  });

  it('passes axe with no serious or critical violation, signed out and in, on a phone and a desktop', async () => {
    await propose((await newOrder()).id, 'accessibility');
    for (const options of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ locale: 'en-US', ...options });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/mcp-approvals`);
      assert.deepEqual(await grave(page), [], 'sign-in form');
      await context.close();
      const { page: queue, close } = await signedIn(options);
      assert.ok((await queue.locator('section.card').count()) > 0);
      assert.deepEqual(await grave(queue), [], 'queue');
      await close();
    }
  });
});
