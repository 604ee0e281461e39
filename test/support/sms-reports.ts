import { sql } from 'kysely';
import { issueOfferCode } from '../../src/modules/sms/offers.ts';
import type { MessageState, RecipientState, SmsTables } from '../../src/modules/sms/tables.ts';
import type { Queryable } from '../../src/platform/db/database.ts';
import type { TestServer } from './server.ts';
import { addSubscriber } from './sms-campaigns.ts';

/**
 * Campaign rows written straight into the database, as the sending engine would leave them: the
 * reports and redemptions are tested on figures the test chose, without running a campaign.
 */

type Db = Queryable<SmsTables>;

const db = (server: TestServer) => server.db as unknown as Db;

/** Confirmed subscribers, as the campaign tests write them. */
export async function addSubscribers(
  server: TestServer,
  businessId: number,
  phones: string[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const phone of phones) ids.push(await addSubscriber(server, businessId, { phone }));
  return ids;
}

export async function addCampaign(
  server: TestServer,
  businessId: number,
  name: string,
  values: { status?: 'draft' | 'sending' | 'done'; startedAt?: Date; finishedAt?: Date } = {},
): Promise<number> {
  const row = await db(server)
    .insertInto('sms_campaigns')
    .values({
      business_id: businessId,
      name,
      body: 'Spring sale: -20% with {offer_code}. Reply STOP to stop.',
      status: values.status ?? 'done',
      started_at: values.startedAt ?? null,
      finished_at: values.finishedAt ?? null,
      created_at: server.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One recipient of a campaign in a state, and (unless skipped or deferred) its message in a state. */
export async function addRecipient(
  server: TestServer,
  businessId: number,
  campaignId: number,
  subscriberId: number,
  recipient: { state: RecipientState; reason?: string; message?: MessageState; segments?: number },
): Promise<{ recipientId: number; messageId?: number }> {
  const now = server.clock.now();
  const { id: recipientId } = await db(server)
    .insertInto('sms_campaign_recipients')
    .values({
      business_id: businessId,
      campaign_id: campaignId,
      subscriber_id: subscriberId,
      state: recipient.state,
      reason: recipient.reason ?? null,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!recipient.message) return { recipientId };
  const handedOver = recipient.message !== 'queued' && !(recipient.message === 'failed' && recipient.reason);
  const { id: messageId } = await db(server)
    .insertInto('sms_messages')
    .values({
      business_id: businessId,
      subscriber_id: subscriberId,
      campaign_id: campaignId,
      recipient_id: recipientId,
      kind: 'campaign',
      to_phone: '+33600000000',
      body: 'Spring sale',
      segments: recipient.segments ?? 1,
      state: recipient.message,
      created_at: now,
      sent_at: handedOver ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { recipientId, messageId };
}

/** A subscriber's STOP: its status and the evidence, at the clock's time. */
export async function unsubscribe(
  server: TestServer,
  businessId: number,
  subscriberId: number,
): Promise<void> {
  const now = server.clock.now();
  await db(server)
    .updateTable('sms_subscribers')
    .set({ status: 'unsubscribed', unsubscribed_at: now })
    .where('id', '=', subscriberId)
    .execute();
  await db(server)
    .insertInto('sms_consent_evidence')
    .values({
      business_id: businessId,
      subscriber_id: subscriberId,
      event: 'unsubscribed',
      source: 'keyword',
      message_text: 'STOP',
      at: now,
    })
    .execute();
}

export function addOfferCode(
  server: TestServer,
  businessId: number,
  campaignId: number,
  subscriberId: number,
  expiresAt: Date,
): Promise<string> {
  return server.db.transaction().execute((trx) =>
    issueOfferCode(trx as unknown as Db, {
      businessId,
      campaignId,
      subscriberId,
      expiresAt,
      now: server.clock.now(),
    }),
  );
}

/** Recipients, messages and codes of a big campaign in a few statements (generate_series). */
export async function addBigCampaign(server: TestServer, businessId: number, size: number): Promise<number> {
  const campaignId = await addCampaign(server, businessId, `Big ${size}`);
  const now = server.clock.now();
  await sql`
    WITH subscribers AS (
      INSERT INTO sms_subscribers (business_id, phone, status, language, time_zone, created_at)
      SELECT ${businessId}, '+3361' || lpad(n::text, 7, '0'), 'confirmed', 'fr', 'Europe/Paris', ${now}
      FROM generate_series(1, ${size}) AS n
      RETURNING id
    ), recipients AS (
      INSERT INTO sms_campaign_recipients (business_id, campaign_id, subscriber_id, state, updated_at)
      SELECT ${businessId}, ${campaignId}, id, CASE WHEN id % 10 = 0 THEN 'failed' ELSE 'delivered' END, ${now}
      FROM subscribers
      RETURNING id, subscriber_id, state
    )
    INSERT INTO sms_messages (business_id, subscriber_id, campaign_id, recipient_id, kind, to_phone, body,
                              segments, state, created_at, sent_at)
    SELECT ${businessId}, subscriber_id, ${campaignId}, id, 'campaign', '+33600000000', 'Big', 2, state, ${now}, ${now}
    FROM recipients`.execute(server.db);
  await sql`ANALYZE sms_messages, sms_campaign_recipients`.execute(server.db);
  return campaignId;
}
