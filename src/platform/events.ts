import type { OperationContext } from './catalog/operation.ts';

/** Something that happened in a module, told to the modules that care, inside the same transaction. */
export interface DomainEvent {
  /** `order.created`, `tracking.event`, ... */
  kind: string;
  businessId: number;
  /** The customer account the event concerns, when one does. */
  customerId: number | null;
  /** Thin: ids and the changed data, no whole records. */
  data: Record<string, unknown>;
}

/** Takes the events of one change together, so a handler can do once what they share. */
export type DomainEventHandler = (ctx: OperationContext, events: readonly DomainEvent[]) => Promise<void>;

/**
 * In-process publish/subscribe between modules, so a module can tell what happened without
 * knowing who listens (webhooks, ...). Handlers run in the publisher's transaction: whatever they
 * write (an outbox row) commits or rolls back with the change.
 */
export class DomainEvents {
  private readonly handlers: DomainEventHandler[] = [];

  subscribe(handler: DomainEventHandler): void {
    this.handlers.push(handler);
  }

  /** Tells every handler about these events, which one change caused (an ingest: many). */
  async publish(ctx: OperationContext, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const handler of this.handlers) await handler(ctx, events);
  }
}
