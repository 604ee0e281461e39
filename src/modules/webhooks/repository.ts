import { type Selectable, sql } from 'kysely';
import { jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { DeliveryState, WebhooksTables } from './tables.ts';

type Settings = WebhooksTables['webhook_settings'];
type Log = WebhooksTables['webhook_delivery_logs'];

export function settingsOf(db: Queryable<WebhooksTables>, businessId: number, customerId: number | null) {
  return db
    .selectFrom('webhook_settings')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(customerId === null, (q) => q.where('customer_user_id', 'is', null))
    .$if(customerId !== null, (q) => q.where('customer_user_id', '=', customerId!))
    .executeTakeFirst();
}

export async function saveSettings(
  db: Queryable<WebhooksTables>,
  values: Omit<Settings, 'id'>,
): Promise<void> {
  const row = { ...values, urls: jsonb(values.urls), disabled: jsonb(values.disabled) };
  const existing = await settingsOf(db, values.business_id, values.customer_user_id);
  if (existing) {
    await db.updateTable('webhook_settings').set(row).where('id', '=', existing.id).execute();
  } else {
    await db.insertInto('webhook_settings').values(row).execute();
  }
}

export function settingsById(db: Queryable<WebhooksTables>, id: number) {
  return db.selectFrom('webhook_settings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Switches one kind's URL off after the receiver said it is gone. */
export async function disableUrl(
  db: Queryable<WebhooksTables>,
  id: number,
  kind: string,
  reason: string,
  now: Date,
) {
  await sql`UPDATE webhook_settings
    SET urls = urls - ${kind}, disabled = disabled || jsonb_build_object(${kind}::text, ${reason}::text), updated_at = ${now}
    WHERE id = ${id}`.execute(db);
}

export async function insertLog(db: Queryable<WebhooksTables>, values: Omit<Log, 'id'>): Promise<void> {
  const row = { ...values, request_headers: jsonb(values.request_headers) };
  await db.insertInto('webhook_delivery_logs').values(row).execute();
}

export interface LogFilter {
  kind?: string;
  state?: DeliveryState;
  messageId?: string;
}

/** A page of the business's delivery log, newest first, by page number or after a cursor's row. */
export function logsOf(
  db: Queryable<WebhooksTables>,
  businessId: number,
  filter: LogFilter,
  window: PageWindow,
) {
  const base = db
    .selectFrom('webhook_delivery_logs')
    .where('business_id', '=', businessId)
    .$if(filter.kind !== undefined, (q) => q.where('kind', '=', filter.kind!))
    .$if(filter.state !== undefined, (q) => q.where('state', '=', filter.state!))
    .$if(filter.messageId !== undefined, (q) => q.where('message_id', '=', filter.messageId!));
  return pageById<Selectable<WebhooksTables['webhook_delivery_logs']>>(base.selectAll(), window, 'desc');
}

export function logById(db: Queryable<WebhooksTables>, businessId: number, id: number) {
  return db
    .selectFrom('webhook_delivery_logs')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function pruneLogs(db: Queryable<WebhooksTables>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('webhook_delivery_logs')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
