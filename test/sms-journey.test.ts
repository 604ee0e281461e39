import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { type SmsStandIn, startSmsStandIn } from '../src/modules/sms/index.ts';
import { client } from './support/http.ts';
import { eventually } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { type SmsBusiness, smsBusiness } from './support/sms.ts';
import { campaignAction, createCampaign } from './support/sms-campaigns.ts';
import { postGeneric } from './support/sms-subscribers.ts';

const SECRET = 'journey-signing-key';

/**
 * One subscriber's whole way through real parts: the business's generic HTTP provider is a
 * stand-in on loopback that takes signed messages and reports deliveries back, signed.
 */
describe('SMS marketing, end to end through a provider over HTTP', () => {
  let server: TestServer;
  let standIn: SmsStandIn;
  let business: SmsBusiness;
  const phone = '+33655500001';

  before(async () => {
    const { sms } = loadConfig({ LOG_LEVEL: 'silent' });
    server = await startTestServer({ sms: { ...sms, allow: { ...sms.allow, loopback: true } } });
    await server.app.startBackground(server.pool);
    standIn = await startSmsStandIn({ secret: SECRET });
    business = await smsBusiness(server, 'sms-journey', {
      provider: { kind: 'generic', url: standIn.url, secret: SECRET },
    });
  });

  after(async () => {
    await standIn?.close();
    await server?.close();
  });

  const taken = (to: string, count: number) =>
    eventually(() => {
      server.app.outbox.poke();
      const found = standIn.messages.filter((message) => message.to === to);
      return found.length >= count ? found : undefined;
    }, `${count} messages to ${to} at the provider`);

  const reportOf = async (campaign: number) =>
    (await business.api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: business.admin })).body;

  it('subscribes on the form, confirms by reply, gets a campaign with a code, is delivered, redeems, and a STOP ends it all', async () => {
    const api = client(server.baseUrl);
    // 09:30 in Paris on the test clock: outside quiet hours.
    const form = await api.post(`/api/v1/sms/subscribe/${business.tenant.code}`, {
      phone: '06 55 50 00 01',
      consent: true,
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const [confirmation] = await taken(phone, 1);
    assert.match(confirmation!.text, /Répondez OUI/, 'in the language of a French number');

    // Before the reply, a campaign skips the number.
    const early = await createCampaign(business, { name: 'Too early', body: 'Sunday opening!' });
    await campaignAction(business, early.id, 'start');
    const skipped = await eventually(async () => {
      const report = await reportOf(early.id);
      return report.recipients?.skipped === 1 ? report : undefined;
    }, 'the first campaign skipping the pending number');
    assert.equal(skipped.messages.sent, 0);

    const yes = await postGeneric(
      business.api,
      business.tenant.businessId,
      'inbound',
      { id: 'in-1', from: phone, to: '+33700000000', text: 'oui' },
      { secret: SECRET },
    );
    assert.equal(yes.status, 200, JSON.stringify(yes.body));

    const offer = await createCampaign(business, {
      name: 'Come back',
      body: '10% off your next delivery with {offer_code}. STOP to stop',
      offer_expires_at: new Date(server.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    await campaignAction(business, offer.id, 'start');
    const [, message] = await taken(phone, 2);
    const code = /with ([A-Z0-9]{8})\./.exec(message!.text)?.[1];
    assert.ok(code, `an offer code in "${message!.text}"`);

    // The provider reports the delivery back, signed: the report counts it.
    const statusUrl = `${server.baseUrl}/api/v1/sms/status/${business.tenant.businessId}/generic`;
    assert.deepEqual(await standIn.reportStatuses(statusUrl, [message!], 'delivered'), [200]);
    // An order named must be the business's own: nothing is redeemed otherwise.
    const elsewhere = await business.api.post(
      '/api/v1/sms/offer-codes/redeem',
      { code: code!, order_id: 999_999 },
      { token: business.admin },
    );
    assert.equal(elsewhere.status, 404, JSON.stringify(elsewhere.body));
    assert.equal(elsewhere.body.error_code, 'ORDER_NOT_FOUND');
    const order = await business.api.post(
      '/api/v1/client/orderCreate',
      {
        type: 'D',
        dropoff: { line1: '1 Rue de Rivoli', city: 'Paris', phone },
        packages: [{ weight_grams: 900 }],
      },
      { token: business.admin },
    );
    assert.equal(order.status, 200, JSON.stringify(order.body));
    const redeemed = await business.api.post(
      '/api/v1/sms/offer-codes/redeem',
      { code: code!.toLowerCase(), order_id: order.body.order_id },
      { token: business.admin },
    );
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.equal(redeemed.body.redemption.order_id, order.body.order_id);
    const report = await reportOf(offer.id);
    assert.equal(report.messages.delivered, 1, JSON.stringify(report));
    assert.equal(report.offer_codes.redeemed, 1, JSON.stringify(report));

    // STOP in German: one confirmation, and the next campaign skips the number.
    const stop = await postGeneric(
      business.api,
      business.tenant.businessId,
      'inbound',
      { id: 'in-2', from: phone, to: '+33700000000', text: ' stopp ' },
      { secret: SECRET },
    );
    assert.equal(stop.status, 200);
    await taken(phone, 3);
    server.clock.advance(2 * 86_400_000);
    const after = await createCampaign(business, { name: 'After the STOP', body: 'We miss you' });
    await campaignAction(business, after.id, 'start');
    const last = await eventually(async () => {
      const read = await reportOf(after.id);
      return read.recipients?.skipped === 1 ? read : undefined;
    }, 'the campaign after the STOP skipping the number');
    assert.equal(last.messages.sent, 0);
    assert.deepEqual(last.skipped_by_reason, [{ reason: 'unsubscribed', recipients: 1 }]);
    assert.equal(report.unsubscribed_after, 0, 'read before the STOP');
    assert.equal((await reportOf(offer.id)).unsubscribed_after, 1, 'the STOP came after this campaign');
    assert.equal(
      standIn.messages.filter((m) => m.to === phone).length,
      3,
      'nothing after the STOP confirmation',
    );
  });
});
