import assert from 'node:assert/strict';
import { SMS_SETTINGS } from './sms.ts';
import { addCampaign, addOfferCode, addRecipient, addSubscribers } from './sms-reports.ts';
import { a, adminOfB, api, type Checks, listsNothingOfAIn, server, tokenOfA } from './tenancy.ts';

const SENDER_OF_A = '+33711111111';

/** SMS marketing on and set up for A and B, and a campaign of A's with a delivered message and a code. */
let madeOfA: Promise<{ campaign: number; code: string }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    for (const [token, sender] of [
      [tokenOfA, SENDER_OF_A],
      [adminOfB(), '+33799999999'],
    ] as const) {
      const on = await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
        token,
        body: { enabled: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const saved = await api.call('PUT', '/api/v1/sms/settings', {
        token,
        body: { ...SMS_SETTINGS, sender },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    }
    const [subscriber] = await addSubscribers(server, a.businessId, ['+33650000001']);
    const campaign = await addCampaign(server, a.businessId, 'Only in A');
    await addRecipient(server, a.businessId, campaign, subscriber!, {
      state: 'delivered',
      message: 'delivered',
    });
    const expires = new Date(server.clock.now().getTime() + 86_400_000);
    const code = await addOfferCode(server, a.businessId, campaign, subscriber!, expires);
    return { campaign, code };
  })());

const reportOfA = async (campaign: number) =>
  (await api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: tokenOfA })).body;

export const smsReportChecks: Checks = {
  // The family's settings (foundation) are checked here too: B reads and writes only its own.
  list_sms_campaigns: listsNothingOfAIn(ofA, '/api/v1/sms/campaigns', 'campaigns'),
  get_sms_campaign_report: async () => {
    const { campaign } = await ofA();
    const answer = await api.get(`/api/v1/sms/campaigns/${campaign}/report`, { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'SMS_CAMPAIGN_NOT_FOUND');
  },
  redeem_sms_offer_code: async () => {
    const { campaign, code } = await ofA();
    const before = await reportOfA(campaign);
    const answer = await api.post('/api/v1/sms/offer-codes/redeem', { code }, { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'SMS_OFFER_CODE_NOT_FOUND');
    assert.deepEqual(await reportOfA(campaign), before, "A's code is still unredeemed");
    assert.equal(before.offer_codes.redeemed, 0);
  },
};
