import type { Kysely } from 'kysely';
import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { enqueueMany, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { OrderStatusChange, OrderStatusListener } from '../orders/index.ts';
import type { ThirdPartyConnections } from './connections.ts';
import * as repo from './repository.ts';
import type { ThirdPartyTables } from './tables.ts';

export const STATUS_PUSH_TOPIC = 'third_party.status';

const ORIGIN_PREFIX = 'third_party:';
/** What a local order made from a connection's provider order says of where it came from. */
export const originOf = (connectionId: number) => `${ORIGIN_PREFIX}${connectionId}`;
const isProviderOrigin = (origin: string | null) => origin?.startsWith(ORIGIN_PREFIX) === true;
/** The longest a status change waits between tries while its provider is down. */
const MAX_RETRY_MS = 10 * 60_000;
const FIRST_RETRY_MS = 5_000;
/** A message that finds another worker sending its order's changes comes back this soon. */
const BUSY_RETRY_MS = 2_000;

/**
 * Local status changes of accepted provider orders, sent back to their provider through the outbox:
 * at least once, and in order per order. Each change is numbered per order and queued in the
 * change's own transaction; a message sends every unsent change of its order, lowest number first,
 * holding the order's row so no two workers send the same order's changes at once, and stops at
 * the first failure (the rest wait behind it, so the provider never hears 3 before 2).
 */
export class StatusSync implements OrderStatusListener {
  constructor(
    private readonly clock: Clock,
    private readonly connections: ThirdPartyConnections,
  ) {}

  orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    return this.ordersStatusChanged(ctx, [change]);
  }

  async ordersStatusChanged(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void> {
    // A new order is never a provider's yet: it becomes one once accepted (the provider knows then).
    // Only an order a provider handed over can be one: the others cost no lookup.
    const changed = changes.filter((change) => change.from !== null && isProviderOrigin(change.order.origin));
    if (changed.length === 0) return;
    const ours = await repo.byLocalOrders(
      ctx.db,
      changed.map((change) => change.order.id),
    );
    if (ours.length === 0) return;
    const byOrder = new Map(ours.map((row) => [row.order_id, row]));
    const messages = [];
    for (const change of changed) {
      const providerOrder = byOrder.get(change.order.id);
      if (!providerOrder) continue;
      const push = await repo.insertStatusPush(ctx.db, {
        business_id: providerOrder.business_id,
        third_party_order_id: providerOrder.id,
        status: change.to,
        at: change.at,
      });
      messages.push({
        topic: STATUS_PUSH_TOPIC,
        businessId: providerOrder.business_id,
        messageId: `tp_status_${push.id}`,
        payload: { pushId: push.id },
      });
    }
    await enqueueMany(ctx.db, this.clock, messages);
  }

  /** The outbox handler of status changes. */
  sender(db: Db): OutboxHandler {
    return async (message) => {
      const { pushId } = message.payload as { pushId: number };
      const push = await repo.statusPushById(db, pushId);
      if (!push || push.sent_at) return { done: true };
      const retryIn = Math.min(FIRST_RETRY_MS * 2 ** (message.attempt - 1), MAX_RETRY_MS);
      return (db as Kysely<ThirdPartyTables>).transaction().execute(async (trx) => {
        const held = await trx
          .selectFrom('third_party_orders')
          .selectAll()
          .where('id', '=', push.third_party_order_id)
          // NO KEY UPDATE: a status change recording its push (a key-share lock through its foreign key)
          // never waits on a send in flight; two senders of one order still exclude each other.
          .forNoKeyUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!held) {
          const gone = !(await repo.providerOrderById(db, push.third_party_order_id));
          if (gone) return { done: true, error: 'the provider order was removed' };
          return {
            retryAt: this.later(BUSY_RETRY_MS),
            error: "another worker is sending this order's changes",
          };
        }
        const connection = await repo.connectionById(trx, held.connection_id);
        if (!connection) return { done: true, error: 'the connection was removed' };
        const provider = await this.connections.providerOf(connection);
        const unsent = (await repo.pushesOf(trx, held.id)).filter(
          (one) => !one.sent_at && one.seq <= push.seq,
        );
        for (const next of unsent) {
          try {
            await provider.pushStatus(held.provider_order_id, {
              status: next.status,
              sequence: next.seq,
              at: next.at,
            });
            await repo.recordPushAttempt(trx, next.id, { sentAt: this.clock.now(), error: null });
          } catch (error) {
            const text = error instanceof Error ? error.message.slice(0, 500) : String(error);
            await repo.recordPushAttempt(trx, next.id, { sentAt: null, error: text });
            return { retryAt: this.later(retryIn), error: text };
          }
        }
        return { done: true };
      });
    };
  }

  private later(ms: number): Date {
    return new Date(this.clock.now().getTime() + ms);
  }
}
