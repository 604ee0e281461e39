import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams, pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { actingBusinessParam, idParam } from '../../platform/schemas.ts';
import { attachmentInput, type ChatService, MAX_ATTACHMENTS, MAX_TEXT } from './service.ts';
import { CHAT_ROLES, SYSTEM_EVENTS } from './tables.ts';

const FEATURE = 'order_chat';
const PARTICIPANTS = [...STAFF, 'driver', 'contractor', 'customer'] as const;
const READ = { kinds: PARTICIPANTS, scopes: ['orders:read'], business: 'acting' as const };
const WRITE = { kinds: PARTICIPANTS, scopes: ['orders:write'], business: 'acting' as const };
const STAFF_WRITE = { kinds: STAFF, scopes: ['orders:write'] };

const contractorBusiness = { business_id: actingBusinessParam };
const orderParam = { order_id: idParam };

// The order chat vocabulary, one named type each in the contract.
const roleSchema = z.enum(CHAT_ROLES).meta({ title: 'OrderChatRole' });

const messageSchema = z
  .object({
    id: z.int(),
    order_id: z.int(),
    author: z.object({ id: z.int(), name: z.string(), role: roleSchema }).meta({ title: 'OrderChatAuthor' }),
    text: z.string().describe("A system message's text is in the reader's language"),
    attachments: z.array(
      z.object({ url: z.string(), name: z.string().nullable() }).meta({ title: 'OrderChatAttachment' }),
    ),
    system_event: z
      .enum(SYSTEM_EVENTS)
      .meta({ title: 'OrderChatSystemEvent' })
      .nullable()
      .describe('Set on a message the service wrote (the conversation closed or reopened)'),
    created_at: z.string(),
  })
  .meta({ title: 'OrderChatMessage' });
const status = z.enum(['open', 'closed']).meta({ title: 'OrderChatStatus' });
const errors = ['ORDER_NOT_FOUND', 'CUSTOMER_CHAT_OFF'] as const;

export function chatOperations(chat: ChatService): Operation[] {
  return [
    defineOperation({
      name: 'set_order_chat_settings',
      summary: "Set up order chat for your business: whether orders' customers take part by default",
      description:
        'The first save sets the business up for order chat (until then its other operations answer 409 with ' +
        'reason not_migrated); the family must be on (set_feature_family).',
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      featureSetup: true,
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      rest: { method: 'PUT', path: '/v1/client/order-chat/settings' },
      graphql: 'setOrderChatSettings',
      input: z.object({ customer_chat: z.boolean() }),
      output: z.object({ result: z.literal(true), customer_chat: z.boolean() }),
      handler: (ctx, input) => chat.saveSettings(ctx, input),
    }),
    defineOperation({
      name: 'list_order_chats',
      summary: 'The order conversations I take part in, most recent first, with my unread counts',
      description:
        "Each conversation with its last message and the caller's unread count, paged. Use it to see where someone is waiting for an answer.",
      tag: 'Order Chat',
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: READ,
      rest: { method: 'GET', path: '/v1/order-chats' },
      graphql: 'orderChats',
      input: z.object({ ...contractorBusiness, ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        chats: z.array(
          z
            .object({
              order_id: z.int(),
              order_ref: z.string(),
              status,
              customer_chat: z.boolean(),
              unread: z.int(),
              last_message: messageSchema.nullable(),
            })
            .meta({ title: 'OrderChat' }),
        ),
      }),
      handler: (ctx, input) => chat.list(ctx, input),
    }),
    defineOperation({
      name: 'get_order_chat',
      summary: "An order's conversation: messages newest first (paged) and read receipts",
      description:
        'Reading it does not mark it read: use mark_order_chat_read. A customer of the order while customer chat is off gets 403; anyone else who is not a participant gets 404.',
      tag: 'Order Chat',
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: READ,
      errors,
      rest: { method: 'GET', path: '/v1/order-chats/:order_id' },
      graphql: 'orderChat',
      input: z.object({ ...orderParam, ...contractorBusiness, ...cursorPageParams }),
      output: z.object({
        result: z.literal(true),
        order_id: z.int(),
        order_ref: z.string(),
        status,
        closed_at: z.string().nullable(),
        customer_chat: z.boolean(),
        my_role: roleSchema,
        unread: z.int(),
        reads: z.array(
          z.object({
            user_id: z.int(),
            name: z.string(),
            last_read_message_id: z.int(),
            read_at: z.string(),
          }),
        ),
        ...cursorPageEnvelope,
        messages: z.array(messageSchema),
      }),
      handler: (ctx, input) => chat.read(ctx, input.order_id, input),
    }),
    defineOperation({
      name: 'post_order_chat_message',
      summary: "Post a message to an order's conversation; it is pushed live over MQTT once committed",
      description:
        'A text of up to 2000 characters and up to 5 links as attachments; it marks the conversation read for its author. Refused while the conversation is closed.',
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: WRITE,
      errors: [...errors, 'ORDER_CHAT_CLOSED'],
      rest: { method: 'POST', path: '/v1/order-chats/:order_id/messages' },
      graphql: 'postOrderChatMessage',
      input: z.object({
        ...orderParam,
        ...contractorBusiness,
        text: z.string().trim().min(1).max(MAX_TEXT),
        attachments: z.array(attachmentInput).max(MAX_ATTACHMENTS).optional(),
      }),
      output: z.object({ result: z.literal(true), message: messageSchema }),
      handler: (ctx, input) => chat.post(ctx, input.order_id, input),
    }),
    defineOperation({
      name: 'mark_order_chat_read',
      summary: 'Mark an order conversation read, up to a message (the latest by default)',
      description:
        "Moves the caller's read mark, which others see as a read receipt; a read mark never moves back.",
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: WRITE,
      errors,
      rest: { method: 'POST', path: '/v1/order-chats/:order_id/read' },
      graphql: 'markOrderChatRead',
      input: z.object({
        ...orderParam,
        ...contractorBusiness,
        message_id: idParam.optional().describe('Read up to this message; the latest when absent'),
      }),
      output: z.object({
        result: z.literal(true),
        order_id: z.int(),
        last_read_message_id: z.int().nullable(),
        unread: z.int(),
      }),
      handler: (ctx, input) => chat.markRead(ctx, input.order_id, input.message_id),
    }),
    defineOperation({
      name: 'close_order_chat',
      summary: "Close an order's conversation: no one posts until it is reopened",
      description:
        "Dispatchers close a conversation when the matter is settled; a system message in each reader's language says so.",
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_WRITE,
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/order-chats/:order_id/close' },
      graphql: 'closeOrderChat',
      input: z.object(orderParam),
      output: z.object({ result: z.literal(true), order_id: z.int(), status }),
      handler: (ctx, input) => chat.setClosed(ctx, input.order_id, true),
    }),
    defineOperation({
      name: 'reopen_order_chat',
      summary: "Reopen an order's closed conversation",
      description: "Participants may post again; a system message in each reader's language says so.",
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_WRITE,
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/order-chats/:order_id/reopen' },
      graphql: 'reopenOrderChat',
      input: z.object(orderParam),
      output: z.object({ result: z.literal(true), order_id: z.int(), status }),
      handler: (ctx, input) => chat.setClosed(ctx, input.order_id, false),
    }),
    defineOperation({
      name: 'set_order_customer_chat',
      summary: "Allow or refuse the order's customer in its conversation, over the business's setting",
      description:
        "true or false decides for this order whatever the business's setting; null follows the business again.",
      tag: 'Order Chat',
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_WRITE,
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/order-chats/:order_id/customer-chat' },
      graphql: 'setOrderCustomerChat',
      input: z.object({
        ...orderParam,
        customer_chat: z.boolean().nullable().describe("null: follow the business's setting"),
      }),
      output: z.object({
        result: z.literal(true),
        order_id: z.int(),
        override: z.boolean().nullable(),
        customer_chat: z.boolean().describe('Whether the customer takes part now'),
      }),
      handler: (ctx, input) => chat.setCustomerChat(ctx, input.order_id, input.customer_chat),
    }),
  ];
}
