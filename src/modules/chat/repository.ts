import { type Selectable, sql } from 'kysely';
import { jsonb, pageById, type Queryable } from '../../platform/db/database.ts';
import type { PageWindow } from '../../platform/pagination.ts';
import type { Attachment, ChatRole, ChatTables, SystemEvent } from './tables.ts';

type Db = Queryable<ChatTables>;

export function settingsOf(db: Db, businessId: number) {
  return db
    .selectFrom('order_chat_settings')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

export async function saveSettings(db: Db, businessId: number, customerChat: boolean, now: Date) {
  return db
    .insertInto('order_chat_settings')
    .values({ business_id: businessId, customer_chat: customerChat, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({ customer_chat: customerChat, updated_at: now }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function chatOf(db: Db, businessId: number, orderId: number) {
  return db
    .selectFrom('order_chats')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

/** The order's conversation, made on first use; locked, so posts to one conversation queue up. */
export async function lockChat(
  db: Db,
  values: { businessId: number; orderId: number; customerUserId: number | null },
  now: Date,
) {
  await db
    .insertInto('order_chats')
    .values({
      business_id: values.businessId,
      order_id: values.orderId,
      customer_user_id: values.customerUserId,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['business_id', 'order_id']).doNothing())
    .execute();
  return db
    .selectFrom('order_chats')
    .selectAll()
    .where('business_id', '=', values.businessId)
    .where('order_id', '=', values.orderId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function insertMessage(
  db: Db,
  chat: { id: number; business_id: number },
  message: {
    authorUserId: number;
    authorRole: ChatRole;
    text: string | null;
    attachments: Attachment[];
    systemEvent: SystemEvent | null;
  },
  now: Date,
) {
  const row = await db
    .insertInto('order_chat_messages')
    .values({
      business_id: chat.business_id,
      chat_id: chat.id,
      author_user_id: message.authorUserId,
      author_role: message.authorRole,
      text: message.text,
      attachments: jsonb(message.attachments),
      system_event: message.systemEvent,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .updateTable('order_chats')
    .set({ last_message_id: row.id, last_message_at: now })
    .where('id', '=', chat.id)
    .execute();
  return row;
}

export async function setClosed(db: Db, chatId: number, closed: { at: Date; by: number } | null) {
  await db
    .updateTable('order_chats')
    .set({ closed_at: closed?.at ?? null, closed_by: closed?.by ?? null })
    .where('id', '=', chatId)
    .execute();
}

export async function setCustomerChat(db: Db, chatId: number, customerChat: boolean | null) {
  await db.updateTable('order_chats').set({ customer_chat: customerChat }).where('id', '=', chatId).execute();
}

/** A page of a conversation's messages, newest first, by page number or after a cursor's row. */
export function messagesOf(db: Db, chatId: number, window: PageWindow) {
  return pageById<Selectable<ChatTables['order_chat_messages']>>(
    db.selectFrom('order_chat_messages').selectAll().where('chat_id', '=', chatId),
    window,
    'desc',
  );
}

export function readsOf(db: Db, chatId: number) {
  return db
    .selectFrom('order_chat_reads')
    .selectAll()
    .where('chat_id', '=', chatId)
    .orderBy('user_id')
    .execute();
}

/** Moves a participant's read mark forward (never back) to `messageId`. */
export async function markRead(
  db: Db,
  chat: { business_id: number; id: number },
  userId: number,
  messageId: number,
  now: Date,
) {
  await db
    .insertInto('order_chat_reads')
    .values({
      business_id: chat.business_id,
      chat_id: chat.id,
      user_id: userId,
      last_read_message_id: messageId,
      read_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'chat_id', 'user_id'])
        .doUpdateSet({ last_read_message_id: messageId, read_at: now })
        .where('order_chat_reads.last_read_message_id', '<', messageId),
    )
    .execute();
}

/** Which conversations a list covers: the whole business, one customer's, or those of some orders. */
export type ChatFilter =
  | { all: true }
  | { customerUserId: number; allowedByDefault: boolean }
  | { orderIds: number[] };

/**
 * Conversations of a business with messages, most recent first, each with how many messages
 * the reader has not read (others' messages after its read mark).
 */
export async function listChats(
  db: Db,
  businessId: number,
  filter: ChatFilter,
  readerId: number,
  window: { limit: number; offset: number },
) {
  let query = db
    .selectFrom('order_chats as c')
    .leftJoin('order_chat_reads as r', (join) =>
      join.onRef('r.chat_id', '=', 'c.id').on('r.user_id', '=', readerId),
    )
    .where('c.business_id', '=', businessId)
    .where('c.last_message_id', 'is not', null);
  if ('customerUserId' in filter) {
    // Only the conversations the customer takes part in: the order's override, else the business's setting.
    query = query
      .where('c.customer_user_id', '=', filter.customerUserId)
      .where(sql<boolean>`coalesce(c.customer_chat, ${filter.allowedByDefault})`);
  }
  if ('orderIds' in filter) {
    if (filter.orderIds.length === 0) return { total: 0, rows: [] };
    query = query.where('c.order_id', 'in', filter.orderIds);
  }
  const counted = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('c')
    .select('r.last_read_message_id')
    .select(
      sql<number>`(SELECT count(*) FROM order_chat_messages m
        WHERE m.chat_id = c.id AND m.id > coalesce(r.last_read_message_id, 0)
          AND m.author_user_id <> ${readerId})::int`.as('unread'),
    )
    .orderBy('c.last_message_id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { total: Number(counted.count), rows };
}

export function messagesByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('order_chat_messages').selectAll().where('id', 'in', ids).execute();
}

/** Others' messages after a reader's read mark. */
export async function unreadOf(db: Db, chatId: number, readerId: number, readUpTo: number): Promise<number> {
  const row = await db
    .selectFrom('order_chat_messages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('chat_id', '=', chatId)
    .where('id', '>', readUpTo)
    .where('author_user_id', '<>', readerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function ordersOfChats(db: Db, chatIds: number[]): Promise<Map<number, number>> {
  if (chatIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_chats')
    .select(['id', 'order_id'])
    .where('id', 'in', [...new Set(chatIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.order_id]));
}
