// A business's SMS subscribers: added by its staff, its web form or an import, always with the
// evidence of their consent; read with that evidence; erased on request.

import { type Selectable, sql } from 'kysely';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { pageById, type Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { rateLimited } from '../../platform/limits.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import { yieldToEventLoop } from '../../platform/slices.ts';
import type { Consent, NewSubscriber, PriorConsent, SettingsRow, SubscriberRow } from './consent.ts';
import type { QueuedSms } from './outbound.ts';
import type { SmsSettings } from './settings.ts';
import {
  type FieldProblem,
  fieldsRefused,
  languageOfCountry,
  normalisePhone,
  zoneOfCountry,
} from './subscriber-profile.ts';
import type { SmsTables, SubscriberStatus } from './tables.ts';

type Db = Queryable<SmsTables>;

/** What SMS marketing needs of businesses (the accounts module): codes, zones, the family's switch. */
export interface SmsBusinessDirectory {
  idOf(db: Queryable, code: string): Promise<number | undefined>;
  timeZoneOf(db: Queryable, businessId: number): Promise<string>;
  /** 'on', or why not ('off', 'revoked', 'not_migrated'). */
  familyStateOf(db: Queryable, businessId: number): Promise<string>;
}

export const MAX_IMPORT_ROWS = 10_000;
/** Rows written between two turns of the event loop. */
const IMPORT_BATCH = 200;
/** The longest user agent kept as evidence. */
const MAX_USER_AGENT = 300;

export interface ProfileInput {
  phone: string;
  language?: string;
  time_zone?: string;
  tags?: string[];
  attributes?: Record<string, string>;
}

export interface ImportRow extends ProfileInput {
  consent_text?: string;
  consent_version?: string;
  consented_at?: string;
  requested_from?: string;
  source?: string;
}

function subscriberView(row: SubscriberRow) {
  return {
    id: row.id,
    phone: row.phone,
    status: row.status,
    language: row.language,
    time_zone: row.time_zone,
    tags: row.tags,
    attributes: row.attributes,
    created_at: row.created_at.toISOString(),
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
    unsubscribed_at: row.unsubscribed_at?.toISOString() ?? null,
  };
}

export class SmsSubscribers {
  private readonly byAddress: RateLimiterMemory;

  constructor(
    private readonly clock: Clock,
    private readonly settings: SmsSettings,
    private readonly consent: Consent,
    private readonly businesses: SmsBusinessDirectory,
    subscribesPerAddressPerHour: number,
  ) {
    this.byAddress = new RateLimiterMemory({ points: subscribesPerAddressPerHour, duration: 3600 });
  }

  // ----- staff -----

  async create(
    ctx: OperationContext,
    input: ProfileInput & { source: 'api' | 'checkout' | 'form'; requested_from?: string },
  ) {
    const settings = await this.settingsOf(ctx.db, businessOf(ctx));
    const profile = await this.profileOf(ctx.db, settings, input, '');
    const { subscriber, outcome, confirmation } = await this.consent.request(ctx.db, settings, profile, {
      source: input.source,
      requested_from: input.requested_from ?? null,
    });
    if (confirmation) await this.consent.send(ctx.db, settings.business_id, [confirmation]);
    return { result: true as const, outcome, subscriber: subscriberView(subscriber) };
  }

  /** The subscribers, oldest first, a page at a time by number or cursor: a list grows without bound. */
  async list(ctx: OperationContext, input: CursorPageQuery & { status?: SubscriberStatus; tag?: string }) {
    let query = (ctx.db as Db)
      .selectFrom('sms_subscribers')
      .selectAll()
      .where('business_id', '=', businessOf(ctx));
    if (input.status) query = query.where('status', '=', input.status);
    if (input.tag) query = query.where(sql<boolean>`tags @> ARRAY[${input.tag}]::text[]`);
    const page = await pageById<Selectable<SmsTables['sms_subscribers']>>(query, cursorWindow(input), 'asc');
    return {
      result: true as const,
      ...cursorEnvelopeOf(input, page),
      subscribers: page.rows.map(subscriberView),
    };
  }

  async get(ctx: OperationContext, id: number) {
    const subscriber = await this.find(ctx.db, businessOf(ctx), id);
    const evidence = await (ctx.db as Db)
      .selectFrom('sms_consent_evidence')
      .selectAll()
      .where('subscriber_id', '=', subscriber.id)
      .orderBy('id')
      .execute();
    return {
      result: true as const,
      subscriber: {
        ...subscriberView(subscriber),
        evidence: evidence.map((row) => ({
          event: row.event,
          source: row.source,
          consent_text: row.consent_text,
          consent_version: row.consent_version,
          requested_from: row.requested_from,
          message_text: row.message_text,
          message_id: row.message_id,
          at: row.at.toISOString(),
        })),
      },
    };
  }

  /** Tags, attributes, language and zone: never the status, which only the subscriber changes. */
  async update(
    ctx: OperationContext,
    input: {
      id: number;
      tags?: string[];
      attributes?: Record<string, string>;
      language?: string;
      time_zone?: string;
    },
  ) {
    const { id, ...change } = input;
    const businessId = businessOf(ctx);
    await this.find(ctx.db, businessId, id);
    if (Object.keys(change).length === 0) return this.get(ctx, id);
    await (ctx.db as Db)
      .updateTable('sms_subscribers')
      .set(change)
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .execute();
    return this.get(ctx, id);
  }

  /**
   * Erasure, as the person asked: the subscriber and its evidence go; the messages sent keep their
   * text as the record of what went out, no longer linked to anyone.
   */
  async delete(ctx: OperationContext, id: number) {
    const businessId = businessOf(ctx);
    await this.find(ctx.db, businessId, id);
    await (ctx.db as Db)
      .deleteFrom('sms_subscribers')
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .execute();
    return { result: true as const, deleted: id };
  }

  /**
   * A list at once: every row is checked first, and any bad one refuses the whole import (422,
   * each bad row named) so nothing of it is half-written. A row with its consent evidence
   * (text, version, time) is confirmed by it; one without is pending and sent a confirmation.
   */
  async import(ctx: OperationContext, rows: ImportRow[]) {
    const settings = await this.settingsOf(ctx.db, businessOf(ctx));
    const now = this.clock.now();
    const problems: FieldProblem[] = [];
    const ready: Array<{ profile: NewSubscriber; prior?: PriorConsent }> = [];
    for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
      if (start > 0) await yieldToEventLoop();
      for (const [offset, row] of rows.slice(start, start + IMPORT_BATCH).entries()) {
        const index = start + offset;
        const prefix = `rows.${index}.`;
        const rowProblems: FieldProblem[] = [];
        const phone = this.phoneOf(settings, row.phone, prefix, index + 1, rowProblems);
        const prior = this.priorOf(row, now, prefix, index + 1, rowProblems);
        problems.push(...rowProblems);
        if (phone && rowProblems.length === 0)
          ready.push({
            profile: await this.profileFor(ctx.db, settings, row, phone),
            ...(prior ? { prior } : {}),
          });
      }
    }
    if (problems.length > 0) throw fieldsRefused(problems);
    const counts = { created: 0, confirmed: 0, pending: 0, unchanged: 0, unsubscribed: 0 };
    for (let start = 0; start < ready.length; start += IMPORT_BATCH) {
      if (start > 0) await yieldToEventLoop();
      const batch = ready.slice(start, start + IMPORT_BATCH).map(({ profile, prior }, offset) => {
        // Every row passed its checks (any bad one refused the import): `ready` is `rows`, in order.
        const row = rows[start + offset]!;
        const from = [
          row.source && `source ${row.source}`,
          row.requested_from,
          `import row ${start + offset + 1}`,
        ]
          .filter(Boolean)
          .join('; ');
        return {
          profile,
          evidence: { source: 'import' as const, requested_from: from },
          ...(prior ? { prior: { ...prior, requested_from: from } } : {}),
        };
      });
      const confirmations: QueuedSms[] = [];
      for (const result of await this.consent.requestMany(ctx.db, settings, batch)) {
        counts[result.outcome] += 1;
        if (result.created) counts.created += 1;
        // The same number twice in a list is asked once.
        const asked = confirmations.some((queued) => queued.subscriber_id === result.subscriber.id);
        if (result.confirmation && !asked) confirmations.push(result.confirmation);
      }
      await this.consent.send(ctx.db, settings.business_id, confirmations);
    }
    return { result: true as const, rows: rows.length, ...counts };
  }

  // ----- public -----

  /** The business's web form: the person's address and browser are kept as the request's evidence. */
  async subscribe(
    ctx: OperationContext,
    input: { business: string; phone: string; language?: string; time_zone?: string; user_agent?: string },
  ) {
    await this.byAddress.consume(ctx.ip ?? 'unknown').catch((refusal) => {
      throw rateLimited(refusal.msBeforeNext ?? 60_000);
    });
    const businessId = await this.businesses.idOf(ctx.db, input.business);
    if (businessId === undefined) throw new AppError('BUSINESS_NOT_FOUND');
    await this.requireOn(ctx.db, businessId);
    const settings = await this.settingsOf(ctx.db, businessId);
    const profile = await this.profileOf(ctx.db, settings, input, '');
    const { confirmation } = await this.consent.request(ctx.db, settings, profile, {
      source: 'form',
      requested_from: addressOf(ctx, input.user_agent),
    });
    if (confirmation) await this.consent.send(ctx.db, businessId, [confirmation]);
    // Whether the number was known is nobody's business but the business's: the answer is the same.
    return { result: true as const };
  }

  /** The signed link of a confirmation message: it confirms only the subscriber it names. */
  async confirmByLink(
    ctx: OperationContext,
    input: { subscriber_id: number; signature: string; user_agent?: string },
  ) {
    const subscriber = await this.linked(ctx.db, input.subscriber_id, input.signature);
    await this.requireOn(ctx.db, subscriber.business_id);
    const locked = (await this.consent.lockById(ctx.db, subscriber.business_id, subscriber.id))!;
    const after = await this.consent.confirm(ctx.db, locked, {
      source: 'link',
      requested_from: addressOf(ctx, input.user_agent),
    });
    return { result: true as const, status: after.status };
  }

  /** What a signed link shows before its button is pressed (a link previewer must not confirm). */
  async linkState(ctx: OperationContext, input: { subscriber_id: number; signature: string }) {
    const subscriber = await this.linked(ctx.db, input.subscriber_id, input.signature);
    await this.requireOn(ctx.db, subscriber.business_id);
    return { result: true as const, status: subscriber.status };
  }

  // ----- parts -----

  private async linked(db: Db, id: number, signature: string): Promise<SubscriberRow> {
    const subscriber = await db
      .selectFrom('sms_subscribers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    // An unknown subscriber and a wrong signature answer alike: a link cannot be used to probe ids.
    if (!subscriber || !(await this.consent.verifyLink(db, subscriber, signature)))
      throw new AppError('SMS_LINK_INVALID');
    return subscriber;
  }

  private async requireOn(db: Db, businessId: number): Promise<void> {
    const state = await this.businesses.familyStateOf(db, businessId);
    if (state !== 'on')
      throw new AppError('SMS_MARKETING_DISABLED', { details: { feature: 'sms_marketing', reason: state } });
  }

  private async settingsOf(db: Db, businessId: number): Promise<SettingsRow> {
    const settings = await this.settings.of(db, businessId);
    if (!settings)
      throw new AppError('SMS_MARKETING_DISABLED', {
        details: { feature: 'sms_marketing', reason: 'not_migrated' },
      });
    return settings;
  }

  private async find(db: Db, businessId: number, id: number): Promise<SubscriberRow> {
    const row = await db
      .selectFrom('sms_subscribers')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('SMS_SUBSCRIBER_NOT_FOUND', { params: { id } });
    return row;
  }

  private async profileOf(
    db: Db,
    settings: SettingsRow,
    input: ProfileInput,
    prefix: string,
  ): Promise<NewSubscriber> {
    const problems: FieldProblem[] = [];
    const phone = this.phoneOf(settings, input.phone, prefix, undefined, problems);
    if (!phone) throw fieldsRefused(problems);
    return this.profileFor(db, settings, input, phone);
  }

  private phoneOf(
    settings: SettingsRow,
    text: string,
    prefix: string,
    row: number | undefined,
    problems: FieldProblem[],
  ): { e164: string; country?: string } | undefined {
    const phone = normalisePhone(text, settings.default_region);
    if (!phone)
      problems.push({
        field: `${prefix}phone`,
        message: `${row ? `Row ${row}: ` : ''}${text} is not a valid phone number (read in ${settings.default_region}).`,
        ...(row ? { row } : {}),
      });
    return phone;
  }

  /** An import row's evidence: all of text, version and time, or none of them. */
  private priorOf(row: ImportRow, now: Date, prefix: string, index: number, problems: FieldProblem[]) {
    const given = [row.consent_text, row.consent_version, row.consented_at].filter(
      (value) => value !== undefined,
    );
    if (given.length === 0) return undefined;
    const at = row.consented_at ? new Date(row.consented_at) : undefined;
    for (const field of ['consent_text', 'consent_version', 'consented_at'] as const) {
      if (row[field] === undefined)
        problems.push({
          field: `${prefix}${field}`,
          message: `Row ${index}: evidence needs consent_text, consent_version and consented_at.`,
          row: index,
        });
    }
    if (at && at > now)
      problems.push({
        field: `${prefix}consented_at`,
        message: `Row ${index}: consent cannot come from the future.`,
        row: index,
      });
    if (problems.length > 0 || !at) return undefined;
    return {
      consent_text: row.consent_text!,
      consent_version: row.consent_version!,
      consented_at: at,
      requested_from: null,
    };
  }

  private async profileFor(
    db: Db,
    settings: SettingsRow,
    input: ProfileInput,
    phone: { e164: string; country?: string },
  ): Promise<NewSubscriber> {
    const zone =
      input.time_zone ??
      zoneOfCountry(phone.country, await this.businesses.timeZoneOf(db, settings.business_id)) ??
      (await this.businesses.timeZoneOf(db, settings.business_id));
    return {
      phone: phone.e164,
      language: input.language ?? languageOfCountry(phone.country),
      time_zone: zone,
      tags: input.tags ?? [],
      attributes: input.attributes ?? {},
    };
  }
}

/** The caller's address and browser, as the evidence keeps them. */
function addressOf(ctx: OperationContext, userAgent: string | undefined): string {
  const parts = [`ip ${ctx.ip ?? 'unknown'}`];
  if (userAgent) parts.push(`user agent ${userAgent.slice(0, MAX_USER_AGENT)}`);
  return parts.join('; ');
}
