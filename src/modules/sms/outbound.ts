import type { Insertable } from 'kysely';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { inTransaction } from '../../platform/db/database.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import { applyEarlyReport, lockProviderMessage } from './delivery-reports.ts';
import type { ProviderAccount, SmsProviders } from './provider.ts';
import type { SmsTables } from './tables.ts';
import { measure } from './text.ts';

type Db = Queryable<SmsTables>;

/** The outbox topic whose messages hand queued SMS to the business's provider. */
export const SEND_TOPIC = 'sms.send';

export type QueuedSms = Omit<
  Insertable<SmsTables['sms_messages']>,
  | 'id'
  | 'state'
  | 'segments'
  | 'created_at'
  | 'sent_at'
  | 'status_at'
  | 'provider'
  | 'provider_message_id'
  | 'error'
>;

/** The business's provider account and sending number (the settings module opens the secret). */
export type AccountOf = (
  db: Queryable,
  businessId: number,
) => Promise<(ProviderAccount & { sender: string }) | undefined>;

/**
 * Writes messages of one business and the outbox message that sends them, in the caller's
 * transaction: a message exists exactly when the change that caused it commits, is handed to the
 * provider at least once after, and a rolled back change (a dry run) sends nothing.
 */
export async function queueMessages(
  db: Db,
  clock: Clock,
  businessId: number,
  messages: QueuedSms[],
): Promise<number[]> {
  if (messages.length === 0) return [];
  const now = clock.now();
  const rows = await db
    .insertInto('sms_messages')
    .values(
      messages.map((message) => ({
        ...message,
        business_id: businessId,
        segments: measure(message.body).segments,
        state: 'queued' as const,
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  const ids = rows.map((row) => row.id);
  await enqueue(db, clock, {
    topic: SEND_TOPIC,
    businessId,
    payload: { business_id: businessId, message_ids: ids },
    messageId: `sms-send-${ids[0]}-${ids.length}`,
  });
  return ids;
}

/** Messages handed to the provider at once within one outbox message. */
const CONCURRENCY = 16;

/**
 * The outbox handler: hands each still-queued message of the batch to the provider and records
 * what it said. A message the provider took is never handed over again; one it could not take now
 * is retried with the batch; one it refused for good is failed (and so is its campaign recipient).
 */
export function sendHandler(
  db: Db,
  clock: Clock,
  providers: SmsProviders,
  accountOf: AccountOf,
): OutboxHandler {
  return async (message) => {
    const { business_id, message_ids } = message.payload as { business_id: number; message_ids: number[] };
    const account = await accountOf(db, business_id);
    if (!account) return { done: true, error: 'SMS marketing is not set up for this business' };
    const provider = providers.for(account);
    const queued = await db
      .selectFrom('sms_messages')
      .select(['id', 'to_phone', 'body', 'recipient_id'])
      .where('id', 'in', message_ids)
      .where('state', '=', 'queued')
      .orderBy('id')
      .execute();
    let lastError: string | undefined;
    for (let start = 0; start < queued.length; start += CONCURRENCY) {
      await Promise.all(
        queued.slice(start, start + CONCURRENCY).map(async (row) => {
          const outcome = await provider
            .send({ id: row.id, from: account.sender, to: row.to_phone, body: row.body })
            .catch((error: unknown) => ({
              accepted: false as const,
              permanent: false as const,
              error: String(error),
            }));
          if (!outcome.accepted && !outcome.permanent) {
            lastError = outcome.error;
            return;
          }
          const now = clock.now();
          const sent = outcome.accepted
            ? {
                businessId: business_id,
                provider: provider.kind,
                providerMessageId: outcome.providerMessageId,
              }
            : null;
          await inTransaction(db, async (trx) => {
            if (sent) await lockProviderMessage(trx, sent);
            await trx
              .updateTable('sms_messages')
              .set(
                outcome.accepted
                  ? {
                      state: 'sent',
                      provider: provider.kind,
                      provider_message_id: outcome.providerMessageId,
                      sent_at: now,
                      status_at: now,
                    }
                  : { state: 'failed', provider: provider.kind, error: outcome.error, status_at: now },
              )
              .where('id', '=', row.id)
              .where('state', '=', 'queued')
              .execute();
            // A report that came before this answer was kept for it.
            if (sent) await applyEarlyReport(trx, sent, now);
            // A campaign recipient is `sent` from the transaction that recorded its message.
            if (row.recipient_id !== null && !outcome.accepted)
              await trx
                .updateTable('sms_campaign_recipients')
                .set({ state: 'failed', reason: 'provider_refused', updated_at: now })
                .where('id', '=', row.recipient_id)
                .execute();
          });
        }),
      );
    }
    if (lastError !== undefined)
      return { retryAt: new Date(clock.now().getTime() + 30_000), error: lastError };
    return { done: true };
  };
}
