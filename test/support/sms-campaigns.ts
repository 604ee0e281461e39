import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { TestServer } from './server.ts';
import { type SmsBusiness, smsBusiness } from './sms.ts';

/**
 * What the campaign tests share. Subscribers are written straight into the database (the
 * subscriber operations have tests of their own): the status, language, zone, tags and attributes
 * a test needs, with an evidence row as every subscriber has.
 */

export interface SubscriberSeed {
  phone: string;
  status?: 'pending' | 'confirmed' | 'unsubscribed';
  language?: string;
  time_zone?: string;
  tags?: string[];
  attributes?: Record<string, string>;
}

export async function addSubscriber(
  server: TestServer,
  businessId: number,
  seed: SubscriberSeed,
): Promise<number> {
  const now = server.clock.now();
  const status = seed.status ?? 'confirmed';
  const row = await sql<{ id: number }>`
    INSERT INTO sms_subscribers (business_id, phone, status, language, time_zone, tags, attributes, created_at,
      confirmed_at, unsubscribed_at)
    VALUES (${businessId}, ${seed.phone}, ${status}, ${seed.language ?? 'fr'}, ${seed.time_zone ?? 'Europe/Paris'},
      ${seed.tags ?? []}::text[], ${JSON.stringify(seed.attributes ?? {})}::jsonb, ${now},
      ${status === 'confirmed' ? now : null}, ${status === 'unsubscribed' ? now : null})
    RETURNING id`.execute(server.db);
  const id = Number(row.rows[0]!.id);
  await sql`
    INSERT INTO sms_consent_evidence (business_id, subscriber_id, event, source, consent_text, consent_version,
      requested_from, at)
    VALUES (${businessId}, ${id}, ${status === 'pending' ? 'requested' : 'confirmed'}, 'form',
      'I agree to receive marketing texts.', '2026-11', '192.0.2.10', ${now})`.execute(server.db);
  return id;
}

/** A French mobile number, distinct for each `n` below 100,000. */
export function phone(n: number): string {
  return `+3361${String(n).padStart(7, '0')}`;
}

/** A business set up for SMS with the given settings, and its id. */
export async function campaignBusiness(
  server: TestServer,
  code: string,
  settings: Record<string, unknown> = {},
) {
  const business: SmsBusiness = await smsBusiness(server, code, { messages_per_second: 100, ...settings });
  return { ...business, businessId: business.tenant.businessId };
}

/** Creates a campaign through the API; the body answer's campaign. */
export async function createCampaign(business: SmsBusiness, body: Record<string, unknown>) {
  const made = await business.api.post('/api/v1/sms/campaigns', body, { token: business.admin });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.campaign as { id: number; status: string };
}

export async function campaignAction(business: SmsBusiness, id: number, action: string, body: object = {}) {
  const answer = await business.api.post(`/api/v1/sms/campaigns/${id}/${action}`, body, {
    token: business.admin,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.campaign;
}

export async function recipientsOf(server: TestServer, campaignId: number) {
  const rows = await sql<{
    subscriber_id: number;
    state: string;
    reason: string | null;
    not_before: Date | null;
  }>`
    SELECT subscriber_id, state, reason, not_before FROM sms_campaign_recipients
    WHERE campaign_id = ${campaignId} ORDER BY id`.execute(server.db);
  return rows.rows.map((row) => ({ ...row, subscriber_id: Number(row.subscriber_id) }));
}

/** Rows of the tables a campaign writes to: a dry run must leave them as they were. */
export async function writtenCounts(server: TestServer) {
  const rows = await sql<Record<string, string>>`
    SELECT (SELECT count(*) FROM sms_campaign_recipients) AS recipients,
      (SELECT count(*) FROM sms_messages) AS messages,
      (SELECT count(*) FROM sms_offer_codes) AS codes,
      (SELECT count(*) FROM outbox) AS outbox`.execute(server.db);
  return rows.rows[0];
}
