import { type Selectable, sql } from 'kysely';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError, invalidField } from '../../platform/errors.ts';
import { enqueue } from '../../platform/outbox/outbox.ts';
import { checkBody, type Fills, fieldsOf, longestFill, usesOfferCode } from './personalise.ts';
import type { SegmentRules, SmsSegments } from './segments.ts';
import { type CampaignStatus, RECIPIENT_STATES, type RecipientState, type SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
export type CampaignRow = Selectable<SmsTables['sms_campaigns']>;

/** The outbox topic of a campaign's sending ticks (sending.ts). */
export const TICK_TOPIC = 'sms.campaign.tick';

export interface TickPayload {
  campaign_id: number;
  business_id: number;
  /** Only the tick carrying the campaign's current sequence acts: a pause and resume leave one chain. */
  seq: number;
}

/**
 * Enqueues the campaign's next tick in the caller's transaction, ending any chain before it.
 * Due at `at` (at once without).
 */
export async function enqueueTick(
  db: Db,
  clock: Clock,
  campaign: { id: number; business_id: number },
  at?: Date,
) {
  const { tick_seq } = await db
    .updateTable('sms_campaigns')
    .set((eb) => ({ tick_seq: eb('tick_seq', '+', 1) }))
    .where('id', '=', campaign.id)
    .returning('tick_seq')
    .executeTakeFirstOrThrow();
  const payload: TickPayload = { campaign_id: campaign.id, business_id: campaign.business_id, seq: tick_seq };
  await enqueue(db, clock, {
    topic: TICK_TOPIC,
    businessId: campaign.business_id,
    payload,
    messageId: `sms-tick-${campaign.id}-${tick_seq}`,
    ...(at ? { availableAt: at } : {}),
  });
}

export interface CampaignInput {
  name: string;
  body: string;
  segment_id?: number | null;
  offer_expires_at?: string | null;
}

/** What each state may become through the operations (the sending engine ends a campaign `done`). */
const MOVES: Record<string, readonly CampaignStatus[]> = {
  schedule: ['draft', 'scheduled'],
  start: ['draft', 'scheduled'],
  pause: ['sending'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'sending', 'paused'],
  update: ['draft'],
};

/**
 * Campaigns: a body with personalisation fields, a segment, and their course from draft through
 * scheduled or started, sending (with pauses), to done or cancelled. Sending itself is the
 * outbox's ticks (sending.ts).
 */
export class SmsCampaigns {
  constructor(
    private readonly clock: Clock,
    private readonly segments: SmsSegments,
  ) {}

  /** A campaign of the business, locked for the change when asked, or 404. */
  async find(db: Db, businessId: number, id: number, lock = false): Promise<CampaignRow> {
    let query = db
      .selectFrom('sms_campaigns')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('id', '=', id);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw new AppError('SMS_CAMPAIGN_NOT_FOUND', { params: { id } });
    return row;
  }

  private async movable(db: Db, businessId: number, id: number, move: keyof typeof MOVES) {
    const row = await this.find(db, businessId, id, true);
    if (!MOVES[move]!.includes(row.status))
      throw new AppError('SMS_CAMPAIGN_WRONG_STATE', { params: { id, status: row.status, action: move } });
    return row;
  }

  /** Known fields only, at most 10 segments, and an expiry in the future when the body offers a code. */
  private checkContent(body: string, offerExpiresAt: Date | null): void {
    checkBody(body);
    if (!usesOfferCode(body)) return;
    if (!offerExpiresAt)
      throw invalidField('offer_expires_at', 'A body with {offer_code} needs the time its codes expire.');
    if (offerExpiresAt <= this.clock.now())
      throw invalidField('offer_expires_at', 'The offer codes would be expired already.');
  }

  async create(ctx: OperationContext, input: CampaignInput) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const expires = input.offer_expires_at ? new Date(input.offer_expires_at) : null;
    this.checkContent(input.body, expires);
    if (input.segment_id) await this.segments.find(db, businessId, input.segment_id);
    const row = await db
      .insertInto('sms_campaigns')
      .values({
        business_id: businessId,
        name: input.name,
        body: input.body,
        segment_id: input.segment_id ?? null,
        status: 'draft',
        scheduled_at: null,
        offer_expires_at: expires,
        started_at: null,
        finished_at: null,
        audience_built_at: null,
        created_by: callerOf(ctx).userId ?? null,
        created_at: this.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.answer(db, row);
  }

  async update(ctx: OperationContext, input: Partial<CampaignInput> & { campaign_id: number }) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const row = await this.movable(db, businessId, input.campaign_id, 'update');
    const body = input.body ?? row.body;
    const expires =
      input.offer_expires_at === undefined
        ? row.offer_expires_at
        : input.offer_expires_at
          ? new Date(input.offer_expires_at)
          : null;
    this.checkContent(body, expires);
    if (input.segment_id) await this.segments.find(db, businessId, input.segment_id);
    const updated = await db
      .updateTable('sms_campaigns')
      .set({
        name: input.name ?? row.name,
        body,
        offer_expires_at: expires,
        ...(input.segment_id !== undefined ? { segment_id: input.segment_id } : {}),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.answer(db, updated);
  }

  /** Sends from `at` on: the audience is read then. */
  async schedule(ctx: OperationContext, input: { campaign_id: number; at: string }) {
    const db = ctx.db as Db;
    const row = await this.movable(db, businessOf(ctx), input.campaign_id, 'schedule');
    const at = new Date(input.at);
    if (at <= this.clock.now())
      throw invalidField('at', 'A schedule is in the future; start the campaign now instead.');
    this.checkContent(row.body, row.offer_expires_at);
    await db
      .updateTable('sms_campaigns')
      .set({ status: 'scheduled', scheduled_at: at })
      .where('id', '=', row.id)
      .execute();
    await enqueueTick(db, this.clock, row, at);
    return this.answer(db, await this.find(db, row.business_id, row.id));
  }

  async start(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    const row = await this.movable(db, businessOf(ctx), input.campaign_id, 'start');
    this.checkContent(row.body, row.offer_expires_at);
    const now = this.clock.now();
    await db
      .updateTable('sms_campaigns')
      .set({ status: 'sending', started_at: now })
      .where('id', '=', row.id)
      .execute();
    await enqueueTick(db, this.clock, row);
    return this.answer(db, await this.find(db, row.business_id, row.id));
  }

  async pause(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    const row = await this.movable(db, businessOf(ctx), input.campaign_id, 'pause');
    await db.updateTable('sms_campaigns').set({ status: 'paused' }).where('id', '=', row.id).execute();
    return this.answer(db, await this.find(db, row.business_id, row.id));
  }

  async resume(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    const row = await this.movable(db, businessOf(ctx), input.campaign_id, 'resume');
    await db.updateTable('sms_campaigns').set({ status: 'sending' }).where('id', '=', row.id).execute();
    await enqueueTick(db, this.clock, row);
    return this.answer(db, await this.find(db, row.business_id, row.id));
  }

  /** Stops for good: recipients not yet sent to are skipped (reason cancelled). */
  async cancel(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    const row = await this.movable(db, businessOf(ctx), input.campaign_id, 'cancel');
    const now = this.clock.now();
    await db
      .updateTable('sms_campaigns')
      .set({ status: 'cancelled', finished_at: now })
      .where('id', '=', row.id)
      .execute();
    await db
      .updateTable('sms_campaign_recipients')
      .set({ state: 'skipped', reason: 'cancelled', not_before: null, updated_at: now })
      .where('campaign_id', '=', row.id)
      .where('state', 'in', ['queued', 'deferred'])
      .execute();
    return this.answer(db, await this.find(db, row.business_id, row.id));
  }

  async get(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    return this.answer(db, await this.find(db, businessOf(ctx), input.campaign_id));
  }

  /**
   * What sending would take, now: the confirmed subscribers the segment matches, each message's
   * segments at its longest (every field filled as long as the longest value among them), the
   * encoding, the total and its cost. Reads only: nothing is written or sent.
   */
  async preview(ctx: OperationContext, input: { campaign_id: number }) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const row = await this.find(db, businessId, input.campaign_id);
    const where = await this.audience(db, row);
    const keys = [
      ...new Set(fieldsOf(row.body).flatMap((field) => (field.kind === 'attribute' ? [field.key] : []))),
    ];
    const selections = [
      sql<string>`count(*)`.as('recipients'),
      ...keys.flatMap((key, i) => [
        sql<number | null>`max(char_length(s.attributes ->> ${key}))`.as(`len_${i}`),
        // Outside printable ASCII may need UCS-2: counted as if it did (the worst case).
        sql<boolean | null>`bool_or(s.attributes ->> ${key} ~ '[^ -~]')`.as(`uni_${i}`),
      ]),
    ];
    const stats = (await db
      .selectFrom('sms_subscribers as s')
      .select(selections)
      .where(sql<boolean>`${where} AND s.status = 'confirmed'`)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const fills: Fills = new Map(
      keys.map((key, i) => [
        key,
        { length: Number(stats[`len_${i}`] ?? 0), unicode: stats[`uni_${i}`] === true },
      ]),
    );
    const measured = longestFill(row.body, fills);
    const recipients = Number(stats.recipients);
    const settings = await db
      .selectFrom('sms_settings')
      .select(['segment_cost', 'currency'])
      .where('business_id', '=', businessId)
      .executeTakeFirst();
    const total = recipients * measured.segments;
    return {
      result: true as const,
      recipients,
      encoding: measured.encoding,
      segments_per_message: measured.segments,
      characters_per_message: measured.characters,
      total_segments: total,
      estimated_cost: {
        amount: Math.round(total * Number(settings?.segment_cost ?? 0) * 1e6) / 1e6,
        currency: settings?.currency ?? 'EUR',
      },
    };
  }

  /** The condition on `s` of the campaign's audience (every subscriber without a segment). */
  async audience(db: Db, row: CampaignRow) {
    const rules: SegmentRules = row.segment_id
      ? ((await this.segments.find(db, row.business_id, row.segment_id)).rules as SegmentRules)
      : {};
    return this.segments.condition(db, row.business_id, rules);
  }

  private async counts(db: Db, ids: number[]) {
    const counts = new Map<number, Record<RecipientState, number>>();
    if (ids.length === 0) return counts;
    const rows = await db
      .selectFrom('sms_campaign_recipients')
      .select(['campaign_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
      .where('campaign_id', 'in', ids)
      .groupBy(['campaign_id', 'state'])
      .execute();
    for (const row of rows) {
      const of = counts.get(row.campaign_id) ?? zeroCounts();
      of[row.state] = Number(row.n);
      counts.set(row.campaign_id, of);
    }
    return counts;
  }

  private async answer(db: Db, row: CampaignRow) {
    const counts = await this.counts(db, [row.id]);
    return { result: true as const, campaign: view(row, counts.get(row.id)) };
  }
}

function zeroCounts(): Record<RecipientState, number> {
  return Object.fromEntries(RECIPIENT_STATES.map((state) => [state, 0])) as Record<RecipientState, number>;
}

function view(row: CampaignRow, counts = zeroCounts()) {
  return {
    id: row.id,
    name: row.name,
    body: row.body,
    segment_id: row.segment_id,
    status: row.status,
    scheduled_at: row.scheduled_at?.toISOString() ?? null,
    offer_expires_at: row.offer_expires_at?.toISOString() ?? null,
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    recipients: counts,
  };
}
