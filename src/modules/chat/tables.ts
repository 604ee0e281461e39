import type { Generated } from 'kysely';

/** Who a participant is in a conversation. */
export const CHAT_ROLES = ['dispatcher', 'driver', 'contractor', 'customer'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];
/** What the service itself writes into a conversation. */
export const SYSTEM_EVENTS = ['closed', 'reopened'] as const;
export type SystemEvent = (typeof SYSTEM_EVENTS)[number];

export interface Attachment {
  url: string;
  name: string | null;
}

export interface ChatTables {
  order_chat_settings: {
    business_id: number;
    customer_chat: boolean;
    created_at: Date;
    updated_at: Date;
  };
  order_chats: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    customer_user_id: number | null;
    /** null: the business's setting. */
    customer_chat: boolean | null;
    closed_at: Date | null;
    closed_by: number | null;
    last_message_id: number | null;
    last_message_at: Date | null;
    created_at: Date;
  };
  order_chat_messages: {
    id: Generated<number>;
    business_id: number;
    chat_id: number;
    /** Who wrote it, or whose action a system message tells. */
    author_user_id: number;
    author_role: ChatRole;
    /** null for a system message. */
    text: string | null;
    attachments: Attachment[];
    system_event: SystemEvent | null;
    created_at: Date;
  };
  order_chat_reads: {
    business_id: number;
    chat_id: number;
    user_id: number;
    last_read_message_id: number;
    read_at: Date;
  };
}
