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

export type DomainEventHandler = (ctx: OperationContext, event: DomainEvent) => Promise<void>;

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

  async publish(ctx: OperationContext, event: DomainEvent): Promise<void> {
    for (const handler of this.handlers) await handler(ctx, event);
  }
}
