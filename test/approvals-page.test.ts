import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { DESKTOP, graveViolations, launchBrowser, PHONE } from './support/browser.ts';
import { createTenant, DROPOFF, issuedToken, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The approval queue's page in a real (headless) browser, on a phone and a desktop. */
describe('approval page /mcp-approvals', () => {
  let server: TestServer;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;

  const newOrder = async (extra: Record<string, unknown> = {}) =>
    (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF, ...extra }, { token: admin })).body
      .orders[0] as { id: number; order_ref: string };
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
  const setCookie = (response: Response, name: string) =>
    response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0]!)
      .find((pair) => pair.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  /** Signs in through the page's form, as a browser without script does; answers the session cookie. */
  const formSignIn = async (email: string) => {
    const form = await fetch(`${server.baseUrl}/mcp-approvals`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedIn = await fetch(`${server.baseUrl}/mcp-approvals/sign-in`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `tms_approvals_csrf=${setCookie(form, 'tms_approvals_csrf')}`,
      },
      body: new URLSearchParams({ csrf, email, password: PASSWORD }).toString(),
      redirect: 'manual',
    });
    return { status: signedIn.status, session: setCookie(signedIn, 'tms_approvals') };
  };
  /** The page as a cookie opens it: the queue (with its forms' CSRF token) or the sign-in form. */
  const pageWith = async (session: string) => {
    const response = await fetch(`${server.baseUrl}/mcp-approvals`, {
      headers: { cookie: `tms_approvals=${session}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      queue: text.includes('/mcp-approvals/sign-out'),
      csrf: /name="csrf" value="([^"]+)"/.exec(text)?.[1],
      cleared: setCookie(response, 'tms_approvals') === '',
    };
  };
  const sessionRow = async (session: string) =>
    await server.db
      .selectFrom('approval_page_sessions')
      .selectAll()
      .where('session_hash', '=', createHash('sha256').update(session).digest())
      .executeTakeFirst();
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
    // The cookie holds the page's own session id, stored only as its digest: not a bearer token.
    assert.ok(await sessionRow(session!.value));
    const asBearer = await api.get('/api/v1/user/me', { token: session!.value });
    assert.equal(asBearer.status, 401);
    await close();
  });

  it('opens for no bearer token put in the cookie: an agent’s or a person’s', async () => {
    const agent = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'ops-write',
    });
    for (const token of [agent, admin]) {
      const shown = await pageWith(token);
      assert.equal(shown.queue, false);
      assert.match(shown.text, /type="password"/);
      assert.ok(shown.cleared);
    }
  });

  it('ends a session at sign-out, after 8 idle hours, and 12 hours after sign-in; pruning drops ended ones', async () => {
    const hours = (count: number) => server.clock.advance(count * 3_600_000);

    const busy = await formSignIn(tenant.emails.client_admin);
    assert.equal(busy.status, 303);
    hours(7);
    assert.ok((await pageWith(busy.session!)).queue, 'used within 8 hours');
    hours(4.5);
    assert.ok((await pageWith(busy.session!)).queue, 'used again, 11.5 hours after sign-in');
    hours(1);
    assert.equal((await pageWith(busy.session!)).queue, false, 'over 12 hours after sign-in');

    const idle = (await formSignIn(tenant.emails.employee)).session!;
    hours(8);
    assert.equal((await pageWith(idle)).queue, false, '8 hours idle');

    const leaving = (await formSignIn(tenant.emails.client_admin)).session!;
    const before = await pageWith(leaving);
    assert.ok(before.queue);
    const signedOut = await fetch(`${server.baseUrl}/mcp-approvals/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `tms_approvals=${leaving}` },
      body: `csrf=${before.csrf}`,
      redirect: 'manual',
    });
    assert.equal(signedOut.status, 303);
    assert.equal(setCookie(signedOut, 'tms_approvals'), '');
    assert.ok((await sessionRow(leaving))?.revoked_at);
    assert.equal((await pageWith(leaving)).queue, false, 'signed out');

    const live = (await formSignIn(tenant.emails.client_admin)).session!;
    await server.app.services.approvals.sessions.prune(server.db);
    for (const ended of [busy.session!, idle, leaving]) assert.equal(await sessionRow(ended), undefined);
    assert.ok((await pageWith(live)).queue);
  });

  it('signs out an account that may not review, saying why', async () => {
    const customer = await formSignIn(tenant.emails.customer);
    const shown = await pageWith(customer.session!);
    assert.equal(shown.status, 403);
    assert.equal(shown.queue, false);
    assert.ok(shown.cleared);
    assert.ok((await sessionRow(customer.session!))?.revoked_at);
  });

  it('shows a pending proposal in a dispatcher’s words, and approving it runs it', async () => {
    const order = await newOrder({ customer_id: tenant.userIds.customer });
    const id = await propose(order.id, 'The customer asked us to wait');
    const proposal = (await api.get('/api/v1/agent/approvals', { token: admin })).body.proposals.find(
      (listed: { id: number }) => listed.id === id,
    );
    const { page, close } = await signedIn(DESKTOP);
    const card = page.locator('section', { has: page.locator(`#proposal-${id}`) });
    const hold = server.app.catalog.list().find((operation) => operation.tool?.user === 'hold_order');
    assert.equal(await card.locator('h3').innerText(), hold?.summary);
    const text = await card.innerText();
    assert.match(text, /The customer asked us to wait/);
    assert.match(text, new RegExp(`Order\\s+${order.order_ref}\\s+Customer: customer of ${tenant.code}`));
    // The raw tool name and preview are there only for whoever opens the details.
    assert.doesNotMatch(await card.locator('h4 + dl').innerText(), /order_id/);
    // Proposed at, in the business's time (Asia/Shanghai), not UTC.
    const local = new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Shanghai',
    }).format(new Date(proposal.proposed_at));
    assert.match(text, new RegExp(`Proposed\\s+.*${local} GMT\\+8`));
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

  it('fits a 390 px phone with real proposals listed: no horizontal overflow', async () => {
    const order = await newOrder();
    await propose(order.id, 'The customer called: keep it until Monday');
    const agent = await issuedToken(server, { userId: tenant.userIds.employee, kind: 'agent' });
    const rerouted = await api.post(
      '/api/v1/agent/approvals',
      {
        tool: 'reroute_to_address',
        arguments: {
          order_id: order.id,
          dropoff: {
            ...DROPOFF,
            line1: 'Résidence-des-Tilleuls-Bâtiment-C-Escalier-4-Porte-12-Interphone-Dupont',
          },
        },
        reason: 'New address from the customer',
      },
      { token: agent },
    );
    assert.equal(rerouted.status, 200, JSON.stringify(rerouted.body));
    const { page, close } = await signedIn(PHONE);
    assert.ok((await page.locator('section.card').count()) >= 2);
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    const beyond = await page.evaluate(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 390)
        .map((e) => e.tagName.toLowerCase() + '.' + e.className).slice(0, 8).join(', ')`,
    );
    assert.ok(width <= 390, `the page is ${width} px wide: ${beyond}`);
    await close();
  });

  it('passes axe with no serious or critical violation, signed out and in, on a phone and a desktop', async () => {
    await propose((await newOrder()).id, 'accessibility');
    for (const options of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ locale: 'en-US', ...options });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/mcp-approvals`);
      assert.deepEqual(await graveViolations(page), [], 'sign-in form');
      await context.close();
      const { page: queue, close } = await signedIn(options);
      assert.ok((await queue.locator('section.card').count()) > 0);
      assert.deepEqual(await graveViolations(queue), [], 'queue');
      await close();
    }
  });
});
