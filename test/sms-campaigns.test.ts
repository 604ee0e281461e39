import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './support/server.ts';
import { RecordingSmsProviders } from './support/sms.ts';
import {
  addSubscriber,
  campaignAction,
  campaignBusiness,
  createCampaign,
  phone,
  writtenCounts,
} from './support/sms-campaigns.ts';

const DAY = 86_400_000;

describe('SMS segments and campaigns: rules, previews, dry runs and the campaign course', () => {
  let server: TestServer;
  const providers = new RecordingSmsProviders();
  let business: Awaited<ReturnType<typeof campaignBusiness>>;
  const ids: Record<string, number> = {};

  before(async () => {
    server = await startTestServer({}, { smsProviders: providers });
    business = await campaignBusiness(server, 'sms-campaigns', {
      segment_cost: { amount: 0.05, currency: 'EUR' },
    });
    const add = async (name: string, seed: Parameters<typeof addSubscriber>[2]) => {
      ids[name] = await addSubscriber(server, business.businessId, seed);
    };
    await add('ana', {
      phone: phone(1),
      tags: ['vip', 'lyon'],
      language: 'fr',
      attributes: { first_name: 'Ana' },
    });
    await add('bob', {
      phone: phone(2),
      tags: ['vip'],
      language: 'en',
      attributes: { first_name: 'Bartholomew' },
    });
    await add('chen', {
      phone: phone(3),
      tags: ['lyon'],
      language: 'zh-Hans',
      attributes: { first_name: '晨' },
    });
    await add('dana', { phone: phone(4), tags: [], language: 'fr', attributes: { plan: 'gold' } });
    await add('eve', { phone: phone(5), tags: ['vip'], status: 'pending' });
    await add('fay', { phone: phone(6), tags: ['vip'], status: 'unsubscribed' });
  });
  after(async () => {
    await server?.close();
  });

  const segment = async (rules: object) => {
    const made = await business.api.post(
      '/api/v1/sms/segments',
      { name: 'S', rules },
      { token: business.admin },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return made.body.segment.id as number;
  };
  const preview = async (rules: object) => {
    const id = await segment(rules);
    const read = await business.api.get(`/api/v1/sms/segments/${id}/preview`, { token: business.admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    return read.body as { count: number; subscribers: Array<{ id: number; phone: string }> };
  };
  const namesOf = (answer: { subscribers: Array<{ id: number }> }) =>
    answer.subscribers.map((one) => Object.keys(ids).find((name) => ids[name] === one.id));

  it('counts confirmed subscribers only, over tags (any, all, none), attributes and language', async () => {
    assert.deepEqual(namesOf(await preview({})), ['ana', 'bob', 'chen', 'dana']);
    assert.deepEqual(
      namesOf(await preview({ tags: { any: ['vip'] } })),
      ['ana', 'bob'],
      'eve and fay never count',
    );
    assert.deepEqual(namesOf(await preview({ tags: { all: ['vip', 'lyon'] } })), ['ana']);
    assert.deepEqual(namesOf(await preview({ tags: { none: ['vip'] } })), ['chen', 'dana']);
    assert.deepEqual(namesOf(await preview({ attributes: { plan: 'gold' } })), ['dana']);
    assert.deepEqual(namesOf(await preview({ languages: ['fr', 'en'], tags: { any: ['vip'] } })), [
      'ana',
      'bob',
    ]);
    const masked = await preview({ tags: { all: ['vip', 'lyon'] } });
    assert.equal(masked.count, 1);
    assert.equal(masked.subscribers[0]!.phone, '+33•••••••01', 'masked but for the country code and the end');
  });

  it('refuses rules it does not know, naming them', async () => {
    const wrong = await business.api.post(
      '/api/v1/sms/segments',
      { name: 'S', rules: { tags: { some: ['vip'] } } },
      { token: business.admin },
    );
    assert.equal(wrong.status, 422, JSON.stringify(wrong.body));
    assert.match(JSON.stringify(wrong.body.details), /some|tags/);
  });

  it('matches order history on the recipient phone, read as typed and normalised to E.164', async () => {
    const order = async (typed: string) => {
      const made = await business.api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: '1 rue de la Paix', city: 'Paris', phone: typed } },
        { token: business.admin },
      );
      assert.equal(made.status, 200, JSON.stringify(made.body));
      return made.body.order_id as number;
    };
    // Ana's number as people type it in France; Bob's with its country code and spaces.
    const anas = await order('06 10 00 00 01');
    const bobs = await order('+33 6 10 00 00 02');
    // Ana's order was delivered yesterday; Bob's is on its way.
    const yesterday = new Date(server.clock.now().getTime() - DAY);
    await sql`INSERT INTO order_events (business_id, order_id, at, actor_user_id, source, action, changes)
      VALUES (${business.businessId}, ${anas}, ${yesterday}, NULL, 'rest', 'status',
        '{"status": {"from": "OUT_FOR_DELIVERY", "to": "DELIVERED"}}')`.execute(server.db);
    await sql`UPDATE orders SET status = 'DELIVERED' WHERE id = ${anas}`.execute(server.db);
    assert.deepEqual(namesOf(await preview({ delivered_within_days: 30 })), ['ana']);
    assert.deepEqual(namesOf(await preview({ ordered_within_days: 30 })), ['ana', 'bob']);
    assert.deepEqual(namesOf(await preview({ no_order_within_days: 90 })), ['chen', 'dana']);
    // An order made 100 days ago is outside 90 days.
    await sql`UPDATE orders SET created_at = ${new Date(server.clock.now().getTime() - 100 * DAY)} WHERE id = ${bobs}`.execute(
      server.db,
    );
    assert.deepEqual(namesOf(await preview({ no_order_within_days: 90 })), ['bob', 'chen', 'dana']);
    assert.deepEqual(namesOf(await preview({ ordered_within_days: 90 })), ['ana']);
  });

  it('lists, renames and deletes segments; one a campaign still to send uses stays', async () => {
    const id = await segment({ tags: { any: ['lyon'] } });
    const renamed = await business.api.call('PATCH', `/api/v1/sms/segments/${id}`, {
      token: business.admin,
      body: { name: 'Lyon' },
    });
    assert.equal(renamed.body.segment.name, 'Lyon');
    assert.deepEqual(renamed.body.segment.rules, { tags: { any: ['lyon'] } });
    const listed = await business.api.get('/api/v1/sms/segments?per_page=200', { token: business.admin });
    assert.ok(listed.body.segments.some((one: { id: number }) => one.id === id));
    const campaign = await createCampaign(business, { name: 'Lyon', body: 'Lyon news', segment_id: id });
    const refused = await business.api.call('DELETE', `/api/v1/sms/segments/${id}`, {
      token: business.admin,
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'SMS_SEGMENT_IN_USE');
    await campaignAction(business, campaign.id, 'cancel');
    const deleted = await business.api.call('DELETE', `/api/v1/sms/segments/${id}`, {
      token: business.admin,
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const gone = await business.api.get(`/api/v1/sms/segments/${id}/preview`, { token: business.admin });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'SMS_SEGMENT_NOT_FOUND');
  });

  it('refuses unknown fields naming them, an offer code without expiry, and a body over 10 segments', async () => {
    const post = (body: object) =>
      business.api.post('/api/v1/sms/campaigns', body, { token: business.admin });
    const unknown = await post({ name: 'X', body: 'Hi {firstname}!' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.details.fields[0].field, 'body');
    assert.match(unknown.body.details.fields[0].message, /\{firstname\}/);
    const noExpiry = await post({ name: 'X', body: 'Code {offer_code}' });
    assert.equal(noExpiry.status, 422);
    assert.equal(noExpiry.body.details.fields[0].field, 'offer_expires_at');
    const long = await post({ name: 'X', body: 'é€中'.repeat(230) });
    assert.equal(long.status, 422, JSON.stringify(long.body));
    assert.match(long.body.details.fields[0].message, /segments/);
  });

  it('previews a campaign (recipients, segments at the longest fill, encoding, cost) and writes and sends nothing', async () => {
    const vip = await segment({ tags: { any: ['vip', 'lyon'] } });
    const campaign = await createCampaign(business, {
      name: 'Dry',
      body: `Hello {first_name}, ${'x'.repeat(120)} {offer_code}`,
      segment_id: vip,
      offer_expires_at: new Date(server.clock.now().getTime() + 7 * DAY).toISOString(),
    });
    const before = await writtenCounts(server);
    const sentBefore = providers.sent.length;
    const answer = await business.api.get(`/api/v1/sms/campaigns/${campaign.id}/preview`, {
      token: business.admin,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    // Ana, Bob and Chen; Chen's 晨 makes the longest message UCS-2: 6 + 11 + 2 + 120 + 1 + 8 = 148 > 70.
    assert.equal(answer.body.recipients, 3);
    assert.equal(answer.body.encoding, 'UCS-2');
    assert.equal(answer.body.characters_per_message, 6 + 11 + 2 + 120 + 1 + 8);
    assert.equal(answer.body.segments_per_message, 3);
    assert.equal(answer.body.total_segments, 9);
    assert.deepEqual(answer.body.estimated_cost, { amount: 0.45, currency: 'EUR' });
    await server.app.outbox.drainOnce();
    assert.deepEqual(await writtenCounts(server), before, 'nothing written');
    assert.equal(providers.sent.length, sentBefore, 'nothing sent');
    const read = await business.api.get(`/api/v1/sms/campaigns/${campaign.id}`, { token: business.admin });
    assert.equal(read.body.campaign.status, 'draft');
  });

  it('changes a campaign only while a draft, and moves it only where it can go', async () => {
    const campaign = await createCampaign(business, { name: 'Course', body: 'Hi {first_name}' });
    const edited = await business.api.call('PATCH', `/api/v1/sms/campaigns/${campaign.id}`, {
      token: business.admin,
      body: { body: 'Hello {first_name}' },
    });
    assert.equal(edited.body.campaign.body, 'Hello {first_name}');
    const paused = await business.api.post(
      `/api/v1/sms/campaigns/${campaign.id}/pause`,
      {},
      { token: business.admin },
    );
    assert.equal(paused.status, 409);
    assert.equal(paused.body.error_code, 'SMS_CAMPAIGN_WRONG_STATE');
    await campaignAction(business, campaign.id, 'start');
    const late = await business.api.call('PATCH', `/api/v1/sms/campaigns/${campaign.id}`, {
      token: business.admin,
      body: { name: 'Too late' },
    });
    assert.equal(late.status, 409);
    await campaignAction(business, campaign.id, 'cancel');
    const listed = await business.api.get('/api/v1/sms/campaigns?status=cancelled', {
      token: business.admin,
    });
    assert.ok(listed.body.campaigns.some((one: { id: number }) => one.id === campaign.id));
    assert.ok(listed.body.total >= 1);
    const missing = await business.api.get('/api/v1/sms/campaigns/999999', { token: business.admin });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error_code, 'SMS_CAMPAIGN_NOT_FOUND');
  });
});
