import type { OutboundRules } from '../../platform/http/outbound.ts';
import { OutboundFailed, OutboundRefused, safeDelivery } from '../../platform/http/outbound.ts';
import {
  type ConnectionSettings,
  type DeliveryProvider,
  type ProviderAddress,
  ProviderFailed,
  type ProviderOrder,
  type PullPage,
  type StatusUpdate,
  type UnreadableOrder,
} from './port.ts';
import type { FieldMapping } from './schemas.ts';

/** A pull's answer is read whole up to this size: a provider paging by 100 orders stays far below it. */
const MAX_PULL_BYTES = 1024 * 1024;
const ADDRESS_PARTS = ['name', 'phone', 'line1', 'line2', 'city', 'postal_code', 'country'] as const;

/**
 * The generic JSON connector: a provider speaking plain JSON over HTTPS at `base_url`
 * (GET /orders?cursor=…, POST /orders/{id}/accept, /reject, /status; docs/third-party.md), its
 * orders read through JSON pointers. Every call goes through the guarded outbound client.
 */
export class JsonConnector implements DeliveryProvider {
  private readonly mapping: FieldMapping;

  constructor(
    private readonly settings: ConnectionSettings,
    private readonly rules: OutboundRules,
  ) {
    this.mapping = settings.mapping as FieldMapping;
  }

  async pull(cursor: string | null): Promise<PullPage> {
    const query = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
    const answer = await this.call('GET', `/orders${query}`, undefined, MAX_PULL_BYTES);
    let document: unknown;
    try {
      document = JSON.parse(answer);
    } catch {
      throw new ProviderFailed('The provider answered the pull with something other than JSON', false);
    }
    const next = resolvePointer(document, this.mapping.cursor_pointer);
    const listed = resolvePointer(document, this.mapping.orders_pointer);
    return {
      ...this.readOrders(Array.isArray(listed) ? listed : []),
      nextCursor: next === undefined || next === null ? null : String(next),
    };
  }

  readOrders(listed: unknown[]): Pick<PullPage, 'orders' | 'unreadable'> {
    const orders: ProviderOrder[] = [];
    const unreadable: UnreadableOrder[] = [];
    for (const item of listed) {
      const read = readOrder(item, this.mapping.fields);
      if ('problem' in read) unreadable.push(read);
      else orders.push(read);
    }
    return { orders, unreadable };
  }

  async accept(providerOrderId: string): Promise<void> {
    await this.call('POST', `/orders/${encodeURIComponent(providerOrderId)}/accept`, {});
  }

  async reject(providerOrderId: string, reason: string): Promise<void> {
    await this.call('POST', `/orders/${encodeURIComponent(providerOrderId)}/reject`, { reason });
  }

  async pushStatus(providerOrderId: string, update: StatusUpdate): Promise<void> {
    await this.call('POST', `/orders/${encodeURIComponent(providerOrderId)}/status`, {
      status: update.status,
      sequence: update.sequence,
      at: update.at.toISOString(),
    });
  }

  /** One call; its body when the provider answered 2xx, else ProviderFailed. */
  private async call(method: string, path: string, body?: object, maxResponseBytes = 2048): Promise<string> {
    const url = `${this.settings.baseUrl.replace(/\/+$/, '')}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    if (this.settings.credential) headers.authorization = `Bearer ${this.settings.credential}`;
    try {
      const answer = await safeDelivery(url, {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
        timeoutMs: this.rules.timeoutMs,
        maxResponseBytes,
        allow: this.rules.allow,
      });
      if (answer.status >= 200 && answer.status < 300) {
        if (answer.truncated) throw new ProviderFailed(`The answer to ${method} ${path} is too large`, false);
        return answer.bodyExcerpt;
      }
      // 408 and 429 ask to come back later; any other 4xx will answer the same again.
      const permanent = answer.status >= 400 && answer.status < 500 && ![408, 429].includes(answer.status);
      throw new ProviderFailed(
        `${method} ${path}: HTTP ${answer.status} ${answer.bodyExcerpt.slice(0, 200)}`.trim(),
        permanent,
      );
    } catch (error) {
      if (error instanceof OutboundRefused) throw new ProviderFailed(error.message, true);
      if (error instanceof OutboundFailed) throw new ProviderFailed(error.message, false);
      throw error;
    }
  }
}

/** RFC 6901: `/a/0/b`, with `~1` for `/` and `~0` for `~`; the empty pointer is the whole document. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let value: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function readOrder(item: unknown, fields: FieldMapping['fields']): ProviderOrder | UnreadableOrder {
  const text = (field: keyof FieldMapping['fields']) => {
    const pointer = fields[field];
    if (pointer === undefined) return undefined;
    const value = resolvePointer(item, pointer);
    if (typeof value === 'string') return value.trim() || undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return undefined;
  };
  const number = (field: keyof FieldMapping['fields']) => {
    const value = text(field);
    const parsed = value === undefined ? Number.NaN : Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  };
  const address = (leg: 'pickup' | 'dropoff'): ProviderAddress | undefined => {
    const line1 = text(`${leg}.line1`);
    if (!line1) return undefined;
    const parts: ProviderAddress = { line1 };
    for (const part of ADDRESS_PARTS) {
      const value = text(`${leg}.${part}`);
      if (value !== undefined) parts[part] = value;
    }
    const lat = number(`${leg}.lat`);
    const lng = number(`${leg}.lng`);
    if (lat !== undefined && lng !== undefined) Object.assign(parts, { lat, lng });
    return parts;
  };
  const providerOrderId = text('id') ?? null;
  if (!providerOrderId) return { providerOrderId, problem: 'no id' };
  const acceptBy = deadlineOf(text('accept_by'));
  if (!acceptBy) return { providerOrderId, problem: 'no readable accept_by' };
  const dropoff = address('dropoff');
  if (!dropoff) return { providerOrderId, problem: 'no dropoff.line1' };
  const pickup = address('pickup');
  const start = text('window_start');
  const end = text('window_end');
  const scheduledDate = text('scheduled_date');
  const note = text('note');
  return {
    providerOrderId,
    acceptBy,
    dropoff,
    ...(pickup ? { pickup } : {}),
    ...(scheduledDate ? { scheduledDate } : {}),
    ...(start && end ? { window: { start, end } } : {}),
    ...(note ? { note } : {}),
  };
}

/** An ISO 8601 date-time, or Unix seconds. */
function deadlineOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = /^\d+(\.\d+)?$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
