import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { hashOfferCode } from '../src/modules/sms/offers.ts';
import { client } from './support/http.ts';
import { eventually } from './support/lockers.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';
import { RecordingSmsProviders } from './support/sms.ts';
import {
  addSubscriber,
  campaignAction,
  campaignBusiness,
  createCampaign,
  phone,
  recipientsOf,
} from './support/sms-campaigns.ts';

const HOUR = 3_600_000;

describe('SMS campaigns: sending under consent, quiet hours and caps', () => {
  let server: TestServer;
  const providers = new RecordingSmsProviders();

  before(async () => {
    server = await startTestServer({}, { smsProviders: providers });
  });
  after(async () => {
    await server?.close();
  });

  const drain = () => server.app.outbox.drainOnce();

  it('sends to confirmed numbers only, personalised and with a code of their own; the others are skipped with the reason', async () => {
    const business = await campaignBusiness(server, 'sms-send-consent');
    const ana = await addSubscriber(server, business.businessId, {
      phone: phone(101),
      attributes: { first_name: 'Ana', city: 'Lyon' },
    });
    const pending = await addSubscriber(server, business.businessId, {
      phone: phone(102),
      status: 'pending',
    });
    const gone = await addSubscriber(server, business.businessId, {
      phone: phone(103),
      status: 'unsubscribed',
    });
    const campaign = await createCampaign(business, {
      name: 'Autumn',
      body: 'Hi {first_name} of {attribute.city}: 10% off with {offer_code}. STOP to stop',
      offer_expires_at: new Date(server.clock.now().getTime() + 7 * 24 * HOUR).toISOString(),
    });
    await campaignAction(business, campaign.id, 'start');
    await drain();
    const [message] = await providers.to(phone(101));
    const code = /with ([2-9A-Z]{8})\./.exec(message!.body)?.[1];
    assert.ok(code, message!.body);
    assert.equal(message!.body, `Hi Ana of Lyon: 10% off with ${code}. STOP to stop`);
    assert.equal(message!.from, '+33700000000');
    assert.deepEqual(
      providers.sent.filter((sent) => sent.to === phone(102) || sent.to === phone(103)),
      [],
      'nothing to the pending or unsubscribed numbers',
    );
    const stored = await sql<{ code_hash: string; subscriber_id: number }>`
      SELECT code_hash, subscriber_id FROM sms_offer_codes WHERE campaign_id = ${campaign.id}`.execute(
      server.db,
    );
    assert.deepEqual(
      stored.rows.map((row) => [Number(row.subscriber_id), row.code_hash]),
      [[ana, hashOfferCode(code!)]],
      'the code is kept hashed, for its recipient',
    );
    const recipients = await recipientsOf(server, campaign.id);
    assert.deepEqual(
      recipients.map((r) => [r.subscriber_id, r.state, r.reason]),
      [
        [ana, 'sent', null],
        [pending, 'skipped', 'unconfirmed'],
        [gone, 'skipped', 'unsubscribed'],
      ],
    );
    const read = await business.api.get(`/api/v1/sms/campaigns/${campaign.id}`, { token: business.admin });
    assert.equal(read.body.campaign.status, 'done');
    assert.equal(read.body.campaign.recipients.sent, 1);
    assert.equal(read.body.campaign.recipients.skipped, 2);
  });

  it('keeps a delivery report that comes before the provider has answered the send, and applies it with the answer', async () => {
    const business = await campaignBusiness(server, 'sms-send-early-report');
    await addSubscriber(server, business.businessId, { phone: phone(191) });
    const campaign = await createCampaign(business, { name: 'Quick', body: 'News today. STOP to stop' });
    const early: boolean[] = [];
    // A provider so fast that its delivery report comes in before its answer to the send.
    providers.kind = 'generic';
    providers.beforeAnswer = async (_message, providerMessageId) => {
      const { updated } = await server.app.services.sms.inbound.report(
        server.db,
        business.businessId,
        'generic',
        providerMessageId,
        'delivered',
      );
      early.push(updated);
    };
    try {
      await campaignAction(business, campaign.id, 'start');
      await drain();
      await providers.to(phone(191));
      const state = await eventually(async () => {
        const { rows } = await sql<{ state: string }>`
          SELECT state FROM sms_messages WHERE campaign_id = ${campaign.id}`.execute(server.db);
        return rows[0]?.state === 'queued' ? undefined : rows[0]?.state;
      }, 'the answer to the send recorded');
      assert.deepEqual(early, [false], 'the report came before the message had its provider id');
      assert.equal(state, 'delivered');
      assert.deepEqual(
        (await recipientsOf(server, campaign.id)).map((recipient) => recipient.state),
        ['delivered'],
      );
      const { rows } = await sql<{ kept: number }>`
        SELECT count(*)::int AS kept FROM sms_early_reports WHERE business_id = ${business.businessId}`.execute(
        server.db,
      );
      assert.deepEqual(rows, [{ kept: 0 }]);
    } finally {
      providers.kind = 'log';
      providers.beforeAnswer = undefined;
    }
  });

  it('reads the segment when sending starts: a subscriber tagged after the campaign was scheduled is sent to', async () => {
    const business = await campaignBusiness(server, 'sms-send-segment');
    const early = await addSubscriber(server, business.businessId, { phone: phone(121), tags: ['vip'] });
    const late = await addSubscriber(server, business.businessId, { phone: phone(122) });
    await addSubscriber(server, business.businessId, { phone: phone(123), tags: ['other'] });
    const segment = await business.api.post(
      '/api/v1/sms/segments',
      { name: 'VIP', rules: { tags: { any: ['vip'] } } },
      { token: business.admin },
    );
    assert.equal(segment.status, 200, JSON.stringify(segment.body));
    const campaign = await createCampaign(business, {
      name: 'VIP night',
      body: 'VIP evening on Friday. STOP to stop',
      segment_id: segment.body.segment.id,
    });
    const at = new Date(server.clock.now().getTime() + HOUR);
    const scheduled = await campaignAction(business, campaign.id, 'schedule', { at: at.toISOString() });
    assert.equal(scheduled.status, 'scheduled');
    await drain();
    assert.deepEqual(await recipientsOf(server, campaign.id), [], 'nothing is read before the time');
    await sql`UPDATE sms_subscribers SET tags = '{vip}' WHERE id = ${late}`.execute(server.db);
    server.clock.advance(HOUR);
    await drain();
    const recipients = await recipientsOf(server, campaign.id);
    assert.deepEqual(
      recipients.map((r) => [r.subscriber_id, r.state]),
      [
        [early, 'sent'],
        [late, 'sent'],
      ],
    );
    assert.equal((await providers.to(phone(122))).length, 1);
    assert.equal(providers.sent.filter((sent) => sent.to === phone(123)).length, 0, 'not in the segment');
  });

  it('stops sending while paused and continues where it stopped when resumed, at the pace of the provider', async () => {
    const business = await campaignBusiness(server, 'sms-send-pause', { messages_per_second: 1 });
    const phones = [131, 132, 133, 134, 135, 136].map(phone);
    for (const number of phones) await addSubscriber(server, business.businessId, { phone: number });
    const campaign = await createCampaign(business, { name: 'Slow', body: 'One at a time. STOP to stop' });
    await campaignAction(business, campaign.id, 'start');
    await drain();
    const sentTo = () => providers.sent.filter((sent) => phones.includes(sent.to)).map((sent) => sent.to);
    // A second's budget at most, and the two seconds a late tick may catch up on.
    const first = sentTo();
    assert.ok(first.length > 0 && first.length <= 2, `${first.length} in the first batch`);
    await campaignAction(business, campaign.id, 'pause');
    server.clock.advance(5_000);
    await drain();
    assert.deepEqual(sentTo(), first, 'nothing while paused');
    await campaignAction(business, campaign.id, 'resume');
    for (let seconds = 0; seconds < 20 && sentTo().length < phones.length; seconds++) {
      await drain();
      server.clock.advance(1_000);
    }
    await drain();
    assert.deepEqual(sentTo().sort(), [...phones].sort(), 'each once, in the end');
    const read = await business.api.get(`/api/v1/sms/campaigns/${campaign.id}`, { token: business.admin });
    assert.equal(read.body.campaign.status, 'done');
    assert.equal(read.body.campaign.recipients.sent, phones.length);
  });

  it('defers a campaign started at 22:30 local time to 08:00 there, and then skips whoever unsubscribed in the night', async () => {
    const business = await campaignBusiness(server, 'sms-send-quiet');
    // Pago Pago is UTC-11 all year: 09:30 UTC is 22:30 there.
    const zone = 'Pacific/Pago_Pago';
    const night = await addSubscriber(server, business.businessId, { phone: phone(141), time_zone: zone });
    const leaver = await addSubscriber(server, business.businessId, { phone: phone(142), time_zone: zone });
    const paris = await addSubscriber(server, business.businessId, { phone: phone(143) });
    assert.equal(server.clock.now().getUTCHours() < 11, true, 'the clock starts the morning in Paris');
    const campaign = await createCampaign(business, {
      name: 'Late',
      body: 'Good morning offer. STOP to stop',
    });
    await campaignAction(business, campaign.id, 'start');
    await drain();
    const morning = new Date(server.clock.now());
    morning.setUTCHours(19, 0, 0, 0);
    const deferred = await recipientsOf(server, campaign.id);
    assert.deepEqual(
      deferred.map((r) => [r.subscriber_id, r.state, r.reason, r.not_before?.toISOString() ?? null]),
      [
        [night, 'deferred', 'quiet_hours', morning.toISOString()],
        [leaver, 'deferred', 'quiet_hours', morning.toISOString()],
        [paris, 'sent', null, null],
      ],
    );
    assert.equal(providers.sent.filter((sent) => sent.to === phone(141)).length, 0, 'nothing at night');
    await sql`UPDATE sms_subscribers SET status = 'unsubscribed' WHERE id = ${leaver}`.execute(server.db);
    server.clock.set(new Date(morning.getTime() - 60_000));
    await drain();
    assert.equal(providers.sent.filter((sent) => sent.to === phone(141)).length, 0, 'not at 07:59');
    server.clock.set(morning);
    await drain();
    assert.equal((await providers.to(phone(141))).length, 1);
    const after = await recipientsOf(server, campaign.id);
    assert.deepEqual(
      after.map((r) => [r.subscriber_id, r.state, r.reason]),
      [
        [night, 'sent', null],
        [leaver, 'skipped', 'unsubscribed'],
        [paris, 'sent', null],
      ],
    );
    assert.equal(providers.sent.filter((sent) => sent.to === phone(142)).length, 0);
  });

  it('does not send a deferred message whose offer code expired in the night', async () => {
    const business = await campaignBusiness(server, 'sms-send-expired');
    // Tokyo is UTC+9: whatever the test clock reads now, the night there is chosen explicitly.
    const night = new Date(server.clock.now());
    night.setUTCDate(night.getUTCDate() + 1);
    night.setUTCHours(13, 30, 0, 0);
    server.clock.set(night);
    const sleeper = await addSubscriber(server, business.businessId, {
      phone: phone(151),
      time_zone: 'Asia/Tokyo',
    });
    const campaign = await createCampaign(business, {
      name: 'Flash',
      body: 'Flash sale, code {offer_code}. STOP to stop',
      offer_expires_at: new Date(night.getTime() + 2 * HOUR).toISOString(),
    });
    await campaignAction(business, campaign.id, 'start');
    await drain();
    const [deferred] = await recipientsOf(server, campaign.id);
    assert.equal(deferred!.state, 'deferred', '22:30 in Tokyo');
    server.clock.set(deferred!.not_before!);
    await drain();
    const [after] = await recipientsOf(server, campaign.id);
    assert.deepEqual(
      [after!.subscriber_id, after!.state, after!.reason],
      [sleeper, 'skipped', 'offer_expired'],
    );
    assert.equal(providers.sent.filter((sent) => sent.to === phone(151)).length, 0);
  });
  it("defers a second campaign of the day past the day's cap, and sends it once the rolling day frees a place", async () => {
    const business = await campaignBusiness(server, 'sms-send-day-cap', {
      caps: { per_day: 1, per_week: 3 },
    });
    // 10:00 in Paris, two days on: far from quiet hours now and 24 hours later.
    const morning = new Date(server.clock.now());
    morning.setUTCDate(morning.getUTCDate() + 2);
    morning.setUTCHours(9, 0, 0, 0);
    server.clock.set(morning);
    await addSubscriber(server, business.businessId, { phone: phone(161) });
    const first = await createCampaign(business, { name: 'Morning', body: 'First news. STOP to stop' });
    await campaignAction(business, first.id, 'start');
    await drain();
    assert.equal((await providers.to(phone(161), 1)).length, 1);
    server.clock.advance(HOUR);
    const second = await createCampaign(business, { name: 'Noon', body: 'Second news. STOP to stop' });
    await campaignAction(business, second.id, 'start');
    await drain();
    const [held] = await recipientsOf(server, second.id);
    assert.deepEqual([held!.state, held!.reason], ['deferred', 'cap_day']);
    assert.equal(
      new Date(held!.not_before!).getTime(),
      morning.getTime() + 24 * HOUR,
      'a day after the first message',
    );
    assert.equal(providers.sent.filter((sent) => sent.to === phone(161)).length, 1, 'not sent meanwhile');
    server.clock.set(new Date(held!.not_before!));
    await drain();
    const [sent] = await recipientsOf(server, second.id);
    assert.equal(sent!.state, 'sent');
    assert.deepEqual(
      (await providers.to(phone(161), 2)).map((message) => message.body),
      ['First news. STOP to stop', 'Second news. STOP to stop'],
    );
  });
});

describe('SMS campaigns: a cap of 2 a week across three campaigns and two instances', () => {
  let server: TestServer;
  let other: TestInstance;
  const providers = new RecordingSmsProviders();

  before(async () => {
    server = await startTestServer({}, { smsProviders: providers });
    await server.app.startBackground(server.pool);
    other = await startInstance(server, { smsProviders: providers });
  });
  after(async () => {
    await other?.close();
    await server?.close();
  });

  it('sends each subscriber two of the three campaigns started together on two instances, and skips the third', async () => {
    const business = await campaignBusiness(server, 'sms-caps', { caps: { per_day: 2, per_week: 2 } });
    const phones = Array.from({ length: 30 }, (_, i) => phone(200 + i));
    for (const number of phones) await addSubscriber(server, business.businessId, { phone: number });
    const campaigns = [];
    for (const name of ['One', 'Two', 'Three'])
      campaigns.push(await createCampaign(business, { name, body: `${name}: news. STOP to stop` }));
    // The second campaign is started through the other instance.
    const otherApi = client(other.baseUrl);
    const starts = campaigns.map((campaign, i) =>
      (i === 1 ? otherApi : business.api).post(
        `/api/v1/sms/campaigns/${campaign.id}/start`,
        {},
        {
          token: business.admin,
        },
      ),
    );
    for (const started of await Promise.all(starts))
      assert.equal(started.status, 200, JSON.stringify(started.body));
    server.app.outbox.poke();
    other.app.outbox.poke();
    await eventually(async () => {
      const open = await sql<{ n: string }>`
        SELECT count(*) AS n FROM sms_campaigns WHERE business_id = ${business.businessId} AND status <> 'done'`.execute(
        server.db,
      );
      return Number(open.rows[0]!.n) === 0 ? true : undefined;
    }, 'the three campaigns done');
    const perSubscriber = await sql<{ phone: string; sent: string; skipped: string; reasons: string[] }>`
      SELECT s.phone, count(*) FILTER (WHERE r.state = 'sent') AS sent,
        count(*) FILTER (WHERE r.state = 'skipped') AS skipped,
        array_agg(DISTINCT r.reason) FILTER (WHERE r.reason IS NOT NULL) AS reasons
      FROM sms_campaign_recipients r JOIN sms_subscribers s ON s.id = r.subscriber_id
      WHERE r.business_id = ${business.businessId} GROUP BY s.phone ORDER BY s.phone`.execute(server.db);
    assert.equal(perSubscriber.rows.length, phones.length);
    for (const row of perSubscriber.rows) {
      assert.equal(Number(row.sent), 2, `${row.phone}: two sent`);
      assert.equal(Number(row.skipped), 1, `${row.phone}: one skipped`);
      assert.deepEqual(row.reasons, ['cap_week'], row.phone);
    }
    const messages = await sql<{ n: string }>`
      SELECT count(*) AS n FROM sms_messages WHERE business_id = ${business.businessId} AND kind = 'campaign'`.execute(
      server.db,
    );
    assert.equal(Number(messages.rows[0]!.n), 2 * phones.length, 'no third message was written');
    for (const number of phones) assert.equal((await providers.to(number, 2)).length, 2, number);
  });
});
