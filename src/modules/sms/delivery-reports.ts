import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
export type FinalState = 'delivered' | 'failed';

/** A message as its provider names it: the provider's own id, within one business. */
export interface ProviderMessage {
  businessId: number;
  provider: string;
  providerMessageId: string;
}

/** What a provider's delivery report says of one of its messages. */
export interface DeliveryReport extends ProviderMessage {
  state: FinalState;
  error?: string | null;
}

/** The columns naming a provider's message, alike in sms_messages and sms_early_reports. */
const columnsOf = (message: ProviderMessage) => ({
  business_id: message.businessId,
  provider: message.provider,
  provider_message_id: message.providerMessageId,
});

/** Reports of ids no message ever took are kept this long, then forgotten. */
const EARLY_REPORT_DAYS = 7;

/**
 * A provider's delivery report, applied to the message with that provider id and to its campaign
 * recipient. A delivered message stays delivered. False when no message has that id yet: the
 * provider's answer to the send may not be recorded yet, so the report is kept for it
 * (`keepEarlyReport`).
 */
export async function applyReport(
  db: Db,
  report: DeliveryReport,
  now: Date,
): Promise<'updated' | 'unchanged' | 'unknown'> {
  const { state, error } = report;
  const message = await db
    .updateTable('sms_messages')
    .set({ state, status_at: now, ...(state === 'failed' && error ? { error } : {}) })
    .where((eb) => eb.and(columnsOf(report)))
    .where('state', '!=', 'delivered')
    .returning('recipient_id')
    .executeTakeFirst();
  if (!message) {
    const known = await db
      .selectFrom('sms_messages')
      .select('id')
      .where((eb) => eb.and(columnsOf(report)))
      .executeTakeFirst();
    return known ? 'unchanged' : 'unknown';
  }
  if (message.recipient_id !== null)
    await db
      .updateTable('sms_campaign_recipients')
      .set({ state, updated_at: now, ...(state === 'failed' ? { reason: 'undelivered' } : {}) })
      .where('id', '=', message.recipient_id)
      .where('state', '!=', 'delivered')
      .execute();
  return 'updated';
}

/** Keeps a report of a message id not (yet) known; a delivered report wins over a failed one. */
export async function keepEarlyReport(db: Db, report: DeliveryReport, now: Date): Promise<void> {
  await db
    .insertInto('sms_early_reports')
    .values({
      ...columnsOf(report),
      state: report.state,
      error: report.error ?? null,
      received_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['business_id', 'provider', 'provider_message_id'])
        .doUpdateSet({ state: sql`excluded.state`, error: sql`excluded.error` })
        .where('sms_early_reports.state', '!=', 'delivered'),
    )
    .execute();
  await db
    .deleteFrom('sms_early_reports')
    .where('business_id', '=', report.businessId)
    .where('received_at', '<', new Date(now.getTime() - EARLY_REPORT_DAYS * 86_400_000))
    .execute();
}

/**
 * Serialises, until the transaction ends, a delivery report and the recording of the send it is
 * about: whichever commits second sees the other's row, so an early report is never missed.
 * Both callers run in a transaction (an operation, the sender's).
 */
export async function lockProviderMessage(db: Db, message: ProviderMessage): Promise<void> {
  const key = `sms:${message.businessId}:${message.provider}:${message.providerMessageId}`;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

/** Once a message has its provider id: the report that came before it, applied and removed. */
export async function applyEarlyReport(db: Db, message: ProviderMessage, now: Date): Promise<void> {
  const early = await db
    .deleteFrom('sms_early_reports')
    .where((eb) => eb.and(columnsOf(message)))
    .returning(['state', 'error'])
    .executeTakeFirst();
  if (early) await applyReport(db, { ...message, state: early.state as FinalState, error: early.error }, now);
}
