import type { Caller } from '../../platform/catalog/operation.ts';
import { STAFF } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { BrokerPolicy, MqttPublisher } from '../../platform/mqtt/broker.ts';
import type { OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { AccountsService } from '../accounts/index.ts';
import { type Audience, type ChatService, PUSH_TYPE, type PushPayload } from './service.ts';

const STAFF_KINDS: ReadonlySet<string> = new Set(STAFF);

/** The topics of order chat (docs/chat.md). */
export class ChatTopics {
  constructor(readonly prefix: string) {}

  /** Every message of one order's conversation. */
  conversation(businessId: number, orderId: number): string {
    return `${this.prefix}/order-chat/${businessId}/${orderId}`;
  }

  /** A driver's own pushes (type `order_chat_message`, ...). */
  driver(businessId: number, driverUserId: number): string {
    return `${this.prefix}/drivers/${businessId}/${driverUserId}`;
  }

  /** Anyone's own pushes in a business, whatever their kind (type `job`: docs/jobs.md). */
  user(businessId: number, userId: number): string {
    return `${this.prefix}/users/${businessId}/${userId}`;
  }

  parse(
    topic: string,
  ):
    | { kind: 'conversation'; businessId: number; orderId: number }
    | { kind: 'driver' | 'user'; businessId: number; userId: number }
    | null {
    if (!topic.startsWith(`${this.prefix}/`)) return null;
    const match = /^(order-chat|drivers|users)\/([1-9]\d{0,15})\/([1-9]\d{0,15})$/.exec(
      topic.slice(this.prefix.length + 1),
    );
    if (!match) return null;
    const businessId = Number(match[2]);
    const id = Number(match[3]);
    if (match[1] === 'order-chat') return { kind: 'conversation', businessId, orderId: id };
    return { kind: match[1] === 'drivers' ? 'driver' : 'user', businessId, userId: id };
  }
}

/**
 * Publishes chat messages from the outbox to MQTT, and decides who may listen on the embedded
 * broker. Who receives a conversation's messages is read again at every push, so a driver taken
 * off the route stops receiving on a subscription it made while it was on it.
 */
export class ChatPush {
  constructor(
    private readonly chat: ChatService,
    private readonly accounts: AccountsService,
    readonly topics: ChatTopics,
    private readonly clock: Clock,
    private readonly retryMs: number,
  ) {}

  /** The outbox handler: both topics, or a later try while the broker cannot take them. */
  handler(db: Queryable, publisher: MqttPublisher): OutboxHandler {
    return async (message) => {
      const push = message.payload as PushPayload;
      const audience = await this.chat.audienceOf(db, push.business_id, push.order_id);
      const topic = this.topics.conversation(push.business_id, push.order_id);
      const body = JSON.stringify({ type: PUSH_TYPE, ...push });
      try {
        // The audience goes with the message: the instance a subscriber is connected to decides.
        await publisher.publish(topic, body, JSON.stringify(audience));
        if (audience.driverUserId !== null) {
          await publisher.publish(this.topics.driver(push.business_id, audience.driverUserId), body);
        }
        return { done: true };
      } catch (error) {
        return {
          retryAt: new Date(this.clock.now().getTime() + this.retryMs),
          error: error instanceof Error ? error.message : String(error),
        };
      }
    };
  }

  /** The embedded broker's rules: a client's password is its bearer token. */
  policy(db: Queryable): BrokerPolicy<Caller> {
    return {
      authenticate: (password) => this.accounts.authenticate(db, password, this.clock.now()),
      maySubscribe: async (caller, topic) => {
        const parsed = this.topics.parse(topic);
        if (!parsed) return false;
        if (parsed.kind === 'driver') {
          return (
            caller.kind === 'driver' &&
            caller.userId === parsed.userId &&
            caller.businessId === parsed.businessId
          );
        }
        if (caller.clientScope !== undefined && caller.clientScope !== parsed.businessId) return false;
        // Only that person's own pushes are published there.
        if (parsed.kind !== 'conversation') return caller.userId === parsed.userId;
        try {
          await this.chat.participation(db, caller, parsed.businessId, parsed.orderId);
          return true;
        } catch {
          return false;
        }
      },
      mayReceive: (caller, topic, note) => {
        const parsed = this.topics.parse(topic);
        if (!parsed) return false;
        // A driver's or a person's own topic has one subscriber, checked at subscribe; the service
        // publishes on a driver's only to the order's driver of the moment.
        if (parsed.kind === 'driver' || parsed.kind === 'user') return true;
        if (STAFF_KINDS.has(caller.kind)) return caller.businessId === parsed.businessId;
        // The audience this push found (read synchronously at delivery): none, no one else.
        if (note === undefined) return false;
        const audience = JSON.parse(note) as Audience;
        if (caller.kind === 'driver') return audience.driverUserId === caller.userId;
        if (caller.kind === 'customer') return audience.customerUserId === caller.userId;
        if (caller.kind === 'contractor') return audience.contractorUserId === caller.userId;
        return false;
      },
    };
  }
}
