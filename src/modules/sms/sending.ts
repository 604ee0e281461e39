import { sql } from 'kysely';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Queryable } from '../../platform/db/database.ts';
import type { OutboxHandler } from '../../platform/outbox/outbox.ts';
import { type CampaignRow, enqueueTick, type SmsCampaigns, type TickPayload } from './campaigns.ts';
import { hashOfferCode, newOfferCode } from './offers.ts';
import { type QueuedSms, queueMessages } from './outbound.ts';
import { personalise, usesOfferCode } from './personalise.ts';
import { isQuiet, nextQuietEnd, type QuietHours } from './quiet-hours.ts';
import type { SettingsRow } from './settings.ts';
import type { SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;

/** Ticks are a second apart: a batch is what the provider takes in that time. */
const TICK_MS = 1000;
/** Budget a late tick may catch up on (the worker polls delayed messages every 2 s). */
const CATCH_UP_MS = 2000;
/** Recipients of one batch, at most, whatever the provider's pace: one transaction stays short. */
export const MAX_BATCH = 1000;
/** Subscribers read from a segment per statement when the audience is made. */
const AUDIENCE_CHUNK = 20_000;
const DAY_MS = 86_400_000;

/** Why a claimed recipient is not sent to now. */
type Verdict =
  | { state: 'sent' }
  | { state: 'skipped'; reason: 'unsubscribed' | 'unconfirmed' | 'cap_week' | 'time_zone_unknown' }
  | { state: 'deferred'; reason: 'quiet_hours' | 'cap_day'; notBefore: Date };

export interface SubscriberAtSend {
  status: string;
  time_zone: string;
  /** Campaign messages (any campaign of the business) in the last 24 hours and 7 days, rolling. */
  day: number;
  week: number;
  /** The oldest of the last 24 hours' messages: the day window frees a place 24 hours after it. */
  oldestToday: Date | null;
}

export interface SendingRules {
  quiet: QuietHours;
  capPerDay: number;
  capPerWeek: number;
}

/**
 * The rules of docs/sms-marketing.md, "Frequency caps and quiet hours", in the order they are
 * applied: consent first, then the week's cap (skipped: the campaign's moment has passed), quiet
 * hours (deferred to the next end of the window in the subscriber's zone), the day's cap
 * (deferred to when the rolling day frees a place).
 */
export function verdictOf(now: Date, subscriber: SubscriberAtSend, rules: SendingRules): Verdict {
  if (subscriber.status === 'unsubscribed') return { state: 'skipped', reason: 'unsubscribed' };
  if (subscriber.status !== 'confirmed') return { state: 'skipped', reason: 'unconfirmed' };
  if (subscriber.week >= rules.capPerWeek) return { state: 'skipped', reason: 'cap_week' };
  let quiet: boolean;
  try {
    quiet = isQuiet(now, subscriber.time_zone, rules.quiet);
  } catch {
    return { state: 'skipped', reason: 'time_zone_unknown' };
  }
  if (quiet)
    return {
      state: 'deferred',
      reason: 'quiet_hours',
      notBefore: nextQuietEnd(now, subscriber.time_zone, rules.quiet),
    };
  if (subscriber.day >= rules.capPerDay)
    return {
      state: 'deferred',
      reason: 'cap_day',
      notBefore: new Date((subscriber.oldestToday ?? now).getTime() + DAY_MS),
    };
  return { state: 'sent' };
}

/**
 * The sending engine: one outbox tick per campaign at a time, each a batch in one transaction
 * (claim due recipients, lock their subscribers, re-check consent, quiet hours and caps, write
 * the messages and their outbox message, mark the recipients) that enqueues the next tick.
 */
export class CampaignSending {
  constructor(
    private readonly clock: Clock,
    private readonly campaigns: SmsCampaigns,
  ) {}

  handler(db: Queryable): OutboxHandler {
    return async (message) => {
      const payload = message.payload as TickPayload;
      await inTransaction(db as Db, (trx) => this.tick(trx, payload));
      return { done: true };
    };
  }

  async tick(db: Db, payload: TickPayload): Promise<void> {
    const campaign = await db
      .selectFrom('sms_campaigns')
      .selectAll()
      .where('id', '=', payload.campaign_id)
      .where('business_id', '=', payload.business_id)
      .forUpdate()
      .executeTakeFirst();
    // A stale tick (paused and resumed since, started over its schedule) or a campaign stopped.
    if (!campaign || campaign.tick_seq !== payload.seq) return;
    const now = this.clock.now();
    if (campaign.status === 'scheduled') {
      if (campaign.scheduled_at && campaign.scheduled_at > now) {
        await enqueueTick(db, this.clock, campaign, campaign.scheduled_at);
        return;
      }
      await db
        .updateTable('sms_campaigns')
        .set({ status: 'sending', started_at: now })
        .where('id', '=', campaign.id)
        .execute();
    } else if (campaign.status !== 'sending') return;
    if (!campaign.audience_built_at) {
      await this.buildAudience(db, campaign, now);
      await enqueueTick(db, this.clock, campaign);
      return;
    }
    const settings = await db
      .selectFrom('sms_settings')
      .selectAll()
      .where('business_id', '=', campaign.business_id)
      .executeTakeFirst();
    if (!settings) return;
    const { budget, from } = await this.budget(db, campaign.business_id, settings.messages_per_second, now);
    const size = Math.min(budget, MAX_BATCH);
    const sent = size > 0 ? await this.batch(db, campaign, settings, size, now) : 0;
    const spentUntil = new Date(from.getTime() + Math.ceil((sent * 1000) / settings.messages_per_second));
    await db
      .updateTable('sms_send_pace')
      .set({ spent_until: spentUntil })
      .where('business_id', '=', campaign.business_id)
      .execute();
    // A budget beyond one batch (a tick that ran late) is spent by the next tick at once.
    await this.next(db, campaign, now, size < budget);
  }

  /**
   * The provider's budget for the business now: what elapsed since its budget was last spent
   * (at most CATCH_UP_MS of it), at `messages_per_second`. The row is locked: the business's
   * campaigns take their batches one after the other.
   */
  private async budget(db: Db, businessId: number, perSecond: number, now: Date) {
    await db
      .insertInto('sms_send_pace')
      .values({ business_id: businessId, spent_until: new Date(now.getTime() - CATCH_UP_MS) })
      .onConflict((conflict) => conflict.column('business_id').doNothing())
      .execute();
    const pace = await db
      .selectFrom('sms_send_pace')
      .select('spent_until')
      .where('business_id', '=', businessId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const from = new Date(Math.max(pace.spent_until.getTime(), now.getTime() - CATCH_UP_MS));
    const budget = Math.floor(((now.getTime() - from.getTime()) * perSecond) / 1000);
    return { budget, from };
  }

  /** The audience, read from the segment now: one recipient per matching subscriber, in chunks. */
  private async buildAudience(db: Db, campaign: CampaignRow, now: Date): Promise<void> {
    const where = await this.campaigns.audience(db, campaign);
    let after = 0;
    for (;;) {
      const chunk = await sql<{ last: number | null; n: string }>`
        WITH chunk AS (
          SELECT s.id, s.status FROM sms_subscribers s
          WHERE ${where} AND s.id > ${after} ORDER BY s.id LIMIT ${AUDIENCE_CHUNK}
        ), written AS (
          INSERT INTO sms_campaign_recipients (business_id, campaign_id, subscriber_id, state, reason, updated_at)
          SELECT ${campaign.business_id}, ${campaign.id}, chunk.id,
            CASE chunk.status WHEN 'confirmed' THEN 'queued' ELSE 'skipped' END,
            CASE chunk.status WHEN 'pending' THEN 'unconfirmed' WHEN 'unsubscribed' THEN 'unsubscribed' END,
            ${now}
          FROM chunk ORDER BY chunk.id
          ON CONFLICT (business_id, campaign_id, subscriber_id) DO NOTHING
        )
        SELECT max(id) AS last, count(*) AS n FROM chunk`.execute(db);
      const row = chunk.rows[0];
      if (!row || Number(row.n) < AUDIENCE_CHUNK || row.last === null) break;
      after = Number(row.last);
    }
    await db
      .updateTable('sms_campaigns')
      .set({ audience_built_at: now })
      .where('id', '=', campaign.id)
      .execute();
  }

  /** One batch: returns how many messages it wrote. */
  private async batch(db: Db, campaign: CampaignRow, settings: SettingsRow, size: number, now: Date) {
    const claimed = await db
      .selectFrom('sms_campaign_recipients')
      .select(['id', 'subscriber_id'])
      .where('campaign_id', '=', campaign.id)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'queued'),
          eb.and([eb('state', '=', 'deferred'), eb('not_before', '<=', now)]),
        ]),
      )
      .orderBy('id')
      .limit(size)
      .forUpdate()
      .skipLocked()
      .execute();
    if (claimed.length === 0) return 0;
    const subscriberIds = claimed.map((row) => row.subscriber_id).sort((a, b) => a - b);
    // Locked in id order (no two transactions wait on each other), then counted: a message another
    // campaign committed for one of them before the lock was granted is seen.
    const subscribers = await db
      .selectFrom('sms_subscribers')
      .select(['id', 'phone', 'status', 'time_zone', 'attributes'])
      .where('id', '=', sql<number>`ANY(${subscriberIds}::bigint[])`)
      .orderBy('id')
      .forUpdate()
      .execute();
    const counts = await db
      .selectFrom('sms_messages')
      .select([
        'subscriber_id',
        sql<string>`count(*) FILTER (WHERE created_at > ${new Date(now.getTime() - DAY_MS)})`.as('day'),
        sql<string>`count(*)`.as('week'),
        sql<Date | null>`min(created_at) FILTER (WHERE created_at > ${new Date(now.getTime() - DAY_MS)})`.as(
          'oldest_today',
        ),
      ])
      .where('kind', '=', 'campaign')
      .where('subscriber_id', '=', sql<number>`ANY(${subscriberIds}::bigint[])`)
      .where('created_at', '>', new Date(now.getTime() - 7 * DAY_MS))
      .groupBy('subscriber_id')
      .execute();
    const bySubscriber = new Map(subscribers.map((row) => [row.id, row]));
    const countOf = new Map(counts.map((row) => [row.subscriber_id, row]));
    const rules: SendingRules = {
      quiet: { start: settings.quiet_start, end: settings.quiet_end },
      capPerDay: settings.cap_per_day,
      capPerWeek: settings.cap_per_week,
    };
    const withCode = usesOfferCode(campaign.body);
    const toSend: Array<{ recipientId: number; subscriber: (typeof subscribers)[number] }> = [];
    const held: Array<{ id: number; state: string; reason: string; notBefore: Date | null }> = [];
    for (const recipient of claimed) {
      const subscriber = bySubscriber.get(recipient.subscriber_id);
      const count = countOf.get(recipient.subscriber_id);
      const verdict = subscriber
        ? verdictOf(
            now,
            {
              status: subscriber.status,
              time_zone: subscriber.time_zone,
              day: Number(count?.day ?? 0),
              week: Number(count?.week ?? 0),
              oldestToday: count?.oldest_today ? new Date(count.oldest_today) : null,
            },
            rules,
          )
        : ({ state: 'skipped', reason: 'unsubscribed' } as const);
      // A code past its expiry would be an offer that cannot be taken: not sent (a deferred recipient's night).
      if (verdict.state === 'sent' && withCode && (campaign.offer_expires_at ?? now) <= now)
        held.push({ id: recipient.id, state: 'skipped', reason: 'offer_expired', notBefore: null });
      else if (verdict.state === 'sent' && subscriber) toSend.push({ recipientId: recipient.id, subscriber });
      else if (verdict.state !== 'sent')
        held.push({
          id: recipient.id,
          state: verdict.state,
          reason: verdict.reason,
          notBefore: verdict.state === 'deferred' ? verdict.notBefore : null,
        });
    }
    if (held.length > 0)
      await sql`
        UPDATE sms_campaign_recipients r
        SET state = h.state, reason = h.reason, not_before = h.not_before, updated_at = ${now}
        FROM unnest(${held.map((h) => h.id)}::bigint[], ${held.map((h) => h.state)}::text[],
          ${held.map((h) => h.reason)}::text[], ${held.map((h) => h.notBefore)}::timestamptz[])
          AS h (id, state, reason, not_before)
        WHERE r.id = h.id`.execute(db);
    if (toSend.length === 0) return 0;
    const codes = withCode ? await this.issueCodes(db, campaign, toSend, now) : undefined;
    const messages: QueuedSms[] = toSend.map(({ recipientId, subscriber }, i) => ({
      business_id: campaign.business_id,
      subscriber_id: subscriber.id,
      campaign_id: campaign.id,
      recipient_id: recipientId,
      kind: 'campaign',
      to_phone: subscriber.phone,
      body: personalise(campaign.body, subscriber.attributes, codes?.[i]),
    }));
    await queueMessages(db, this.clock, campaign.business_id, messages);
    await db
      .updateTable('sms_campaign_recipients')
      .set({ state: 'sent', reason: null, not_before: null, updated_at: now })
      .where('id', '=', sql<number>`ANY(${toSend.map((one) => one.recipientId)}::bigint[])`)
      .execute();
    return toSend.length;
  }

  /** One code per recipient, kept hashed (offers.ts), written in one statement. */
  private async issueCodes(
    db: Db,
    campaign: CampaignRow,
    toSend: ReadonlyArray<{ subscriber: { id: number } }>,
    now: Date,
  ): Promise<string[]> {
    const codes = toSend.map(() => newOfferCode());
    await db
      .insertInto('sms_offer_codes')
      .values(
        toSend.map(({ subscriber }, i) => ({
          business_id: campaign.business_id,
          campaign_id: campaign.id,
          subscriber_id: subscriber.id,
          code_hash: hashOfferCode(codes[i]!),
          expires_at: campaign.offer_expires_at ?? now,
          created_at: now,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['business_id', 'campaign_id', 'subscriber_id']).doUpdateSet((eb) => ({
          code_hash: eb.ref('excluded.code_hash'),
          expires_at: eb.ref('excluded.expires_at'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
    return codes;
  }

  /**
   * Done when no recipient is left to send to; else the next tick: at once when the budget
   * allowed more than a batch, a second later while recipients are due, or at the earliest
   * deferred recipient's time.
   */
  private async next(db: Db, campaign: CampaignRow, now: Date, behind: boolean) {
    const left = await db
      .selectFrom('sms_campaign_recipients')
      .select([
        sql<string>`count(*) FILTER (WHERE state = 'queued' OR not_before <= ${now})`.as('due'),
        sql<Date | null>`min(not_before) FILTER (WHERE state = 'deferred')`.as('deferred_from'),
        sql<string>`count(*)`.as('open'),
      ])
      .where('campaign_id', '=', campaign.id)
      .where('state', 'in', ['queued', 'deferred'])
      .executeTakeFirstOrThrow();
    if (Number(left.open) === 0) {
      await db
        .updateTable('sms_campaigns')
        .set({ status: 'done', finished_at: now })
        .where('id', '=', campaign.id)
        .execute();
      return;
    }
    if (Number(left.due) > 0) {
      await enqueueTick(db, this.clock, campaign, behind ? now : new Date(now.getTime() + TICK_MS));
      return;
    }
    await enqueueTick(db, this.clock, campaign, new Date(left.deferred_from ?? now));
  }
}
