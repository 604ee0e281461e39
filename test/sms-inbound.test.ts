import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { TestServer } from './support/server.ts';
import { SMS_SETTINGS, type SmsBusiness, smsBusiness } from './support/sms.ts';
import {
  addSubscriber,
  GENERIC_PROVIDER,
  inboundState,
  messagesTo,
  postGeneric,
  postTwilio,
  smsServer,
  subscriberOf,
  TWILIO_PROVIDER,
} from './support/sms-subscribers.ts';

describe('SMS messages in: keywords, signatures, delivery reports', () => {
  let server: TestServer;
  let twilioBusiness: SmsBusiness;
  let genericBusiness: SmsBusiness;
  let sid = 0;
  const nextSid = () => `SM${String(++sid).padStart(32, '0')}`;

  /** A confirmed subscriber: added, then confirmed by its YES. */
  async function confirmed(phone: string, language?: string) {
    const { api, admin, tenant } = twilioBusiness;
    const made = await addSubscriber(api, admin, phone, language ? { language } : {});
    const yes = await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: nextSid(),
      From: made.phone,
      Body: 'YES',
    });
    assert.equal(yes.status, 200, yes.body);
    return made;
  }

  const replies = async (phone: string) =>
    (await messagesTo(server, phone)).filter((one) => one.kind === 'reply');

  before(async () => {
    ({ server } = await smsServer());
    twilioBusiness = await smsBusiness(server, 'sms-in-twilio', { provider: TWILIO_PROVIDER });
    genericBusiness = await smsBusiness(server, 'sms-in-generic', { provider: GENERIC_PROVIDER });
  });

  after(async () => {
    await server?.close();
  });

  it('confirms a pending subscriber by its YES, keeping the message as evidence', async () => {
    const { api, admin, tenant } = twilioBusiness;
    const made = await addSubscriber(api, admin, '0610000001');
    const answer = await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: 'SM-yes-1',
      From: '+33610000001',
      To: SMS_SETTINGS.sender,
      Body: ' Yes ',
    });
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.headers.get('content-type') ?? '', /xml/);
    const found = await subscriberOf(api, admin, made.id);
    assert.equal(found.status, 'confirmed');
    const last = found.evidence.at(-1)!;
    assert.deepEqual(
      [last.event, last.source, last.message_text, last.message_id],
      ['confirmed', 'keyword', ' Yes ', 'SM-yes-1'],
    );
  });

  it('unsubscribes at once on STOP in each language, answering once', async () => {
    const { api, admin, tenant } = twilioBusiness;
    const words = [
      'STOP',
      ' stop ',
      'Stop.',
      'ARRÊT',
      'STOPP',
      'BAJA',
      '退订',
      '退訂',
      'Désinscrire',
      'abmelden',
      'cancelar',
      '取消訂閱',
    ];
    for (const [index, word] of words.entries()) {
      const phone = `+336200000${String(index).padStart(2, '0')}`;
      const made = await confirmed(phone);
      const stop = await postTwilio(server, api, tenant.businessId, 'inbound', {
        MessageSid: nextSid(),
        From: phone,
        Body: word,
      });
      assert.equal(stop.status, 200, stop.body);
      const found = await subscriberOf(api, admin, made.id);
      assert.equal(found.status, 'unsubscribed', `${word} unsubscribes`);
      assert.ok(found.unsubscribed_at, word);
      const last = found.evidence.at(-1)!;
      assert.deepEqual([last.event, last.message_text], ['unsubscribed', word]);
      assert.equal((await replies(phone)).length, 1, `${word} is answered`);
      // A second STOP is not answered again.
      await postTwilio(server, api, tenant.businessId, 'inbound', {
        MessageSid: nextSid(),
        From: phone,
        Body: word,
      });
      assert.equal((await replies(phone)).length, 1, `a second ${word} is not answered`);
    }
    const french = await replies('+33620000003');
    assert.match(french[0]!.body, /désinscrit/, "answered in the subscriber's language");
  });

  it('answers HELP with the help text, and a START brings an unsubscribed number back with new evidence', async () => {
    const { api, admin, tenant } = twilioBusiness;
    const made = await confirmed('0630000001');
    await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: nextSid(),
      From: made.phone,
      Body: 'aide',
    });
    assert.deepEqual(
      (await replies(made.phone)).map((one) => one.body),
      [SMS_SETTINGS.help_text],
    );
    await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: nextSid(),
      From: made.phone,
      Body: 'STOP',
    });
    const start = await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: 'SM-start-1',
      From: made.phone,
      Body: 'start',
    });
    assert.equal(start.status, 200);
    const found = await subscriberOf(api, admin, made.id);
    assert.equal(found.status, 'confirmed');
    assert.deepEqual(
      found.evidence.map((one) => one.event),
      ['requested', 'confirmed', 'unsubscribed', 'resubscribed'],
    );
    assert.deepEqual(
      [found.evidence[3]!.message_text, found.evidence[3]!.message_id],
      ['start', 'SM-start-1'],
    );
    // Other texts, and keywords from unknown numbers, are only kept.
    const before = await inboundState(server, tenant.businessId);
    await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: nextSid(),
      From: made.phone,
      Body: 'where is my parcel?',
    });
    await postTwilio(server, api, tenant.businessId, 'inbound', {
      MessageSid: nextSid(),
      From: '+33699999999',
      Body: 'YES',
    });
    const afterwards = await inboundState(server, tenant.businessId);
    assert.equal(afterwards.inbound.length, before.inbound.length + 2);
    assert.deepEqual(afterwards.subscribers, before.subscribers);
    assert.deepEqual(afterwards.messages, before.messages);
  });

  it('refuses forged Twilio and generic calls with 401 and changes nothing', async () => {
    const { api, admin, tenant } = twilioBusiness;
    const made = await confirmed('0640000001');
    const stop = { MessageSid: nextSid(), From: made.phone, Body: 'STOP' };
    const before = await inboundState(server, tenant.businessId);
    const forgeries = [
      await postTwilio(server, api, tenant.businessId, 'inbound', stop, { token: 'not-the-auth-token' }),
      await postTwilio(server, api, tenant.businessId, 'inbound', stop, { signature: null }),
      await postTwilio(server, api, tenant.businessId, 'inbound', stop, { signature: 'AAAA' }),
      // Signed for another business's address.
      await postTwilio(server, api, genericBusiness.tenant.businessId, 'inbound', stop),
      await postGeneric(api, tenant.businessId, 'inbound', { id: 'g1', from: made.phone, text: 'STOP' }),
    ];
    for (const forged of forgeries) {
      assert.equal(forged.status, 401, JSON.stringify(forged.body));
      assert.equal(forged.body.error_code, 'SMS_WEBHOOK_UNVERIFIED');
    }
    assert.deepEqual(await inboundState(server, tenant.businessId), before);
    assert.equal((await subscriberOf(api, admin, made.id)).status, 'confirmed');

    const generic = genericBusiness;
    const other = await addSubscriber(generic.api, generic.admin, '0640000002');
    const genericBefore = await inboundState(server, generic.tenant.businessId);
    const message = {
      id: 'gen-1',
      from: other.phone,
      to: SMS_SETTINGS.sender,
      text: 'OUI',
      received_at: '2026-11-02T09:30:00Z',
    };
    for (const forged of [
      await postGeneric(generic.api, generic.tenant.businessId, 'inbound', message, {
        secret: 'a-wrong-secret',
      }),
      await postGeneric(generic.api, generic.tenant.businessId, 'inbound', message, { signature: null }),
      await postGeneric(
        generic.api,
        generic.tenant.businessId,
        'status',
        { message_id: 'x', status: 'delivered' },
        { secret: 'a-wrong-secret' },
      ),
      await postTwilio(server, generic.api, generic.tenant.businessId, 'status', {
        MessageSid: 'x',
        MessageStatus: 'delivered',
      }),
    ]) {
      assert.equal(forged.status, 401, JSON.stringify(forged.body));
    }
    assert.deepEqual(await inboundState(server, generic.tenant.businessId), genericBefore);
    const signed = await postGeneric(generic.api, generic.tenant.businessId, 'inbound', message);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.deepEqual(signed.body, { result: true, duplicate: false, keyword: 'start' });
    assert.equal((await subscriberOf(generic.api, generic.admin, other.id)).status, 'confirmed');
  });

  it('takes a text played in for a business on the log provider (tms sms receive), and for no other', async () => {
    const logged = await smsBusiness(server, 'sms-in-log');
    const made = await addSubscriber(logged.api, logged.admin, '0661000009');
    const play = (businessId: number, text: string) =>
      server.db
        .transaction()
        .execute((trx) =>
          server.app.services.sms.inbound.fromLogProvider(trx, businessId, { from: '06 61 00 00 09', text }),
        );
    // Unsigned over HTTP, as before: the log provider has no secret.
    const unsigned = await postGeneric(logged.api, logged.tenant.businessId, 'inbound', {
      id: 'log-1',
      from: made.phone,
      text: 'STOP',
    });
    assert.equal(unsigned.status, 401);
    const start = await play(logged.tenant.businessId, 'YES');
    assert.deepEqual(
      [start.keyword, start.phone, start.subscriber],
      ['start', '+33661000009', { id: made.id, status: 'confirmed' }],
    );
    const stop = await play(logged.tenant.businessId, 'STOP');
    assert.deepEqual(stop.subscriber, { id: made.id, status: 'unsubscribed' });
    assert.notEqual(stop.id, start.id, 'each text is a message of its own');
    const found = await subscriberOf(logged.api, logged.admin, made.id);
    assert.deepEqual(
      [found.evidence.at(-1)!.event, found.evidence.at(-1)!.message_text],
      ['unsubscribed', 'STOP'],
    );
    assert.equal((await replies('+33661000009')).length, 1, 'the STOP confirmation');
    const before = await inboundState(server, twilioBusiness.tenant.businessId);
    await assert.rejects(play(twilioBusiness.tenant.businessId, 'STOP'), /sends through twilio/);
    assert.deepEqual(await inboundState(server, twilioBusiness.tenant.businessId), before);
  });

  it('takes a provider message id once: a retry answers 200 and changes nothing more', async () => {
    const { api, tenant } = twilioBusiness;
    const made = await confirmed('0650000001');
    const stop = { MessageSid: 'SM-retried', From: made.phone, Body: 'STOP' };
    assert.equal((await postTwilio(server, api, tenant.businessId, 'inbound', stop)).status, 200);
    const before = await inboundState(server, tenant.businessId);
    assert.equal((await postTwilio(server, api, tenant.businessId, 'inbound', stop)).status, 200);
    assert.deepEqual(await inboundState(server, tenant.businessId), before);
    const generic = genericBusiness;
    const message = { id: 'gen-retried', from: '+33650000002', text: 'HELP' };
    const first = await postGeneric(generic.api, generic.tenant.businessId, 'inbound', message);
    const again = await postGeneric(generic.api, generic.tenant.businessId, 'inbound', message);
    assert.equal(first.body.duplicate, false);
    assert.equal(again.body.duplicate, true);
    assert.equal((await replies('+33650000002')).length, 1, 'HELP answered once');
  });

  it('moves a sent message to delivered on a status callback, and never back', async () => {
    const { api, admin, tenant } = twilioBusiness;
    const made = await addSubscriber(api, admin, '0660000001');
    const [message] = await messagesTo(server, made.phone);
    // As the Twilio provider records a message it took.
    await sql`UPDATE sms_messages SET state = 'sent', provider = 'twilio', provider_message_id = 'SM-status-1' WHERE id = ${message!.id}`.execute(
      server.db,
    );
    const sent = await postTwilio(server, api, tenant.businessId, 'status', {
      MessageSid: 'SM-status-1',
      MessageStatus: 'sent',
    });
    assert.equal(sent.status, 200);
    assert.equal((await messagesTo(server, made.phone))[0]!.state, 'sent', 'sent is not final');
    await postTwilio(server, api, tenant.businessId, 'status', {
      MessageSid: 'SM-status-1',
      MessageStatus: 'delivered',
    });
    assert.equal((await messagesTo(server, made.phone))[0]!.state, 'delivered');
    await postTwilio(server, api, tenant.businessId, 'status', {
      MessageSid: 'SM-status-1',
      MessageStatus: 'failed',
      ErrorCode: '30003',
    });
    assert.equal(
      (await messagesTo(server, made.phone))[0]!.state,
      'delivered',
      'a delivered message stays delivered',
    );

    const generic = genericBusiness;
    const other = await addSubscriber(generic.api, generic.admin, '0660000002');
    const [theirs] = await messagesTo(server, other.phone);
    await sql`UPDATE sms_messages SET state = 'sent', provider = 'generic', provider_message_id = 'gen-status-1' WHERE id = ${theirs!.id}`.execute(
      server.db,
    );
    // Twilio's id in another business, or the generic id under Twilio: nothing found.
    await postGeneric(generic.api, generic.tenant.businessId, 'status', {
      message_id: 'SM-status-1',
      status: 'failed',
    });
    const failed = await postGeneric(generic.api, generic.tenant.businessId, 'status', {
      message_id: 'gen-status-1',
      status: 'undelivered',
      error: 'unreachable',
    });
    assert.deepEqual(failed.body, { result: true, updated: true });
    assert.equal((await messagesTo(server, other.phone))[0]!.state, 'failed');
    assert.equal((await messagesTo(server, made.phone))[0]!.state, 'delivered');
  });

  it("moves a campaign message's recipient with its delivery report", async () => {
    const { api, admin, tenant } = twilioBusiness;
    const made = await confirmed('0670000001');
    const campaign = await sql<{ id: number }>`
      INSERT INTO sms_campaigns (business_id, name, body, status, created_at)
      VALUES (${tenant.businessId}, 'Spring', 'Hello', 'sending', now()) RETURNING id`.execute(server.db);
    const recipient = await sql<{ id: number }>`
      INSERT INTO sms_campaign_recipients (business_id, campaign_id, subscriber_id, state, updated_at)
      VALUES (${tenant.businessId}, ${campaign.rows[0]!.id}, ${made.id}, 'sent', now()) RETURNING id`.execute(
      server.db,
    );
    await sql`
      INSERT INTO sms_messages (business_id, subscriber_id, campaign_id, recipient_id, kind, to_phone, body, segments,
        state, provider, provider_message_id, created_at)
      VALUES (${tenant.businessId}, ${made.id}, ${campaign.rows[0]!.id}, ${recipient.rows[0]!.id}, 'campaign', ${made.phone},
        'Hello', 1, 'sent', 'twilio', 'SM-campaign-1', now())`.execute(server.db);
    const answer = await postTwilio(server, api, tenant.businessId, 'status', {
      MessageSid: 'SM-campaign-1',
      MessageStatus: 'undelivered',
      ErrorCode: '30005',
    });
    assert.equal(answer.status, 200, answer.body);
    const state = await sql<{ state: string; reason: string | null }>`
      SELECT state, reason FROM sms_campaign_recipients WHERE id = ${recipient.rows[0]!.id}`.execute(
      server.db,
    );
    assert.deepEqual(state.rows[0], { state: 'failed', reason: 'undelivered' });
    const message = await sql<{ state: string; error: string }>`
      SELECT state, error FROM sms_messages WHERE provider_message_id = 'SM-campaign-1'`.execute(server.db);
    assert.deepEqual(message.rows[0], { state: 'failed', error: 'Twilio error 30005' });
    assert.equal(
      (await subscriberOf(api, admin, made.id)).status,
      'confirmed',
      'a failed delivery is no STOP',
    );
  });
});
