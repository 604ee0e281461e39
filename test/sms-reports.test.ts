import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { login } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { type SmsBusiness, smsBusiness } from './support/sms.ts';
import {
  addBigCampaign,
  addCampaign,
  addOfferCode,
  addRecipient,
  addSubscribers,
  unsubscribe,
} from './support/sms-reports.ts';

const HOUR = 3_600_000;

describe('SMS campaign reports and offer code redemption', () => {
  let server: TestServer;
  let a: SmsBusiness;
  let b: SmsBusiness;

  before(async () => {
    server = await startTestServer();
    a = await smsBusiness(server, 'sms-rep-a', { segment_cost: { amount: 0.0075, currency: 'EUR' } });
    b = await smsBusiness(server, 'sms-rep-b');
  });

  after(async () => {
    await server?.close();
  });

  const redeem = (
    business: SmsBusiness,
    code: string,
    extra: Record<string, unknown> = {},
    token = business.admin,
  ) => business.api.post('/api/v1/sms/offer-codes/redeem', { code, ...extra }, { token });

  it('counts recipients by state, skips by reason, messages, segments and cost, later unsubscribes, codes', async () => {
    const businessId = a.tenant.businessId;
    const s = await addSubscribers(
      server,
      businessId,
      Array.from({ length: 9 }, (_, i) => `+3361000000${i}`),
    );
    // Unsubscribed before the campaign wrote its message: not "after it".
    await unsubscribe(server, businessId, s[2]!);
    server.clock.advance(HOUR);
    const campaign = await addCampaign(server, businessId, 'Spring sale');
    await addRecipient(server, businessId, campaign, s[0]!, {
      state: 'delivered',
      message: 'delivered',
      segments: 2,
    });
    await addRecipient(server, businessId, campaign, s[1]!, {
      state: 'delivered',
      message: 'delivered',
      segments: 2,
    });
    await addRecipient(server, businessId, campaign, s[2]!, { state: 'sent', message: 'sent', segments: 2 });
    // Refused by the provider: never sent.
    await addRecipient(server, businessId, campaign, s[3]!, {
      state: 'failed',
      reason: 'provider_refused',
      message: 'failed',
      segments: 2,
    });
    // Taken by the provider, then not delivered: sent and failed.
    await addRecipient(server, businessId, campaign, s[4]!, {
      state: 'failed',
      message: 'failed',
      segments: 2,
    });
    await addRecipient(server, businessId, campaign, s[5]!, { state: 'skipped', reason: 'unconfirmed' });
    await addRecipient(server, businessId, campaign, s[6]!, { state: 'skipped', reason: 'cap_week' });
    await addRecipient(server, businessId, campaign, s[7]!, { state: 'skipped', reason: 'cap_week' });
    await addRecipient(server, businessId, campaign, s[8]!, { state: 'deferred', reason: 'quiet_hours' });
    const expires = new Date(server.clock.now().getTime() + 24 * HOUR);
    const codes = [];
    for (const subscriber of s.slice(0, 4))
      codes.push(await addOfferCode(server, businessId, campaign, subscriber, expires));
    server.clock.advance(HOUR);
    await unsubscribe(server, businessId, s[1]!);
    assert.equal((await redeem(a, codes[0]!)).status, 200);
    // Another campaign of the business: its figures stay its own.
    const other = await addCampaign(server, businessId, 'Autumn sale', { status: 'sending' });
    await addRecipient(server, businessId, other, s[0]!, { state: 'sent', message: 'sent', segments: 1 });

    const report = await a.api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: a.admin });
    assert.equal(report.status, 200, JSON.stringify(report.body));
    assert.equal(report.body.campaign.name, 'Spring sale');
    assert.deepEqual(report.body.recipients, {
      total: 9,
      queued: 0,
      deferred: 1,
      sent: 1,
      delivered: 2,
      failed: 2,
      skipped: 3,
    });
    assert.deepEqual(report.body.skipped_by_reason, [
      { reason: 'cap_week', recipients: 2 },
      { reason: 'unconfirmed', recipients: 1 },
    ]);
    assert.deepEqual(report.body.messages, { queued: 0, sent: 4, delivered: 2, failed: 2, segments_sent: 8 });
    assert.deepEqual(report.body.cost, { amount: 0.06, currency: 'EUR' });
    assert.equal(report.body.unsubscribed_after, 1, 'only the STOP after the message counts');
    assert.deepEqual(report.body.offer_codes, { issued: 4, redeemed: 1 });

    const employee = await login(a.api, a.tenant.emails.employee);
    const list = await a.api.get('/api/v1/sms/campaigns?per_page=1', { token: employee });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.total, 2);
    assert.equal(list.body.campaigns.length, 1);
    assert.equal(list.body.campaigns[0].id, other, 'newest first');
    assert.equal(list.body.campaigns[0].sent, 1);
    const second = await a.api.get('/api/v1/sms/campaigns?per_page=1&page=2', { token: employee });
    assert.deepEqual(
      [second.body.campaigns[0].id, second.body.campaigns[0].sent, second.body.campaigns[0].delivered],
      [campaign, 4, 2],
    );
    const sending = await a.api.get('/api/v1/sms/campaigns?status=sending', { token: employee });
    assert.deepEqual(
      sending.body.campaigns.map((c: { id: number }) => c.id),
      [other],
    );

    const missing = await a.api.get('/api/v1/sms/campaigns/999999/report', { token: a.admin });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error_code, 'SMS_CAMPAIGN_NOT_FOUND');
  });

  it('counts a campaign of 100,000 recipients', async () => {
    const campaign = await addBigCampaign(server, b.tenant.businessId, 100_000);
    const report = await b.api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: b.admin });
    assert.equal(report.status, 200, JSON.stringify(report.body));
    assert.equal(report.body.recipients.total, 100_000);
    assert.equal(report.body.recipients.delivered, 90_000);
    assert.deepEqual(report.body.messages, {
      queued: 0,
      sent: 100_000,
      delivered: 90_000,
      failed: 10_000,
      segments_sent: 200_000,
    });
    const list = await b.api.get('/api/v1/sms/campaigns', { token: b.admin });
    assert.deepEqual([list.body.campaigns[0].sent, list.body.campaigns[0].delivered], [100_000, 90_000]);
  });

  it('redeems a code once, of 10 redemptions at the same moment', async () => {
    const businessId = a.tenant.businessId;
    const [subscriber] = await addSubscribers(server, businessId, ['+33620000001']);
    const campaign = await addCampaign(server, businessId, 'Flash');
    const code = await addOfferCode(
      server,
      businessId,
      campaign,
      subscriber!,
      new Date(server.clock.now().getTime() + HOUR),
    );
    const employee = await login(a.api, a.tenant.emails.employee);
    // Typed as a person reads it off a phone: lower case, spaced.
    const typed = `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => redeem(a, i % 2 ? typed : code, {}, i % 2 ? employee : a.admin)),
    );
    const won = answers.filter((answer) => answer.status === 200);
    assert.equal(won.length, 1, JSON.stringify(answers.map((answer) => answer.status)));
    assert.equal(won[0]!.body.redemption.campaign_id, campaign);
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      assert.equal(lost.status, 409, JSON.stringify(lost.body));
      assert.equal(lost.body.error_code, 'SMS_OFFER_CODE_REDEEMED');
      assert.equal(lost.body.details.order_id, won[0]!.body.redemption.order_id);
    }
    const report = await a.api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: a.admin });
    assert.deepEqual(report.body.offer_codes, { issued: 1, redeemed: 1 });
  });

  it('refuses an expired code (410), an unknown one and another business’s (404), in the caller’s language', async () => {
    const businessId = a.tenant.businessId;
    const [first, second] = await addSubscribers(server, businessId, ['+33630000001', '+33630000002']);
    const campaign = await addCampaign(server, businessId, 'Weekend');
    const expiresAt = new Date(server.clock.now().getTime() + HOUR);
    const expiring = await addOfferCode(server, businessId, campaign, first!, expiresAt);
    const kept = await addOfferCode(server, businessId, campaign, second!, expiresAt);
    server.clock.advance(2 * HOUR);
    const expired = await a.api.post(
      '/api/v1/sms/offer-codes/redeem',
      { code: expiring },
      { token: a.admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(expired.status, 410, JSON.stringify(expired.body));
    assert.equal(expired.body.error_code, 'SMS_OFFER_CODE_EXPIRED');
    assert.equal(expired.body.details.expires_at, expiresAt.toISOString());
    assert.match(expired.body.message, /a expiré/);
    const unknown = await redeem(a, 'ZZZZ2222');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'SMS_OFFER_CODE_NOT_FOUND');
    // B cannot redeem (nor learn anything of) A's code; A's code is still good for A... had it not expired.
    const foreign = await redeem(b, kept);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error_code, 'SMS_OFFER_CODE_NOT_FOUND');
    const foreignExpired = await redeem(b, expiring);
    assert.equal(foreignExpired.status, 404, 'not even told it expired');
  });

  it('are read tools of the user agent server, scoped to the business', async () => {
    const [subscriber] = await addSubscribers(server, a.tenant.businessId, ['+33640000001']);
    const campaign = await addCampaign(server, a.tenant.businessId, 'Agent-visible');
    await addRecipient(server, a.tenant.businessId, campaign, subscriber!, {
      state: 'delivered',
      message: 'delivered',
    });
    const connect = async (token: string) => {
      const mcp = new Client({ name: 'sms-reports-test', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return mcp;
    };
    const employee = await connect(await login(a.api, a.tenant.emails.employee));
    const other = await connect(b.admin);
    try {
      const { tools } = await employee.listTools();
      for (const name of ['list_sms_campaigns', 'get_sms_campaign_report']) {
        const tool = tools.find((t) => t.name === name);
        assert.ok(tool, `${name} is listed`);
        assert.equal(tool.annotations?.readOnlyHint, true);
      }
      const listed = await employee.callTool({ name: 'list_sms_campaigns', arguments: { per_page: 200 } });
      assert.notEqual(listed.isError, true, JSON.stringify(listed.structuredContent));
      const campaigns = (listed.structuredContent as { campaigns: Array<{ id: number; delivered: number }> })
        .campaigns;
      assert.equal(campaigns.find((c) => c.id === campaign)?.delivered, 1);
      const report = await employee.callTool({
        name: 'get_sms_campaign_report',
        arguments: { campaign_id: campaign },
      });
      assert.deepEqual(
        (report.structuredContent as { recipients: { delivered: number } }).recipients.delivered,
        1,
      );
      // Another business's agent neither reads the report nor sees the campaign in its list.
      const foreign = await other.callTool({
        name: 'get_sms_campaign_report',
        arguments: { campaign_id: campaign },
      });
      assert.equal(foreign.isError, true);
      assert.equal(
        (foreign.structuredContent as { error_code: string }).error_code,
        'SMS_CAMPAIGN_NOT_FOUND',
      );
      const theirs = await other.callTool({ name: 'list_sms_campaigns', arguments: {} });
      const ids = (theirs.structuredContent as { campaigns: Array<{ id: number }> }).campaigns.map(
        (c) => c.id,
      );
      assert.ok(!ids.includes(campaign), JSON.stringify(ids));
    } finally {
      await employee.close();
      await other.close();
    }
  });
});
