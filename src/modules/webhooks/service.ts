import { randomUUID } from 'node:crypto';
import type { WebhookSettings } from '../../config.ts';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, type Queryable, TransactionMemo } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEvent } from '../../platform/events.ts';
import { checkDestination, OutboundRefused, safeDelivery } from '../../platform/http/outbound.ts';
import {
  type EnqueuedMessage,
  enqueue,
  enqueueMany,
  type OutboxHandler,
} from '../../platform/outbox/outbox.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';
import { generateSecret, verifySignatures, webhookHeaders } from './signing.ts';
import { type DeliveryState, WEBHOOK_KINDS, type WebhookKind } from './tables.ts';

export const WEBHOOK_TOPIC = 'webhook';
/** Retries after the first attempt; then the delivery has failed for good. */
const MAX_RETRIES = 5;
/** Payloads are thin; a bigger one is a bug in the event that produced it. */
const MAX_PAYLOAD_BYTES = 20 * 1024;
const EXCERPT_BYTES = 2048;

interface DeliveryPayload {
  /** null for a test delivery: no settings own its URL, and its business's secret signs it. */
  settingsId: number | null;
  /** The business of a test delivery (the settings name it otherwise). */
  businessId?: number;
  kind: WebhookKind;
  url: string;
  body: string;
}

export interface SettingsUpdate {
  customer_id?: number;
  urls?: Partial<Record<WebhookKind, string>>;
  active?: boolean;
  secret?: string;
  generate_secret?: boolean;
}

/**
 * Webhooks: each subscribed event becomes an outbox message in the transaction that caused it,
 * and the outbox worker delivers it, signed twice (v1 HMAC of the body, v2 Standard Webhooks),
 * retried with backoff, logged attempt by attempt, replayable, and never to a forbidden address.
 */
export class WebhooksService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly settings: WebhookSettings,
  ) {}

  /** The settings events of one transaction are delivered by (see onEvents). */
  private readonly settingsRead = new TransactionMemo<Awaited<ReturnType<typeof repo.settingsOf>>>();

  // ----- settings -----

  /** Partial update of the business's settings, or of one customer's override (a customer sets its own). */
  async updateSettings(ctx: OperationContext, update: SettingsUpdate) {
    const { businessId, customerId } = await this.owner(ctx, update.customer_id);
    const current = await repo.settingsOf(ctx.db, businessId, customerId);
    const urls = { ...(current?.urls ?? {}) };
    const disabled = { ...(current?.disabled ?? {}) };
    for (const [kind, url] of Object.entries(update.urls ?? {}) as Array<[WebhookKind, string]>) {
      if (url) await this.requireDeliverable(url, `urls.${kind}`);
      if (url) urls[kind] = url;
      else delete urls[kind];
      delete disabled[kind];
    }
    const generated =
      update.generate_secret || (!current?.secret && !update.secret) ? generateSecret() : undefined;
    this.settingsRead.forget(ctx.db);
    await repo.saveSettings(ctx.db, {
      business_id: businessId,
      customer_user_id: customerId,
      urls,
      disabled,
      active: update.active ?? current?.active ?? true,
      secret: generated ?? update.secret ?? current?.secret ?? null,
      updated_at: this.clock.now(),
    });
    // The whole secret is shown once, when the service made it.
    return {
      ...(await this.readSettings(ctx.db, businessId, customerId)),
      ...(generated ? { secret: generated } : {}),
    };
  }

  /** A URL every delivery would refuse (credentials, a private or metadata address) is refused now. */
  private async requireDeliverable(url: string, field: string): Promise<void> {
    try {
      await checkDestination(url, this.settings);
    } catch (error) {
      if (!(error instanceof OutboundRefused)) throw error;
      throw new AppError('WEBHOOK_URL_REFUSED', {
        params: { reason: error.message },
        details: {
          field,
          reason: error.reason,
          ...(error.addressClass ? { address_class: error.addressClass } : {}),
        },
      });
    }
  }

  async getSettings(ctx: OperationContext, customerIdAsked?: number) {
    const { businessId, customerId } = await this.owner(ctx, customerIdAsked);
    return this.readSettings(ctx.db, businessId, customerId);
  }

  private async readSettings(db: Queryable, businessId: number, customerId: number | null) {
    const row = await repo.settingsOf(db, businessId, customerId);
    return {
      result: true as const,
      customer_id: customerId,
      urls: Object.fromEntries(WEBHOOK_KINDS.map((kind) => [kind, row?.urls[kind] ?? ''])) as Record<
        WebhookKind,
        string
      >,
      active: row?.active ?? false,
      secret_hint: row?.secret ? `…${row.secret.slice(-4)}` : null,
      disabled: row?.disabled ?? {},
    };
  }

  /** Whose settings a call is about: a customer's own; the business's, or one of its customers' for staff. */
  private async owner(ctx: OperationContext, customerIdAsked?: number) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    if (caller.kind === 'customer') return { businessId, customerId: caller.userId };
    if (customerIdAsked === undefined) return { businessId, customerId: null };
    await this.accounts.requireCustomerOf(ctx.db, customerIdAsked, businessId);
    return { businessId, customerId: customerIdAsked };
  }

  // ----- events -----

  /**
   * Turns domain events into deliveries, in their transaction. The customer's override
   * wins over the business's setting for events that concern that customer.
   */
  readonly onEvents = async (ctx: OperationContext, events: readonly DomainEvent[]): Promise<void> => {
    // The events of one change mostly share their settings: each is read once per transaction.
    const settingsOf = (businessId: number, customerId: number | null) =>
      this.settingsRead.read(ctx.db, `${businessId}:${customerId}`, () =>
        repo.settingsOf(ctx.db, businessId, customerId),
      );
    const deliveries: EnqueuedMessage[] = [];
    for (const event of events) {
      if (!(WEBHOOK_KINDS as readonly string[]).includes(event.kind)) continue;
      // Label-service orders announce themselves as label.created, not as new deliveries.
      if (event.kind === 'order.created' && event.data.family !== 'local_delivery') continue;
      const override =
        event.customerId === null ? undefined : await settingsOf(event.businessId, event.customerId);
      const settings = override ?? (await settingsOf(event.businessId, null));
      const url = settings?.active ? settings.urls[event.kind as WebhookKind] : undefined;
      if (!settings || !url) continue;
      deliveries.push(this.delivery(event, { settingsId: settings.id, url }));
    }
    // The change's deliveries in one statement: a scan's status steps and tracking events together.
    await enqueueMany(ctx.db, this.clock, deliveries);
  };

  private delivery(event: DomainEvent, to: { settingsId: number; url: string }): EnqueuedMessage {
    const messageId = `msg_${randomUUID()}`;
    const body = JSON.stringify({
      id: messageId,
      type: event.kind,
      created_at: this.clock.now().toISOString(),
      business_id: event.businessId,
      data: event.data,
    });
    if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES)
      throw new Error(`${event.kind} payload over ${MAX_PAYLOAD_BYTES} bytes`);
    const payload: DeliveryPayload = { ...to, kind: event.kind as WebhookKind, body };
    return { topic: WEBHOOK_TOPIC, businessId: event.businessId, messageId, payload };
  }

  // ----- delivery (the outbox worker's handler) -----

  /** The outbox handler of webhook messages, on the pool (each attempt is logged whatever the delivery's fate). */
  deliverer(db: Db): OutboxHandler {
    return async (message) => {
      const payload = message.payload as DeliveryPayload;
      const test = payload.settingsId === null;
      const settings = test
        ? await repo.settingsOf(db, payload.businessId!, null)
        : await repo.settingsById(db, payload.settingsId!);
      if (!settings?.secret) return { done: true, error: 'webhook settings removed' };
      const attempt = await this.attempt(db, {
        businessId: settings.business_id,
        // A test delivery stays one: its log is replayable again, and its URL is nobody's setting.
        settingsId: test ? null : settings.id,
        messageId: message.messageId,
        payload,
        secret: settings.secret,
        attempt: message.attempt,
        retries: true,
      });
      if (attempt.state === 'retrying')
        return { retryAt: attempt.nextRetryAt!, error: attempt.error ?? 'failed' };
      if (attempt.state === 'disabled' && !test) {
        await repo.disableUrl(
          db,
          settings.id,
          payload.kind,
          `410 Gone from ${payload.url}`,
          this.clock.now(),
        );
      }
      return { done: true, ...(attempt.error ? { error: attempt.error } : {}) };
    };
  }

  /** One signed POST, logged; decides what comes next from the answer (a retry only if `retries`). */
  private async attempt(
    db: Queryable,
    delivery: {
      businessId: number;
      /** null for a test delivery, which no settings own. */
      settingsId: number | null;
      messageId: string;
      payload: Pick<DeliveryPayload, 'kind' | 'url' | 'body'>;
      secret: string;
      attempt: number;
      retries: boolean;
    },
  ) {
    const { businessId, settingsId, messageId, payload, secret, attempt } = delivery;
    const now = this.clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'TMS-Webhooks/1',
      ...webhookHeaders(secret, {
        id: messageId,
        timestamp: Math.floor(now.getTime() / 1000),
        body: payload.body,
      }),
    };
    let state: DeliveryState;
    let status: number | null = null;
    let excerpt: string | null = null;
    let latency: number | null = null;
    let error: string | null = null;
    let retryAfterSeconds: number | undefined;
    try {
      const answer = await safeDelivery(payload.url, {
        method: 'POST',
        headers,
        body: payload.body,
        timeoutMs: this.settings.timeoutMs,
        maxResponseBytes: EXCERPT_BYTES,
        allow: this.settings.allow,
      });
      const code = answer.status;
      status = code;
      excerpt = answer.bodyExcerpt;
      latency = Math.round(answer.latencyMs);
      retryAfterSeconds = answer.retryAfterSeconds;
      state = code >= 200 && code < 300 ? 'delivered' : code === 410 ? 'disabled' : 'retrying';
      if (state !== 'delivered') error = `HTTP ${code}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      state = failure instanceof OutboundRefused ? 'refused' : 'retrying';
    }
    if (state === 'retrying' && (!delivery.retries || attempt > MAX_RETRIES)) state = 'failed';
    const nextRetryAt =
      state === 'retrying' ? new Date(now.getTime() + backoffMs(attempt, retryAfterSeconds)) : null;
    await repo.insertLog(db, {
      business_id: businessId,
      message_id: messageId,
      settings_id: settingsId,
      kind: payload.kind,
      url: payload.url,
      attempt,
      request_headers: headers,
      request_body: payload.body,
      response_status: status,
      response_excerpt: excerpt,
      latency_ms: latency,
      error,
      next_retry_at: nextRetryAt,
      state,
      created_at: now,
    });
    return { state, status, latency, error, nextRetryAt };
  }

  // ----- logs, replay, test, verification -----

  async logs(
    ctx: OperationContext,
    query: { kind?: string; state?: DeliveryState; message_id?: string } & CursorPageQuery,
  ) {
    const page = await repo.logsOf(
      ctx.db,
      businessOf(ctx),
      { kind: query.kind, state: query.state, messageId: query.message_id },
      cursorWindow(query),
    );
    return {
      result: true as const,
      ...cursorEnvelopeOf(query, page),
      deliveries: page.rows.map((row) => ({
        id: row.id,
        webhook_id: row.message_id,
        kind: row.kind,
        url: row.url,
        attempt: row.attempt,
        request_headers: row.request_headers,
        response_status: row.response_status,
        response_excerpt: row.response_excerpt,
        latency_ms: row.latency_ms,
        error: row.error,
        next_retry_at: row.next_retry_at?.toISOString() ?? null,
        state: row.state,
        created_at: row.created_at.toISOString(),
      })),
    };
  }

  /**
   * Sends a logged delivery again, through the outbox: same webhook-id, a new attempt. A test
   * delivery's too, signed with the business's secret as it was.
   */
  async replay(ctx: OperationContext, logId: number) {
    const log = await repo.logById(ctx.db, businessOf(ctx), logId);
    if (!log) throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', { params: { delivery: logId } });
    const payload: DeliveryPayload = {
      settingsId: log.settings_id,
      ...(log.settings_id === null ? { businessId: log.business_id } : {}),
      kind: log.kind as WebhookKind,
      url: log.url,
      body: log.request_body,
    };
    await enqueue(ctx.db, this.clock, {
      topic: WEBHOOK_TOPIC,
      businessId: log.business_id,
      messageId: log.message_id,
      payload,
    });
    return { result: true as const, webhook_id: log.message_id };
  }

  /** A signed test delivery to a given URL, now; refused like any delivery for a forbidden address. */
  async testDelivery(ctx: OperationContext, input: { url: string; kind: WebhookKind }) {
    const businessId = businessOf(ctx);
    await this.requireDeliverable(input.url, 'url');
    const settings = await repo.settingsOf(ctx.db, businessId, null);
    const secret = settings?.secret;
    if (!secret) throw new AppError('WEBHOOK_SECRET_MISSING');
    const messageId = `msg_test_${randomUUID()}`;
    const body = JSON.stringify({
      id: messageId,
      type: input.kind,
      test: true,
      created_at: this.clock.now().toISOString(),
      business_id: businessId,
      data: {},
    });
    const attempt = await ctx.outside.perform(
      { kind: 'http', description: `POST a signed ${input.kind} test delivery to ${input.url}` },
      () =>
        this.attempt(ctx.db, {
          businessId,
          settingsId: null,
          messageId,
          payload: { kind: input.kind, url: input.url, body },
          secret,
          attempt: 1,
          retries: false,
        }),
      () => ({
        state: 'failed' as const,
        status: null,
        latency: null,
        error: 'not sent: dry run',
        nextRetryAt: null,
      }),
    );
    if (attempt.state === 'refused') {
      throw new AppError('WEBHOOK_URL_REFUSED', { params: { reason: attempt.error ?? '' } });
    }
    return {
      result: true as const,
      delivered: attempt.state === 'delivered',
      webhook_id: messageId,
      response_status: attempt.status,
      latency_ms: attempt.latency,
      error: attempt.error,
    };
  }

  verify(input: {
    payload: string;
    headers: Record<string, string>;
    secret: string;
    tolerance_seconds?: number;
  }) {
    return {
      result: true as const,
      ...verifySignatures({
        secret: input.secret,
        rawBody: input.payload,
        headers: input.headers,
        now: this.clock.now(),
        toleranceSeconds: input.tolerance_seconds,
      }),
    };
  }

  /** Drops delivery logs past their retention. */
  async pruneLogs(db: Queryable): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.settings.logRetentionDays * 86_400_000);
    return repo.pruneLogs(db, before);
  }
}

/** Exponential backoff with ±20 % jitter (30 s, 1 min, 2 min, 4 min, 8 min), or Retry-After when later; at most 1 h. */
function backoffMs(attempt: number, retryAfterSeconds?: number): number {
  const base = 30_000 * 2 ** Math.max(0, attempt - 1);
  const jittered = base * (0.8 + Math.random() * 0.4);
  return Math.min(3_600_000, Math.max(jittered, (retryAfterSeconds ?? 0) * 1000));
}
