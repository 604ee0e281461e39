import { z } from 'zod';
import {
  businessOf,
  type Caller,
  callerOf,
  type OperationContext,
  STAFF,
} from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import { enqueue } from '../../platform/outbox/outbox.ts';
import {
  type CursorPageQuery,
  cursorEnvelopeOf,
  cursorWindow,
  envelopeOf,
  NO_ROWS,
  type PageQuery,
  pageWindow,
} from '../../platform/pagination.ts';
import type { AccountsService, FamilySetupCheck } from '../accounts/index.ts';
import type { ContractorsService } from '../contractors/index.ts';
import type { OrdersService } from '../orders/index.ts';
import * as repo from './repository.ts';
import type { Attachment, ChatRole, SystemEvent } from './tables.ts';
import { systemMessage } from './words.ts';

/** The outbox topic of live pushes: one message per chat message, published to MQTT by `ChatPush`. */
export const CHAT_PUSH_TOPIC = 'order_chat.push';
/** The push type the driver app receives on its own topic. */
export const PUSH_TYPE = 'order_chat_message';
/** Longest text of one message, in characters. */
export const MAX_TEXT = 2000;
export const MAX_ATTACHMENTS = 5;

const STAFF_KINDS: ReadonlySet<string> = new Set(STAFF);

export const attachmentInput = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('A link to the file (the service stores links, not files)'),
  name: z.string().trim().min(1).max(200).optional(),
});

type MessageRow = Awaited<ReturnType<typeof repo.insertMessage>>;

/** A message as participants see it. */
export interface MessageView {
  id: number;
  order_id: number;
  author: { id: number; name: string; role: ChatRole };
  text: string;
  attachments: Attachment[];
  system_event: SystemEvent | null;
  created_at: string;
}

/** What the outbox carries for one push. */
export interface PushPayload {
  business_id: number;
  order_id: number;
  message: MessageView;
}

/** Who, besides the business's staff, receives a conversation's pushes now. */
export interface Audience {
  driverUserId: number | null;
  customerUserId: number | null;
  contractorUserId: number | null;
}

/** A caller's place in one order's conversation. */
interface Participation {
  role: ChatRole;
  orderRef: string;
  chat: Awaited<ReturnType<typeof repo.chatOf>>;
  customerChat: boolean;
}

/**
 * Order chat: one conversation per order between the business's dispatchers, the driver of the
 * order's route, the contractor holding it and, when allowed, its customer (docs/chat.md).
 */
export class ChatService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly contractors: ContractorsService,
  ) {}

  /** A business is set up for order chat (migrated) once it has chat settings. */
  readonly isSetUp: FamilySetupCheck = async (db, businessId) =>
    (await repo.settingsOf(db, businessId)) !== undefined;

  /** The business's chat settings; saving them the first time sets the business up for order chat. */
  async saveSettings(ctx: OperationContext, input: { customer_chat: boolean }) {
    const row = await repo.saveSettings(ctx.db, businessOf(ctx), input.customer_chat, this.clock.now());
    return { result: true as const, customer_chat: row.customer_chat };
  }

  /**
   * Whether and as whom a caller takes part in an order's conversation: staff of the business
   * as dispatchers, the driver the order is on the route of, the contractor holding it, its
   * customer while customer chat is allowed. Anyone else learns nothing of the order (404).
   */
  async participation(
    db: Queryable,
    caller: Caller,
    businessId: number,
    orderId: number,
  ): Promise<Participation> {
    const order = (await this.orders.queries.summaries(db, businessId, [orderId])).get(orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
    const chat = await repo.chatOf(db, businessId, orderId);
    const customerChat =
      chat?.customer_chat ?? (await repo.settingsOf(db, businessId))?.customer_chat ?? false;
    const found = (role: ChatRole): Participation => ({
      role,
      orderRef: order.order_ref,
      chat,
      customerChat,
    });
    if (STAFF_KINDS.has(caller.kind) && caller.businessId === businessId) return found('dispatcher');
    if (caller.kind === 'driver' && order.driver_user_id === caller.userId) return found('driver');
    if (caller.kind === 'contractor') {
      const holders = await this.contractors.holdersOf(db, businessId, [orderId]);
      if (holders.get(orderId) === caller.userId) return found('contractor');
    }
    if (caller.kind === 'customer' && order.customer_user_id === caller.userId) {
      if (customerChat) return found('customer');
      throw new AppError('CUSTOMER_CHAT_OFF', { params: { order: orderId } });
    }
    throw new AppError('ORDER_NOT_FOUND', { params: { order: orderId } });
  }

  /** Who receives a conversation's pushes now, besides the business's staff. */
  async audienceOf(db: Queryable, businessId: number, orderId: number): Promise<Audience> {
    const order = (await this.orders.queries.summaries(db, businessId, [orderId])).get(orderId);
    if (!order) return { driverUserId: null, customerUserId: null, contractorUserId: null };
    const chat = await repo.chatOf(db, businessId, orderId);
    const customerChat =
      chat?.customer_chat ?? (await repo.settingsOf(db, businessId))?.customer_chat ?? false;
    const holders = await this.contractors.holdersOf(db, businessId, [orderId]);
    return {
      driverUserId: order.driver_user_id,
      customerUserId: customerChat ? order.customer_user_id : null,
      contractorUserId: holders.get(orderId) ?? null,
    };
  }

  /** My conversations with messages, most recent first, with how many I have not read. */
  async list(ctx: OperationContext, query: PageQuery) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const filter = await this.filterFor(ctx, caller, businessId);
    const { total, rows } = await repo.listChats(
      ctx.db,
      businessId,
      filter,
      caller.userId,
      pageWindow(query),
    );
    const orders = await this.orders.queries.summaries(
      ctx.db,
      businessId,
      rows.map((row) => row.order_id),
    );
    const lastIds = rows.flatMap((row) => (row.last_message_id === null ? [] : [row.last_message_id]));
    const last = new Map(
      (await this.viewsOf(ctx.db, await repo.messagesByIds(ctx.db, lastIds), ctx.lang)).map((m) => [m.id, m]),
    );
    const settings = await repo.settingsOf(ctx.db, businessId);
    return {
      result: true as const,
      ...envelopeOf(query, total),
      chats: rows.map((row) => ({
        order_id: row.order_id,
        order_ref: orders.get(row.order_id)?.order_ref ?? '',
        status: row.closed_at ? ('closed' as const) : ('open' as const),
        customer_chat: row.customer_chat ?? settings?.customer_chat ?? false,
        unread: row.unread,
        last_message: row.last_message_id === null ? null : (last.get(row.last_message_id) ?? null),
      })),
    };
  }

  private async filterFor(
    ctx: OperationContext,
    caller: Caller,
    businessId: number,
  ): Promise<repo.ChatFilter> {
    if (STAFF_KINDS.has(caller.kind)) return { all: true };
    if (caller.kind === 'customer') {
      const settings = await repo.settingsOf(ctx.db, businessId);
      return { customerUserId: caller.userId, allowedByDefault: settings?.customer_chat ?? false };
    }
    if (caller.kind === 'contractor') {
      return { orderIds: (await this.orders.queries.scopeOf(ctx)).assignedToCaller };
    }
    // A driver: the orders on its routes (a driver carries far fewer than a page of 200 at a time).
    const onRoutes = await this.orders.queries.list(ctx, {
      driver_id: caller.userId,
      page: 1,
      per_page: 200,
    });
    return { orderIds: onRoutes.orders.map((order) => order.id) };
  }

  /** One conversation, its messages newest first (paged), and how far each participant has read. */
  async read(ctx: OperationContext, orderId: number, query: CursorPageQuery) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const place = await this.participation(ctx.db, caller, businessId, orderId);
    const chat = place.chat;
    const page = chat ? await repo.messagesOf(ctx.db, chat.id, cursorWindow(query)) : NO_ROWS;
    const reads = chat ? await repo.readsOf(ctx.db, chat.id) : [];
    const names = await this.accounts.namesOf(
      ctx.db,
      reads.map((read) => read.user_id),
    );
    const mine = reads.find((read) => read.user_id === caller.userId)?.last_read_message_id ?? 0;
    return {
      result: true as const,
      order_id: orderId,
      order_ref: place.orderRef,
      status: chat?.closed_at ? ('closed' as const) : ('open' as const),
      closed_at: chat?.closed_at?.toISOString() ?? null,
      customer_chat: place.customerChat,
      my_role: place.role,
      unread: chat ? await repo.unreadOf(ctx.db, chat.id, caller.userId, mine) : 0,
      reads: reads.map((read) => ({
        user_id: read.user_id,
        name: names.get(read.user_id) ?? '',
        last_read_message_id: read.last_read_message_id,
        read_at: read.read_at.toISOString(),
      })),
      ...cursorEnvelopeOf(query, page),
      messages: await this.viewsOf(ctx.db, page.rows, ctx.lang),
    };
  }

  /** Posts a message; it is pushed live once the post commits (never on a dry run). */
  async post(
    ctx: OperationContext,
    orderId: number,
    input: { text: string; attachments?: Array<{ url: string; name?: string }> },
  ) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const place = await this.participation(ctx.db, caller, businessId, orderId);
    const chat = await this.lockChat(ctx.db, businessId, orderId);
    if (chat.closed_at) throw new AppError('ORDER_CHAT_CLOSED', { params: { order: orderId } });
    const now = this.clock.now();
    const row = await repo.insertMessage(
      ctx.db,
      chat,
      {
        authorUserId: caller.userId,
        authorRole: place.role,
        text: input.text,
        attachments: (input.attachments ?? []).map((a) => ({ url: a.url, name: a.name ?? null })),
        systemEvent: null,
      },
      now,
    );
    // What I wrote, I have read.
    await repo.markRead(ctx.db, chat, caller.userId, row.id, now);
    const [message] = await this.viewsOf(ctx.db, [row], ctx.lang);
    await this.push(ctx, businessId, orderId, message!);
    return { result: true as const, message: message! };
  }

  /** Marks the conversation read up to a message (the latest by default). */
  async markRead(ctx: OperationContext, orderId: number, messageId: number | undefined) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const place = await this.participation(ctx.db, caller, businessId, orderId);
    const chat = place.chat;
    // Message ids only grow: any id is a position in the conversation, and none past its latest message.
    const last = chat?.last_message_id ?? null;
    const upTo = last === null ? null : Math.min(messageId ?? last, last);
    if (chat && upTo !== null) await repo.markRead(ctx.db, chat, caller.userId, upTo, this.clock.now());
    const mine = chat
      ? ((await repo.readsOf(ctx.db, chat.id)).find((r) => r.user_id === caller.userId) ?? null)
      : null;
    return {
      result: true as const,
      order_id: orderId,
      last_read_message_id: mine?.last_read_message_id ?? null,
      unread: chat ? await repo.unreadOf(ctx.db, chat.id, caller.userId, mine?.last_read_message_id ?? 0) : 0,
    };
  }

  /** Closes or reopens the conversation (staff), telling it to everyone in a system message. */
  async setClosed(ctx: OperationContext, orderId: number, closed: boolean) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const place = await this.participation(ctx.db, caller, businessId, orderId);
    const chat = await this.lockChat(ctx.db, businessId, orderId);
    const now = this.clock.now();
    if ((chat.closed_at !== null) !== closed) {
      await repo.setClosed(ctx.db, chat.id, closed ? { at: now, by: caller.userId } : null);
      const row = await repo.insertMessage(
        ctx.db,
        chat,
        {
          authorUserId: caller.userId,
          authorRole: place.role,
          text: null,
          attachments: [],
          systemEvent: closed ? 'closed' : 'reopened',
        },
        now,
      );
      await repo.markRead(ctx.db, chat, caller.userId, row.id, now);
      const [message] = await this.viewsOf(ctx.db, [row], ctx.lang);
      await this.push(ctx, businessId, orderId, message!);
    }
    return {
      result: true as const,
      order_id: orderId,
      status: closed ? ('closed' as const) : ('open' as const),
    };
  }

  /** Allows or refuses the order's customer in its conversation; null: the business's setting. */
  async setCustomerChat(ctx: OperationContext, orderId: number, customerChat: boolean | null) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    await this.participation(ctx.db, caller, businessId, orderId);
    const chat = await this.lockChat(ctx.db, businessId, orderId);
    await repo.setCustomerChat(ctx.db, chat.id, customerChat);
    const settings = await repo.settingsOf(ctx.db, businessId);
    return {
      result: true as const,
      order_id: orderId,
      override: customerChat,
      customer_chat: customerChat ?? settings?.customer_chat ?? false,
    };
  }

  private async lockChat(db: Queryable, businessId: number, orderId: number) {
    const order = (await this.orders.queries.summaries(db, businessId, [orderId])).get(orderId);
    return repo.lockChat(
      db,
      { businessId, orderId, customerUserId: order?.customer_user_id ?? null },
      this.clock.now(),
    );
  }

  /** The push of a message, written to the outbox in the post's transaction. */
  private async push(ctx: OperationContext, businessId: number, orderId: number, message: MessageView) {
    const payload: PushPayload = { business_id: businessId, order_id: orderId, message };
    await enqueue(ctx.db, this.clock, {
      topic: CHAT_PUSH_TOPIC,
      businessId,
      payload,
      messageId: `order_chat_message_${message.id}`,
    });
  }

  private async viewsOf(db: Queryable, rows: MessageRow[], lang: Language): Promise<MessageView[]> {
    const names = await this.accounts.namesOf(
      db,
      rows.map((row) => row.author_user_id),
    );
    const orderOf = await repo.ordersOfChats(
      db,
      rows.map((row) => row.chat_id),
    );
    return rows.map((row) => {
      const name = names.get(row.author_user_id) ?? '';
      return {
        id: row.id,
        order_id: orderOf.get(row.chat_id) ?? 0,
        author: { id: row.author_user_id, name, role: row.author_role },
        text: row.system_event ? systemMessage(row.system_event, name, lang) : (row.text ?? ''),
        attachments: row.attachments,
        system_event: row.system_event,
        created_at: row.created_at.toISOString(),
      };
    });
  }
}
