import { type RawBuilder, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { OrderHistory } from './order-history.ts';
import type { SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
type SegmentRow = Selectable<SmsTables['sms_segments']>;

const DAY_MS = 86_400_000;
const words = (what: string) => z.array(z.string().min(1).max(64)).min(1).max(50).describe(what);
const days = (what: string) => z.int().min(1).max(3650).optional().describe(what);

/**
 * A segment's rules: every rule given must hold (AND); none given matches every subscriber.
 * Only confirmed subscribers are ever counted or sent to, whatever the rules.
 */
export const rulesSchema = z
  .strictObject({
    tags: z
      .strictObject({
        any: words('Has at least one of these tags').optional(),
        all: words('Has every one of these tags').optional(),
        none: words('Has none of these tags').optional(),
      })
      .optional(),
    attributes: z
      .record(z.string().min(1).max(64), z.string().max(200))
      .refine((value) => Object.keys(value).length <= 20, 'at most 20 attributes')
      .optional()
      .describe('Each attribute equals the value given'),
    languages: z.array(z.string().min(2).max(16)).min(1).max(10).optional().describe('Speaks one of these'),
    delivered_within_days: days('Had an order delivered to their phone in the last N days'),
    ordered_within_days: days('Had an order made for their phone in the last N days'),
    no_order_within_days: days('Had no order made for their phone in the last N days'),
  })
  .meta({ title: 'SmsSegmentRules' })
  .describe(
    "Rules over tags, attributes, language and order history (orders matched on the recipient's phone in E.164)",
  );
export type SegmentRules = z.infer<typeof rulesSchema>;

export interface SegmentInput {
  name: string;
  rules: SegmentRules;
}

/** A phone as staff see it in a preview: its country code and last two digits. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}${'•'.repeat(Math.max(0, phone.length - 5))}${phone.slice(-2)}`;
}

const PREVIEW_ROWS = 20;

/**
 * Saved segments and their evaluation: rules become one SQL condition over `sms_subscribers s`
 * (the order history rules become lists of phones the orders module answers), so an audience of
 * 100,000 is counted or copied in one statement.
 */
export class SmsSegments {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrderHistory,
  ) {}

  /** The condition on `s` (sms_subscribers) of a business's subscribers matching `rules`, now. */
  async condition(db: Db, businessId: number, rules: SegmentRules): Promise<RawBuilder<boolean>> {
    const parts: RawBuilder<boolean>[] = [sql`s.business_id = ${businessId}`];
    if (rules.tags?.any) parts.push(sql`s.tags && ${rules.tags.any}::text[]`);
    if (rules.tags?.all) parts.push(sql`s.tags @> ${rules.tags.all}::text[]`);
    if (rules.tags?.none) parts.push(sql`NOT (s.tags && ${rules.tags.none}::text[])`);
    if (rules.attributes && Object.keys(rules.attributes).length > 0)
      parts.push(sql`s.attributes @> ${JSON.stringify(rules.attributes)}::jsonb`);
    if (rules.languages) parts.push(sql`s.language = ANY(${rules.languages}::text[])`);
    const history = async (within: number, what: 'ordered' | 'delivered') => {
      const region = await db
        .selectFrom('sms_settings')
        .select('default_region')
        .where('business_id', '=', businessId)
        .executeTakeFirst();
      const since = new Date(this.clock.now().getTime() - within * DAY_MS);
      return this.orders.phonesSince(db, businessId, region?.default_region ?? 'US', since, what);
    };
    if (rules.delivered_within_days !== undefined)
      parts.push(sql`s.phone = ANY(${await history(rules.delivered_within_days, 'delivered')}::text[])`);
    if (rules.ordered_within_days !== undefined)
      parts.push(sql`s.phone = ANY(${await history(rules.ordered_within_days, 'ordered')}::text[])`);
    if (rules.no_order_within_days !== undefined)
      parts.push(sql`s.phone <> ALL(${await history(rules.no_order_within_days, 'ordered')}::text[])`);
    return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
  }

  /** A segment of the caller's business, or 404. */
  async find(db: Db, businessId: number, id: number): Promise<SegmentRow> {
    const row = await db
      .selectFrom('sms_segments')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('SMS_SEGMENT_NOT_FOUND', { params: { id } });
    return row;
  }

  async create(ctx: OperationContext, input: SegmentInput) {
    const now = this.clock.now();
    const row = await (ctx.db as Db)
      .insertInto('sms_segments')
      .values({
        business_id: businessOf(ctx),
        name: input.name,
        rules: JSON.stringify(input.rules),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { result: true as const, segment: view(row) };
  }

  async update(ctx: OperationContext, input: { segment_id: number; name?: string; rules?: SegmentRules }) {
    const db = ctx.db as Db;
    await this.find(db, businessOf(ctx), input.segment_id);
    const row = await db
      .updateTable('sms_segments')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.rules !== undefined ? { rules: JSON.stringify(input.rules) } : {}),
        updated_at: this.clock.now(),
      })
      .where('id', '=', input.segment_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { result: true as const, segment: view(row) };
  }

  /** A segment a campaign still to send names cannot go; a finished campaign's keeps no link to it. */
  async remove(ctx: OperationContext, input: { segment_id: number }) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    await this.find(db, businessId, input.segment_id);
    const using = await db
      .selectFrom('sms_campaigns')
      .select('id')
      .where('business_id', '=', businessId)
      .where('segment_id', '=', input.segment_id)
      .where('status', 'in', ['draft', 'scheduled', 'sending', 'paused'])
      .executeTakeFirst();
    if (using)
      throw new AppError('SMS_SEGMENT_IN_USE', { params: { id: input.segment_id, campaign: using.id } });
    await db
      .updateTable('sms_campaigns')
      .set({ segment_id: null })
      .where('business_id', '=', businessId)
      .where('segment_id', '=', input.segment_id)
      .execute();
    await db.deleteFrom('sms_segments').where('id', '=', input.segment_id).execute();
    return { result: true as const };
  }

  async list(ctx: OperationContext, query: PageQuery) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const { limit, offset } = pageWindow(query);
    const rows = await db
      .selectFrom('sms_segments')
      .selectAll()
      .where('business_id', '=', businessId)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { total } = await db
      .selectFrom('sms_segments')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('business_id', '=', businessId)
      .executeTakeFirstOrThrow();
    return { result: true as const, segments: rows.map(view), ...envelopeOf(query, Number(total)) };
  }

  /** How many confirmed subscribers the segment matches now, and the first of them, masked. */
  async preview(ctx: OperationContext, input: { segment_id: number }) {
    const db = ctx.db as Db;
    const businessId = businessOf(ctx);
    const segment = await this.find(db, businessId, input.segment_id);
    const where = await this.condition(db, businessId, segment.rules as SegmentRules);
    const matching = sql<boolean>`${where} AND s.status = 'confirmed'`;
    const { count } = await db
      .selectFrom('sms_subscribers as s')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where(matching)
      .executeTakeFirstOrThrow();
    const first = await db
      .selectFrom('sms_subscribers as s')
      .select(['s.id', 's.phone'])
      .where(matching)
      .orderBy('s.id')
      .limit(PREVIEW_ROWS)
      .execute();
    return {
      result: true as const,
      count: Number(count),
      subscribers: first.map((row) => ({ id: row.id, phone: maskPhone(row.phone) })),
    };
  }
}

function view(row: SegmentRow) {
  return {
    id: row.id,
    name: row.name,
    rules: row.rules as SegmentRules,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
