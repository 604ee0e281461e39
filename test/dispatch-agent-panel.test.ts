import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type AgentTenant, agentServer, agentTenant, orderOf } from './support/agent.ts';
import {
  DESKTOP,
  graveViolations,
  launchBrowser,
  PHONE,
  screenshotWhenAsked,
  signedInPage,
} from './support/browser.ts';
import { PASSWORD } from './support/fixtures.ts';
import type { Client } from './support/http.ts';
import { type ModelReply, type ModelRequest, ScriptedModel } from './support/scripted-model.ts';
import { startInstance, type TestInstance, type TestServer } from './support/server.ts';

/** A script by step: the nth reply once n tool results came back in this turn. */
const bySteps =
  (...steps: Array<(request: ModelRequest) => ModelReply>) =>
  (request: ModelRequest): ModelReply =>
    (steps[request.results.length] ?? steps.at(-1)!)(request);

/** The operations agent's panel of the console's app (src/web/dispatch/agent-panel.ts), in a real (headless) browser. */
describe('the operations agent panel of the dispatch console', () => {
  let model: ScriptedModel;
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let alpha: AgentTenant;

  before(async () => {
    model = await ScriptedModel.start();
    ({ server, api } = await agentServer(model, 'openai'));
    served = await startInstance(server);
    browser = await launchBrowser();
    alpha = await agentTenant(server, api, 'agentpanel');
  });
  beforeEach(() => {
    errors = [];
  });
  afterEach(() => {
    assert.deepEqual(errors, [], 'no page error');
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server.close();
    await model.close();
  });

  /** Every page's uncaught errors: a test fails on any. */
  let errors: string[] = [];
  const signedIn = async (email: string, options = DESKTOP): Promise<Page> => {
    const page = await signedInPage(browser, served, { email, password: PASSWORD }, options, (opened) =>
      opened.on('pageerror', (error) => errors.push(error.message)),
    );
    await page.waitForSelector('#live');
    return page;
  };

  it('sends a turn, shows the tools the agent called and its proposal, and approves it in place', async () => {
    const orderId = await orderOf(api, alpha.admin, { order_ref: 'PANEL-1' });
    const asked = 'Cancel PANEL-1, the customer called.';
    model.script = bySteps(
      () => ({ tool_calls: [{ name: 'find_order', arguments: { order_ref: 'PANEL-1' } }] }),
      () => ({
        tool_calls: [
          {
            name: 'propose_write',
            arguments: {
              tool: 'cancel_order',
              arguments: { order_id: orderId },
              reason: 'The customer called',
            },
          },
        ],
      }),
      () => ({ text: 'I queued the cancellation of PANEL-1 for your approval.' }),
    );
    const page = await signedIn(alpha.tenant.emails.client_admin);
    await page.fill('#agent-text', asked);
    await page.click('#agent-form button[type=submit]');
    const answer = page.locator('#agent-log .turn.agent');
    await answer.waitFor();
    assert.match(await page.locator('#agent-log .turn.mine').innerText(), /Cancel PANEL-1/);
    assert.match(await answer.innerText(), /queued the cancellation of PANEL-1/);
    assert.match(await answer.locator('details.tools summary').innerText(), /Tools it used: 2/);
    await answer.locator('details.tools summary').click();
    assert.match(await answer.locator('details.tools').innerText(), /find_order/);
    const proposal = answer.locator('.proposal');
    assert.match(await proposal.innerText(), /The customer called/);
    assert.match(await proposal.locator('[role=status]').innerText(), /Waiting for approval/);
    assert.deepEqual(await graveViolations(page), []);
    await screenshotWhenAsked(page, 'dispatch-console-agent');

    const before = await api.get(`/api/v1/client/orders/${orderId}`, { token: alpha.admin });
    assert.notEqual(before.body.order.status, 'CANCELLED');
    await proposal.getByRole('button', { name: 'Approve' }).click();
    await proposal
      .getByText('Approved and done')
      .waitFor({ timeout: 10_000 })
      .catch(async (error) => {
        throw new Error(`${error}\n${await proposal.innerText()}`);
      });
    const afterwards = await api.get(`/api/v1/client/orders/${orderId}`, { token: alpha.admin });
    assert.equal(afterwards.body.order.status, 'CANCELLED');
    // The card says so in place, its buttons gone, and every word of the page was sent.
    assert.equal(await proposal.getByRole('button').count(), 0);
    assert.doesNotMatch(await page.locator('body').innerText(), /⟦/);
  });

  it('rejects a proposal from its card, and the order stays as it was', async () => {
    const orderId = await orderOf(api, alpha.admin, { order_ref: 'PANEL-2' });
    model.script = bySteps(
      () => ({
        tool_calls: [
          {
            name: 'propose_write',
            arguments: { tool: 'cancel_order', arguments: { order_id: orderId }, reason: 'Maybe' },
          },
        ],
      }),
      () => ({ text: 'Queued.' }),
    );
    const page = await signedIn(alpha.tenant.emails.client_admin);
    await page.fill('#agent-text', 'Cancel PANEL-2?');
    await page.click('#agent-form button[type=submit]');
    const proposal = page.locator('#agent-log .turn.agent .proposal');
    await proposal.getByRole('button', { name: 'Reject' }).click();
    await proposal.getByText('Rejected').waitFor();
    const id = Number(await proposal.getAttribute('data-proposal'));
    const queued = await api.get('/api/v1/agent/approvals?per_page=100', { token: alpha.admin });
    // The queue lists what waits for a decision: a rejected proposal no more.
    assert.ok(id > 0);
    assert.equal(
      queued.body.proposals.some((one: { id: number }) => one.id === id),
      false,
      JSON.stringify(queued.body).slice(0, 400),
    );
    const order = await api.get(`/api/v1/client/orders/${orderId}`, { token: alpha.admin });
    assert.notEqual(order.body.order.status, 'CANCELLED');
  });

  it('answers in the panel, in the page language, when the turn is refused', async () => {
    model.script = () => ({ text: 'unused' });
    await api.call('PUT', `/api/v1/platform/businesses/${alpha.tenant.businessId}/agent-cap`, {
      token: alpha.platform,
      body: { daily_turns: 0 },
    });
    try {
      const page = await signedIn(alpha.tenant.emails.employee, PHONE);
      await page.goto(`${served.baseUrl}/dispatch?lang=fr`);
      await page.fill('#agent-text', 'Combien de commandes ?');
      await page.click('#agent-form button[type=submit]');
      const refusal = page.locator('#agent-log .turn.refusal');
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /\S/);
      assert.deepEqual(await graveViolations(page), []);
    } finally {
      await api.call('PUT', `/api/v1/platform/businesses/${alpha.tenant.businessId}/agent-cap`, {
        token: alpha.platform,
        body: { daily_turns: null },
      });
    }
  });

  it('shows no panel where the agent family is off', async () => {
    const off = await agentTenant(server, api, 'agentpaneloff', false);
    const page = await signedIn(off.tenant.emails.client_admin);
    await page.waitForSelector('#map');
    assert.equal(await page.locator('#agent-form').count(), 0);
  });
});
