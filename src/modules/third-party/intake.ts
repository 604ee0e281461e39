import { timingSafeEqual } from 'node:crypto';
import { businessOf, type OperationContext, PERFORM_EVERYTHING } from '../../platform/catalog/operation.ts';
import { type Clock, formatLocalDateTime, secondsToLocalMidnight } from '../../platform/clock.ts';
import { type Db, inTransaction, type Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import { type OrderInput, type OrdersService, orderInputSchema } from '../orders/index.ts';
import { hashToken, type ThirdPartyConnections } from './connections.ts';
import { type DeliveryProvider, ProviderFailed, type ProviderOrder, type UnreadableOrder } from './port.ts';
import * as repo from './repository.ts';
import { decide } from './rules.ts';
import { type AcceptRules, rulesSchema } from './schemas.ts';
import { originOf } from './status-sync.ts';
import type { ThirdPartyState } from './tables.ts';
import { providerOrderView } from './views.ts';

/** The longest a down provider waits between pulls, however many failed in a row. */
export const MAX_PULL_BACKOFF_MS = 30 * 60_000;
/** Pages one pull reads at most: a provider with a long backlog is caught up over several pulls. */
const PAGES_PER_PULL = 10;
/** Connections one tick of the loop pulls at most (one after another). */
const CONNECTIONS_PER_TICK = 20;
/** How long a claimed pull holds its connection before another instance may take it. */
const PULL_LEASE_MS = 5 * 60_000;

export interface PullReport {
  received: number;
  repeated: number;
  unreadable: Array<{ provider_order_id: string | null; problem: string }>;
  accepted: number;
  rejected: number;
}

/**
 * Provider orders coming in (pulled on a cursor, or pushed), one row per provider order id; and
 * their acceptance: by the business's rules as they arrive, or by a dispatcher, always before
 * the provider's deadline. An accepted order becomes a local order through the orders module.
 */
export class ThirdPartyIntake {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly orders: OrdersService,
    private readonly connections: ThirdPartyConnections,
  ) {}

  // ----- pulling -----

  /**
   * One tick of the background loop: every connection whose pull is due. A provider that fails
   * backs off (its next pull later each time) and never stops the others.
   */
  async pullDue(db: Db): Promise<number> {
    const now = this.clock.now();
    const due = await repo.claimDue(db, now, new Date(now.getTime() + PULL_LEASE_MS), CONNECTIONS_PER_TICK);
    // Side by side: a provider slow to answer (up to its time limit) delays no other.
    await Promise.allSettled(due.map((connection) => this.pullConnection(db, connection)));
    return due.length;
  }

  /** A dispatcher's "pull now": the same pull, told back. */
  async pullNow(
    ctx: OperationContext,
    id: number,
  ): Promise<PullReport & { result: true; failed: string | null }> {
    const row = await this.connections.row(ctx, id);
    return ctx.outside.perform(
      { kind: 'http', description: `pull the new orders of ${row.name}` },
      async () => ({ result: true as const, ...(await this.pullConnection(ctx.db, row)) }),
      () => ({ result: true as const, ...emptyReport(), failed: null }),
    );
  }

  /** Pulls pages until the cursor stops moving, records the outcome on the connection, then decides what is pending. */
  private async pullConnection(
    db: Queryable,
    row: repo.ConnectionRow,
  ): Promise<PullReport & { failed: string | null }> {
    const report = emptyReport();
    let cursor = row.cursor;
    let failed: string | null = null;
    let provider: DeliveryProvider | undefined;
    try {
      provider = await this.connections.providerOf(row);
      for (let page = 0; page < PAGES_PER_PULL; page++) {
        const answer = await provider.pull(cursor);
        const counted = await this.take(db, row, answer.orders, answer.unreadable);
        add(report, counted);
        const moved = answer.nextCursor !== null && answer.nextCursor !== cursor;
        if (moved) {
          cursor = answer.nextCursor;
          // The cursor is kept page by page: a failure on page 3 does not pull pages 1 and 2 again.
          await repo.updateConnection(db, row.business_id, row.id, { cursor });
        }
        if (!moved || answer.orders.length + answer.unreadable.length === 0) break;
      }
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
    }
    const now = this.clock.now();
    const failures = failed ? row.failures + 1 : 0;
    const wait = failed
      ? Math.min(row.poll_seconds * 1000 * 2 ** failures, MAX_PULL_BACKOFF_MS)
      : row.poll_seconds * 1000;
    await repo.updateConnection(db, row.business_id, row.id, {
      failures,
      next_pull_at: new Date(now.getTime() + wait),
      ...(failed ? { last_error: failed.slice(0, 500), last_error_at: now } : { last_success_at: now }),
    });
    // A provider that failed the pull would fail the accepts too: they wait for the next pull.
    if (provider && !failed) add(report, await this.decidePending(db, row, provider));
    return { ...report, failed };
  }

  // ----- pushes -----

  /** Orders the provider pushed, with the connection's push token; then decided like pulled ones. */
  async receivePush(ctx: OperationContext, connectionId: number, token: string, orders: unknown[]) {
    const row = await repo.connectionById(ctx.db, connectionId);
    const given = Buffer.from(hashToken(token));
    // One refusal whether the connection is unknown, off or the token wrong: nothing to probe.
    if (!row?.active || !timingSafeEqual(given, Buffer.from(row.push_token_hash)))
      throw new AppError('THIRD_PARTY_PUSH_REFUSED');
    const provider = await this.connections.providerOf(row);
    const read = provider.readOrders(orders);
    const report = emptyReport();
    add(report, await this.take(ctx.db, row, read.orders, read.unreadable));
    add(report, await this.decidePending(ctx.db, row, provider));
    return { result: true as const, ...report };
  }

  // ----- taking orders in -----

  /** Keeps the orders new to the connection; one already known (by its provider id) is counted, never doubled. */
  private async take(
    db: Queryable,
    row: repo.ConnectionRow,
    orders: ProviderOrder[],
    unreadable: UnreadableOrder[],
  ): Promise<PullReport> {
    const report = emptyReport();
    report.unreadable = unreadable.map((one) => ({
      provider_order_id: one.providerOrderId,
      problem: one.problem,
    }));
    const now = this.clock.now();
    for (const order of orders) {
      const input = localOrderOf(row, order);
      if (!input.success) {
        const problem = input.error.issues
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
          .join('; ');
        report.unreadable.push({ provider_order_id: order.providerOrderId, problem: problem.slice(0, 300) });
        continue;
      }
      const inserted = await repo.insertProviderOrder(db, {
        business_id: row.business_id,
        connection_id: row.id,
        provider_order_id: order.providerOrderId,
        state: 'pending',
        accept_by: order.acceptBy,
        order_id: null,
        decided_by: null,
        decision_reason: null,
        mapped: input.data,
        dropoff_lat: order.dropoff.lat ?? null,
        dropoff_lng: order.dropoff.lng ?? null,
        last_error: null,
        received_at: now,
        decided_at: null,
      });
      if (inserted) report.received++;
      else report.repeated++;
    }
    report.unreadable = report.unreadable.slice(0, 100);
    return report;
  }

  // ----- deciding -----

  /**
   * Pending orders past their deadline expire; the others go through the connection's rules (when
   * it has any). A provider that fails an accept leaves the order pending: the next pull tries again.
   */
  private async decidePending(db: Queryable, row: repo.ConnectionRow, provider: DeliveryProvider) {
    const report = emptyReport();
    const now = this.clock.now();
    await repo.expirePending(db, row.id, now);
    if (!row.rules) return report;
    const rules = rulesSchema.parse(row.rules);
    const timeZone = await this.accounts.timeZoneOf(db, row.business_id);
    const dayStart = new Date(now.getTime() + (secondsToLocalMidnight(now, timeZone) - 86_400) * 1000);
    let acceptedToday = await repo.acceptedSince(db, row.id, dayStart);
    const localTime = formatLocalDateTime(now, timeZone).slice(11, 16);
    for (const pending of await repo.pendingOf(db, row.id, now)) {
      const verdict = decide(rules, providerOrderOf(pending), { localTime, acceptedToday });
      const ctx = this.systemContext(db, row.business_id);
      try {
        if (verdict.decision === 'accept') {
          // Its own transaction in the background loop: one order's failure leaves the others' decisions.
          await inTransaction(db, (trx) => this.accept({ ...ctx, db: trx }, row, provider, pending, 'rules'));
          acceptedToday++;
          report.accepted++;
        } else if (verdict.decision === 'reject') {
          await this.reject(ctx, row, provider, pending, 'rules', verdict.reason);
          report.rejected++;
        } else {
          await repo.decideOrder(db, pending.id, {
            state: 'pending',
            decided_by: null,
            decision_reason: verdict.reason,
            decided_at: null,
            last_error: null,
          });
        }
      } catch (error) {
        await repo.noteOrderError(
          db,
          pending.id,
          error instanceof Error ? error.message.slice(0, 500) : String(error),
        );
      }
    }
    return report;
  }

  /** A dispatcher accepts: before the deadline, while still pending. */
  async acceptByDispatcher(ctx: OperationContext, id: number) {
    const { row, connection } = await this.decidable(ctx, id);
    const provider = await this.connections.providerOf(connection);
    const decided = await this.accept(ctx, connection, provider, row, 'dispatcher');
    return { result: true as const, provider_order: providerOrderView(decided) };
  }

  async rejectByDispatcher(ctx: OperationContext, id: number, reason: string) {
    const { row, connection } = await this.decidable(ctx, id);
    const provider = await this.connections.providerOf(connection);
    const decided = await this.reject(ctx, connection, provider, row, 'dispatcher', reason);
    return { result: true as const, provider_order: providerOrderView(decided) };
  }

  /** The order, locked, still pending and within its deadline; otherwise a clear refusal. */
  private async decidable(ctx: OperationContext, id: number) {
    const businessId = businessOf(ctx);
    const row = await repo.providerOrderOf(ctx.db, businessId, id, true);
    if (!row) throw new AppError('THIRD_PARTY_ORDER_NOT_FOUND', { params: { id } });
    const now = this.clock.now();
    if (row.state === 'pending' && row.accept_by <= now) {
      // Kept even though the call is refused: the order is past anyone's acceptance.
      await repo.decideOrder(ctx.db, row.id, { state: 'expired', decided_by: 'deadline', decided_at: now });
      throw deadlinePassed(row, true);
    }
    if (row.state === 'expired') throw deadlinePassed(row, false);
    if (row.state !== 'pending')
      throw new AppError('THIRD_PARTY_ORDER_DECIDED', {
        params: { id, state: row.state },
        details: { state: row.state },
      });
    const connection = await repo.connectionOf(ctx.db, businessId, row.connection_id);
    if (!connection) throw new AppError('THIRD_PARTY_ORDER_NOT_FOUND', { params: { id } });
    return { row, connection };
  }

  /**
   * The provider's word first, then the local order (checked when the order came in, so it is made):
   * a provider that refuses or is down leaves no local order behind.
   */
  private async accept(
    ctx: OperationContext,
    connection: repo.ConnectionRow,
    provider: DeliveryProvider,
    row: repo.ProviderOrderRow,
    decidedBy: 'rules' | 'dispatcher',
  ) {
    await this.tellProvider(ctx, connection, `accept ${row.provider_order_id}`, () =>
      provider.accept(row.provider_order_id),
    );
    const input = orderInputSchema.parse(row.mapped) as OrderInput;
    const [created] = await this.orders.intake.create(
      { ...ctx, business: connection.business_id },
      [input],
      originOf(connection.id),
    );
    return repo.decideOrder(ctx.db, row.id, {
      state: 'accepted',
      order_id: created!.id,
      decided_by: decidedBy,
      decided_at: this.clock.now(),
      last_error: null,
    });
  }

  private async reject(
    ctx: OperationContext,
    connection: repo.ConnectionRow,
    provider: DeliveryProvider,
    row: repo.ProviderOrderRow,
    decidedBy: 'rules' | 'dispatcher',
    reason: string,
  ) {
    await this.tellProvider(ctx, connection, `reject ${row.provider_order_id}`, () =>
      provider.reject(row.provider_order_id, reason),
    );
    return repo.decideOrder(ctx.db, row.id, {
      state: 'rejected',
      decided_by: decidedBy,
      decision_reason: reason,
      decided_at: this.clock.now(),
      last_error: null,
    });
  }

  private async tellProvider(
    ctx: OperationContext,
    connection: repo.ConnectionRow,
    what: string,
    call: () => Promise<void>,
  ) {
    try {
      await ctx.outside.perform(
        { kind: 'http', description: `${what} at ${connection.name}` },
        call,
        () => undefined,
      );
    } catch (error) {
      if (!(error instanceof ProviderFailed)) throw error;
      throw new AppError('THIRD_PARTY_PROVIDER_FAILED', {
        params: { provider: connection.name, reason: error.message.slice(0, 200) },
        details: { permanent: error.permanent },
      });
    }
  }

  // ----- reads -----

  async list(
    ctx: OperationContext,
    query: CursorPageQuery & { connection_id?: number; state?: ThirdPartyState },
  ) {
    const page = await repo.providerOrdersOf(
      ctx.db,
      businessOf(ctx),
      { connectionId: query.connection_id, state: query.state },
      cursorWindow(query),
    );
    return {
      result: true as const,
      ...cursorEnvelopeOf(query, page),
      provider_orders: page.rows.map(providerOrderView),
    };
  }

  async get(ctx: OperationContext, id: number) {
    const row = await repo.providerOrderOf(ctx.db, businessOf(ctx), id);
    if (!row) throw new AppError('THIRD_PARTY_ORDER_NOT_FOUND', { params: { id } });
    const pushes = await repo.pushesOf(ctx.db, row.id);
    return {
      result: true as const,
      provider_order: providerOrderView(row),
      status_pushes: pushes.map((push) => ({
        sequence: push.seq,
        status: push.status,
        at: push.at.toISOString(),
        sent_at: push.sent_at?.toISOString() ?? null,
        attempts: push.attempts,
        last_error: push.last_error,
      })),
    };
  }

  /** Background work acts in the connection's business, with no caller and nothing held back. */
  private systemContext(db: Queryable, businessId: number): OperationContext {
    return {
      db,
      caller: null,
      lang: 'en',
      clock: this.clock,
      requestId: 'third-party',
      door: 'system',
      ip: undefined,
      outside: PERFORM_EVERYTHING,
      answer: {},
      provider: null,
      business: businessId,
      representation: undefined,
    };
  }
}

function deadlinePassed(row: repo.ProviderOrderRow, commit: boolean): AppError {
  return new AppError('THIRD_PARTY_DEADLINE_PASSED', {
    params: { id: row.id, accept_by: row.accept_by.toISOString() },
    details: { accept_by: row.accept_by.toISOString() },
    commit,
  });
}

/** The local order a provider order becomes, checked as any order given to create_order is. */
function localOrderOf(connection: repo.ConnectionRow, order: ProviderOrder) {
  const ref = `tp${connection.id}-${order.providerOrderId}`.slice(0, 64);
  return orderInputSchema.safeParse({
    order_ref: ref,
    family: connection.family,
    dropoff: order.dropoff,
    ...(order.pickup ? { pickup: order.pickup } : {}),
    ...(order.scheduledDate ? { scheduled_date: order.scheduledDate } : {}),
    ...(order.window ? { time_window: order.window } : {}),
    ...(order.note ? { note: order.note } : {}),
  });
}

/** What the rules look at, read back from the stored local order. */
function providerOrderOf(row: repo.ProviderOrderRow): ProviderOrder {
  const mapped = row.mapped as {
    dropoff: ProviderOrder['dropoff'];
    time_window?: { start: string; end: string };
  };
  return {
    providerOrderId: row.provider_order_id,
    acceptBy: row.accept_by,
    dropoff: mapped.dropoff,
    ...(mapped.time_window ? { window: mapped.time_window } : {}),
  };
}

function emptyReport(): PullReport {
  return { received: 0, repeated: 0, unreadable: [], accepted: 0, rejected: 0 };
}

function add(into: PullReport, more: PullReport): void {
  into.received += more.received;
  into.repeated += more.repeated;
  into.unreadable.push(...more.unreadable);
  into.accepted += more.accepted;
  into.rejected += more.rejected;
}

export type { AcceptRules };
