import assert from 'node:assert/strict';
import { SMS_SETTINGS } from './sms.ts';
import { addSubscriber, phone } from './sms-campaigns.ts';
import { a, adminOfB, api, type Checks, listsNothingOfAIn, server, tokenOfA } from './tenancy.ts';

/** SMS marketing on and set up for A and B; A with a subscriber, a segment and a draft campaign. */
let madeOfA: Promise<{ segment: number; campaign: number }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    for (const token of [tokenOfA, adminOfB()]) {
      const on = await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
        token,
        body: { enabled: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const saved = await api.call('PUT', '/api/v1/sms/settings', { token, body: SMS_SETTINGS });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    }
    await addSubscriber(server, a.businessId, { phone: phone(9001), tags: ['vip'] });
    const segment = await api.post(
      '/api/v1/sms/segments',
      { name: 'A VIP', rules: { tags: { any: ['vip'] } } },
      { token: tokenOfA },
    );
    assert.equal(segment.status, 200, JSON.stringify(segment.body));
    const campaign = await api.post(
      '/api/v1/sms/campaigns',
      { name: 'A news', body: 'News of A. STOP to stop', segment_id: segment.body.segment.id },
      { token: tokenOfA },
    );
    assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
    return { segment: segment.body.segment.id as number, campaign: campaign.body.campaign.id as number };
  })());

const asA = async () => ({
  segments: (await api.get('/api/v1/sms/segments', { token: tokenOfA })).body,
  campaigns: (await api.get('/api/v1/sms/campaigns', { token: tokenOfA })).body,
});

type Ids = Awaited<ReturnType<typeof ofA>>;
/** B's admin on one of A's segments or campaigns: refused as unknown, and A's unchanged. */
const refusedToB =
  (method: string, path: (ids: Ids) => string, code: string, body: object = {}) =>
  async () => {
    const ids = await ofA();
    const before = await asA();
    const answer = await api.call(method, path(ids), {
      token: adminOfB(),
      body: method === 'GET' ? undefined : body,
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    assert.deepEqual(await asA(), before);
  };

const campaignMove = (move: string) =>
  refusedToB('POST', (ids) => `/api/v1/sms/campaigns/${ids.campaign}/${move}`, 'SMS_CAMPAIGN_NOT_FOUND');

export const smsCampaignChecks: Checks = {
  // The settings have no id: B reads and writes its own, and A's stay as they were.
  create_sms_segment: async () => {
    await ofA();
    const before = await asA();
    const made = await api.post('/api/v1/sms/segments', { name: 'B', rules: {} }, { token: adminOfB() });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(await asA(), before, 'made in B, not in A');
  },
  list_sms_segments: listsNothingOfAIn(ofA, '/api/v1/sms/segments', 'segments'),
  update_sms_segment: refusedToB(
    'PATCH',
    (ids) => `/api/v1/sms/segments/${ids.segment}`,
    'SMS_SEGMENT_NOT_FOUND',
    { name: 'Taken' },
  ),
  delete_sms_segment: refusedToB(
    'DELETE',
    (ids) => `/api/v1/sms/segments/${ids.segment}`,
    'SMS_SEGMENT_NOT_FOUND',
  ),
  preview_sms_segment: refusedToB(
    'GET',
    (ids) => `/api/v1/sms/segments/${ids.segment}/preview`,
    'SMS_SEGMENT_NOT_FOUND',
  ),
  create_sms_campaign: async () => {
    const ids = await ofA();
    const before = await asA();
    const made = await api.post(
      '/api/v1/sms/campaigns',
      { name: 'B on A', body: 'Hello', segment_id: ids.segment },
      { token: adminOfB() },
    );
    assert.equal(made.status, 404, JSON.stringify(made.body));
    assert.equal(made.body.error_code, 'SMS_SEGMENT_NOT_FOUND');
    assert.deepEqual(await asA(), before);
  },
  get_sms_campaign: refusedToB(
    'GET',
    (ids) => `/api/v1/sms/campaigns/${ids.campaign}`,
    'SMS_CAMPAIGN_NOT_FOUND',
  ),
  update_sms_campaign: refusedToB(
    'PATCH',
    (ids) => `/api/v1/sms/campaigns/${ids.campaign}`,
    'SMS_CAMPAIGN_NOT_FOUND',
    { body: 'Hijacked' },
  ),
  preview_sms_campaign: refusedToB(
    'GET',
    (ids) => `/api/v1/sms/campaigns/${ids.campaign}/preview`,
    'SMS_CAMPAIGN_NOT_FOUND',
  ),
  schedule_sms_campaign: refusedToB(
    'POST',
    (ids) => `/api/v1/sms/campaigns/${ids.campaign}/schedule`,
    'SMS_CAMPAIGN_NOT_FOUND',
    { at: '2027-01-01T10:00:00Z' },
  ),
  start_sms_campaign: campaignMove('start'),
  pause_sms_campaign: campaignMove('pause'),
  resume_sms_campaign: campaignMove('resume'),
  cancel_sms_campaign: campaignMove('cancel'),
};
