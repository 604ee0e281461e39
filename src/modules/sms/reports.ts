import { sql } from 'kysely';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import { type CampaignStatus, RECIPIENT_STATES, type RecipientState, type SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;

/** Counts come back from PostgreSQL as bigint text. */
const count = (value: unknown): number => Number(value ?? 0);

/**
 * What campaigns did, counted with aggregate queries over the report indexes
 * (migrations/0054_sms_reports.sql): a campaign of 100,000 recipients is read from its indexes.
 * A message is "sent" once the provider took it (it has a `sent_at`), whatever became of it after.
 */
export class SmsReports {
  async list(ctx: OperationContext, query: PageQuery & { status?: CampaignStatus }) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    let campaigns = db.selectFrom('sms_campaigns').where('business_id', '=', businessId);
    if (query.status) campaigns = campaigns.where('status', '=', query.status);
    const { limit, offset } = pageWindow(query);
    const [rows, total] = await Promise.all([
      campaigns
        .select(['id', 'name', 'status', 'scheduled_at', 'started_at', 'finished_at', 'created_at'])
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      campaigns.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
    ]);
    const ids = rows.map((row) => row.id);
    const sent = new Map<number, { sent: number; delivered: number }>();
    if (ids.length > 0) {
      const counted = await sql<{ campaign_id: number; sent: string; delivered: string }>`
        SELECT campaign_id,
               count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
               count(*) FILTER (WHERE state = 'delivered') AS delivered
        FROM sms_messages
        WHERE kind = 'campaign' AND campaign_id = ANY(${ids}::bigint[])
        GROUP BY campaign_id`.execute(db);
      for (const row of counted.rows)
        sent.set(Number(row.campaign_id), { sent: count(row.sent), delivered: count(row.delivered) });
    }
    return {
      result: true as const,
      ...envelopeOf(query, count(total.total)),
      campaigns: rows.map((row) => ({
        ...campaignView(row),
        sent: sent.get(row.id)?.sent ?? 0,
        delivered: sent.get(row.id)?.delivered ?? 0,
      })),
    };
  }

  async report(ctx: OperationContext, campaignId: number) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const campaign = await db
      .selectFrom('sms_campaigns')
      .select(['id', 'name', 'status', 'scheduled_at', 'started_at', 'finished_at', 'created_at'])
      .where('business_id', '=', businessId)
      .where('id', '=', campaignId)
      .executeTakeFirst();
    if (!campaign) throw new AppError('SMS_CAMPAIGN_NOT_FOUND', { params: { id: campaignId } });
    const [recipients, messages, unsubscribed, codes, settings] = await Promise.all([
      sql<{ state: RecipientState; reason: string | null; n: string }>`
        SELECT state, reason, count(*) AS n FROM sms_campaign_recipients
        WHERE campaign_id = ${campaignId} GROUP BY state, reason`.execute(db),
      sql<{ queued: string; sent: string; delivered: string; failed: string; segments: string | null }>`
        SELECT count(*) FILTER (WHERE state = 'queued') AS queued,
               count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
               count(*) FILTER (WHERE state = 'delivered') AS delivered,
               count(*) FILTER (WHERE state = 'failed') AS failed,
               sum(segments) FILTER (WHERE sent_at IS NOT NULL) AS segments
        FROM sms_messages WHERE kind = 'campaign' AND campaign_id = ${campaignId}`.execute(db),
      // The campaign's recipients who unsubscribed once its message to them was written: the
      // evidence keeps every unsubscription, also of those who subscribed again since.
      sql<{ n: string }>`
        SELECT count(DISTINCT m.subscriber_id) AS n FROM sms_messages m
        WHERE m.kind = 'campaign' AND m.campaign_id = ${campaignId}
          AND EXISTS (SELECT 1 FROM sms_consent_evidence e
                      WHERE e.subscriber_id = m.subscriber_id AND e.event = 'unsubscribed'
                        AND e.at >= m.created_at)`.execute(db),
      sql<{ issued: string; redeemed: string }>`
        SELECT count(*) AS issued, count(redeemed_at) AS redeemed FROM sms_offer_codes
        WHERE campaign_id = ${campaignId}`.execute(db),
      db
        .selectFrom('sms_settings')
        .select(['segment_cost', 'currency'])
        .where('business_id', '=', businessId)
        .executeTakeFirst(),
    ]);
    const byState = Object.fromEntries(RECIPIENT_STATES.map((state) => [state, 0])) as Record<
      RecipientState,
      number
    >;
    const skipped: Array<{ reason: string; recipients: number }> = [];
    for (const row of recipients.rows) {
      byState[row.state] += count(row.n);
      if (row.state === 'skipped')
        skipped.push({ reason: row.reason ?? 'unknown', recipients: count(row.n) });
    }
    skipped.sort((a, b) => b.recipients - a.recipients || a.reason.localeCompare(b.reason));
    const sent = messages.rows[0];
    const segments = count(sent?.segments);
    // numeric(12, 6) per segment: the product is rounded to the same six places.
    const amount = Math.round(segments * Number(settings?.segment_cost ?? 0) * 1e6) / 1e6;
    return {
      result: true as const,
      campaign: campaignView(campaign),
      recipients: {
        total: Object.values(byState).reduce((sum, n) => sum + n, 0),
        ...byState,
      },
      skipped_by_reason: skipped,
      messages: {
        queued: count(sent?.queued),
        sent: count(sent?.sent),
        delivered: count(sent?.delivered),
        failed: count(sent?.failed),
        segments_sent: segments,
      },
      cost: { amount, currency: settings?.currency ?? 'EUR' },
      unsubscribed_after: count(unsubscribed.rows[0]?.n),
      offer_codes: { issued: count(codes.rows[0]?.issued), redeemed: count(codes.rows[0]?.redeemed) },
    };
  }
}

function campaignView(row: {
  id: number;
  name: string;
  status: CampaignStatus;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
}) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    scheduled_at: row.scheduled_at?.toISOString() ?? null,
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
