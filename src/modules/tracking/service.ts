import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { CacheInvalidation } from '../../platform/cache/invalidation.ts';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import type { AlliancesService } from '../alliances/index.ts';
import type { Address, OrderStatusChange, OrderStatusListener, OrdersService } from '../orders/index.ts';
import { canonicalCode, codeEntry, OTEP_VERSION, type SourceType, statusUri } from './codebook.ts';
import { publicView } from './public-view.ts';
import {
  eventsOfTimeline,
  type IncomingEvent,
  type PushedTimeline,
  subjectsOf,
  type TrackingProvider,
} from './pushed.ts';

import type { EventPage } from './repository.ts';
import * as repo from './repository.ts';
import type { EventDetails } from './tables.ts';
import type { OtepEvent, OtepLocation, OtepTimeline } from './timeline.ts';
import { offsetIn, offsetOf, withOffset } from './times.ts';
import { validateTimeline } from './validator.ts';

/** Most events one ingest request may carry. */
export const MAX_INGEST_EVENTS = 1000;
/** Most tracking numbers one batch read may ask for. */
export const MAX_BATCH_NUMBERS = 100;

const KEY_PREFIX = 'otp_';

/** The cache tag of a tracking number's public timeline: invalidated whenever an event is stored. */
export function trackingTag(trackingNumber: string): string {
  return `tracking:${trackingNumber}`;
}

/**
 * Tracking: the OTEP event store. One timeline per tracking number merges the service's own
 * delivery events (from order status changes) with events pushed by providers.
 */
export class TrackingService implements OrderStatusListener {
  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    /** The service's public address: projections build URIs under it. */
    readonly baseUrl: string,
    private readonly events: DomainEvents,
    /** Asked whether a number's business lets the caller's business track it in full. */
    private readonly alliances: Pick<AlliancesService, 'grants'>,
    /** The time zone of a business: where its own events happen, when nothing says otherwise. */
    private readonly zones: { timeZoneOf(db: Queryable, businessId: number): Promise<string> },
    /** Tells the caches of public timelines, on every instance, that a timeline changed. */
    readonly cacheInvalidation?: CacheInvalidation,
  ) {}

  /** Stores events and tells the other modules (webhooks) about the new ones, together. */
  private async store(
    ctx: OperationContext,
    businessId: number,
    rows: repo.EventRow[],
    customerId: number | null = null,
  ) {
    const stored = await repo.insertEvents(ctx.db, rows);
    // Storing an event is the only change to a public timeline: events are never updated or deleted.
    await this.cacheInvalidation?.invalidate(ctx.db, [
      ...new Set(stored.map((event) => trackingTag(event.tracking_number))),
    ]);
    await this.events.publish(
      ctx,
      ...stored.map((event) => ({
        kind: 'tracking.event',
        businessId,
        customerId,
        data: {
          tracking_number: event.tracking_number,
          event_id: event.event_id,
          status_code: event.status_code,
          occurred_at: event.occurred_at.toISOString(),
          source_type: event.source_type,
        },
      })),
    );
    return stored.length;
  }

  // ----- reads -----

  /**
   * One page of the timelines of these numbers (known packages, or numbers with events); unknown
   * ones are absent. Pages count back from the newest event. One statement reads the page of each
   * timeline; for most parcels page 1 is the whole timeline, which also gives its count and latest
   * status. A longer timeline, a later page or a number without events costs a second, small one.
   */
  async timelines(
    db: Queryable,
    trackingNumbers: string[],
    { page, perPage }: EventPage = FIRST_PAGE,
  ): Promise<Map<string, TimelinePage>> {
    const numbers = [...new Set(trackingNumbers)];
    // One more than the page holds: finding it tells that the timeline goes on.
    const rows = await repo.newestEventsOf(db, numbers, { offset: (page - 1) * perPage, limit: perPage + 1 });
    const byNumber = new Map<string, typeof rows>();
    for (const row of rows) {
      const list = byNumber.get(row.tracking_number) ?? [];
      list.push(row);
      byNumber.set(row.tracking_number, list);
    }
    const readWhole = (number: string) => page === 1 && (byNumber.get(number)?.length ?? 0) <= perPage;
    const summaries = new Map(
      (
        await repo.timelineSummaries(
          db,
          numbers.filter((number) => (byNumber.has(number) ? !readWhole(number) : page > 1)),
        )
      ).map((summary) => [summary.tracking_number, summary]),
    );
    const withoutEvents = numbers.filter((number) => !byNumber.has(number) && !summaries.has(number));
    const packages = new Map(
      (await this.orders.queries.packagesByTrackingNumber(db, withoutEvents)).map((p) => [
        p.tracking_number,
        p,
      ]),
    );
    const pages = new Map<string, TimelinePage>();
    for (const number of numbers) {
      const newestFirst = byNumber.get(number) ?? [];
      const summary = summaries.get(number);
      const pkg = packages.get(number);
      if (newestFirst.length === 0 && !summary && !pkg) continue;
      const total = summary?.total ?? newestFirst.length;
      // The latest event not flagged after a terminal one: a terminal state stays terminal.
      // Stored rows may hold a code's alias from before the interface's names (return_to_sender).
      const stored =
        summary?.current_status ??
        (newestFirst.find((row) => !row.after_terminal) ?? newestFirst[0])?.status_code;
      const current = stored === undefined ? undefined : canonicalCode(stored);
      const packageId = newestFirst[0]?.package_id ?? pkg?.id;
      pages.set(number, {
        timeline: {
          otep_version: OTEP_VERSION,
          profile: 'parcel',
          subject: {
            tracking_number: number,
            ...(pkg ? { order_id: pkg.order_id } : {}),
            ...(packageId ? { package_id: packageId } : {}),
          },
          ...(current ? { current_status: current } : {}),
          delivered: current === 'delivered',
          events: newestFirst.slice(0, perPage).reverse().map(toEvent),
        },
        totalEvents: total,
        version: versionOf(total, summary?.last_id ?? maxId(newestFirst)),
      });
    }
    return pages;
  }

  async timeline(db: Queryable, trackingNumber: string, page: EventPage = FIRST_PAGE): Promise<TimelinePage> {
    const found = (await this.timelines(db, [trackingNumber], page)).get(trackingNumber);
    if (!found) throw new AppError('TRACKING_NOT_FOUND', { params: { number: trackingNumber } });
    return found;
  }

  /**
   * One page of a timeline as the calling business may see it. Its own numbers (a package of one
   * of its orders) and those of a business that grants it `track_packages` in an alliance are read
   * in full: every detail the provider pushed and the public view leaves out (street and
   * coordinates, contact, proof of delivery with its signature and photos, source references,
   * the order and package ids). An ally's number needs a token that also grants `alliance:read`;
   * the grant is asked at every read, so a withdrawn one counts at once. Any other number gets
   * the public view, as anyone holding it would.
   */
  async detail(ctx: OperationContext, trackingNumber: string, page: EventPage) {
    const read = await this.timeline(ctx.db, trackingNumber, page);
    const mine = businessOf(ctx);
    const [pkg] = await this.orders.queries.packagesByTrackingNumber(ctx.db, [trackingNumber]);
    const owner = pkg?.business_id;
    const scopes = callerOf(ctx).scopes;
    const view =
      owner === mine
        ? ('own' as const)
        : owner !== undefined &&
            (scopes === 'all' || scopes.has('alliance:read')) &&
            (await this.alliances.grants(ctx.db, owner, mine, 'track_packages'))
          ? ('allied' as const)
          : ('public' as const);
    return { read, view, timeline: view === 'public' ? publicView(read.timeline) : read.timeline };
  }

  /**
   * The audit trail of orders named by ids or references: every change through any door, as the
   * orders module journals it. Served beside the audit timeline, under the tracking family.
   */
  operationEvents(ctx: OperationContext, input: { order_ids?: number[]; order_refs?: string[] }) {
    return this.orders.queries.operationEvents(ctx, input);
  }

  /**
   * One order's audit, oldest first, across doors and sources: the changes made to it (by which
   * door and who) and the tracking events of its packages (by which source). Read in the
   * caller's scope, so another business's order is not found.
   */
  async orderAuditTimeline(ctx: OperationContext, orderId: number) {
    const order = await this.orders.queries.detail(ctx, orderId);
    const { events: changes } = await this.orders.queries.operationEvents(ctx, { order_ids: [orderId] });
    const timelines = await this.timelines(
      ctx.db,
      order.packages.map((pkg) => pkg.tracking_number),
      { page: 1, perPage: MAX_AUDIT_EVENTS },
    );
    const entries = [
      ...changes.map((change) => ({
        at: change.at,
        kind: 'order_change' as const,
        source: change.source,
        actor: change.actor,
        action: change.action,
        tracking_number: null,
        details: change.changes,
      })),
      ...[...timelines].flatMap(([trackingNumber, page]) =>
        page.timeline.events.map((event) => ({
          at: new Date(event.occurred_at).toISOString(),
          kind: 'tracking_event' as const,
          source: event.source.type,
          actor: null,
          action: event.status_code,
          tracking_number: trackingNumber,
          details: {
            ...(event.location ? { location: event.location } : {}),
            ...(event.incident_reason ? { incident_reason: event.incident_reason } : {}),
            ...(event.source.name ? { source_name: event.source.name } : {}),
          },
        })),
      ),
    ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    return {
      result: true as const,
      order: { id: order.id, order_ref: order.order_ref, status: order.status },
      entries,
    };
  }

  /**
   * What changes whenever the timeline of a number does, without reading its events: its event
   * count and highest id (events are only ever added). Null for an unknown number.
   */
  async timelineVersion(db: Queryable, trackingNumber: string): Promise<string | null> {
    const { total, last_id } = await repo.timelineVersion(db, trackingNumber);
    if (total > 0) return versionOf(total, last_id);
    const known = await this.orders.queries.packagesByTrackingNumber(db, [trackingNumber]);
    return known.length > 0 ? versionOf(0, null) : null;
  }

  // ----- ingest -----

  /**
   * Stores pushed timelines, all or nothing: every event is validated and every tracking number
   * must be one of the provider's business before anything is written. Events already stored
   * (same event id, or same content without one) are counted as duplicates, not stored twice.
   */
  async ingest(
    ctx: OperationContext,
    provider: TrackingProvider,
    timelines: unknown[],
    /** Where a problem at `path` of timeline `index` is in the request the caller sent. */
    locate: (index: number, path: string) => string,
  ) {
    const problems: Array<{ path: string; code: string; message: string }> = [];
    const incoming: IncomingEvent[] = [];
    timelines = await this.synthesizeFromStatus(ctx.db, timelines);
    for (const [index, raw] of timelines.entries()) {
      const report = validateTimeline(raw, ctx.lang);
      problems.push(...report.errors.map((e) => ({ ...e, path: locate(index, e.path) })));
      if (report.errors.length > 0) continue;
      incoming.push(...eventsOfTimeline(raw as PushedTimeline, provider));
    }
    const packages =
      problems.length === 0 ? await this.requireOwnNumbers(ctx, provider, timelines, locate, problems) : null;
    if (!packages || problems.length > 0)
      throw new AppError('OTEP_INVALID', { details: { errors: problems } });
    if (incoming.length > MAX_INGEST_EVENTS) {
      throw new AppError('OTEP_TOO_MANY_EVENTS', { params: { max: MAX_INGEST_EVENTS } });
    }
    const rows = incoming.map((event) =>
      this.row(provider.businessId, packages.get(event.tracking_number) ?? null, event),
    );
    const stored = await this.store(ctx, provider.businessId, rows);
    return { result: true as const, accepted: stored, duplicates: rows.length - stored };
  }

  /**
   * A source without history sends only its current status (`current_status`, no `events`):
   * a change from the status of the timeline's latest event becomes one synthesized event observed
   * now; an unchanged status adds nothing.
   */
  private async synthesizeFromStatus(db: Queryable, timelines: unknown[]): Promise<unknown[]> {
    const statusOnly = (t: unknown): t is PushedTimeline & { current_status: string } =>
      typeof t === 'object' &&
      t !== null &&
      !('events' in t) &&
      typeof (t as { current_status?: unknown }).current_status === 'string';
    const numbers = timelines
      .filter(statusOnly)
      .flatMap((t) => (t.subject?.tracking_number ? [t.subject.tracking_number] : []));
    if (numbers.length === 0) return timelines;
    const known = await this.timelines(db, numbers);
    const observedAt = this.clock.now().toISOString();
    return timelines.map((timeline) => {
      if (!statusOnly(timeline)) return timeline;
      // What the source said last is the latest event, even one kept after a terminal state: a
      // source repeating a stale status adds one flagged event, not one a push.
      const current = known.get(timeline.subject?.tracking_number ?? '')?.timeline.events.at(-1)?.status_code;
      const status = canonicalCode(timeline.current_status);
      const events =
        status === current
          ? []
          : [{ occurred_at: observedAt, status_code: status, source: { type: 'synthesized' as const } }];
      return { ...timeline, events };
    });
  }

  /**
   * Reports every number events would be stored under that is not of the provider's business (an
   * event's own subject, else the envelope's); answers the package id of each of its own.
   */
  private async requireOwnNumbers(
    ctx: OperationContext,
    provider: TrackingProvider,
    timelines: unknown[],
    locate: (index: number, path: string) => string,
    problems: Array<{ path: string; code: string; message: string }>,
  ): Promise<Map<string, number>> {
    const subjects = timelines.flatMap((timeline, index) =>
      subjectsOf(timeline as PushedTimeline).map((subject) => ({ ...subject, index })),
    );
    const own = new Map(
      (
        await this.orders.queries.packagesByTrackingNumber(
          ctx.db,
          subjects.flatMap(({ number }) => (number ? [number] : [])),
        )
      )
        .filter((p) => p.business_id === provider.businessId)
        .map((p) => [p.tracking_number, p.id]),
    );
    for (const { index, path, number } of subjects) {
      // A number of another business is reported exactly like an unknown one: nothing leaks.
      if (number && own.has(number)) continue;
      problems.push({
        path: locate(index, path),
        code: 'unknown_tracking_number',
        message: errorMessage('TRACKING_NOT_FOUND', ctx.lang, { number: number ?? '' }),
      });
    }
    return own;
  }

  // ----- the service's own events -----

  /** Appends the OTEP event of a self-delivery order's status change to each of its packages' timelines. */
  async orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    if (change.order.carrier !== null) return;
    const zone = await this.zones.timeZoneOf(ctx.db, change.businessId);
    await this.store(ctx, change.businessId, this.rowsOf(change, zone), change.order.customer_user_id);
  }

  /** The same for many orders of one business at once (a saved plan): one insert per customer. */
  async ordersStatusChanged(ctx: OperationContext, changes: readonly OrderStatusChange[]): Promise<void> {
    const own = changes.filter((change) => change.order.carrier === null);
    const businessId = own[0]?.businessId;
    if (businessId === undefined) return;
    const zone = await this.zones.timeZoneOf(ctx.db, businessId);
    const byCustomer = new Map<number | null, repo.EventRow[]>();
    for (const change of own) {
      const rows = byCustomer.get(change.order.customer_user_id) ?? [];
      rows.push(...this.rowsOf(change, zone));
      byCustomer.set(change.order.customer_user_id, rows);
    }
    for (const [customerId, rows] of byCustomer) await this.store(ctx, businessId, rows, customerId);
  }

  /**
   * The events of a status change. Its time is an instant without an offset (the server's clock, a
   * phone's), so it is written in the business's time zone: the public page shows the local time.
   */
  private rowsOf(change: OrderStatusChange, zone: string): repo.EventRow[] {
    const code = otepCodeOf(change);
    const address =
      change.to === 'PICKED_UP' || code === 'pickup_failed' || change.order.type === 'P'
        ? change.order.pickup
        : change.order.dropoff;
    // When the change happened (now for a live change, a past moment for a history loaded at once),
    // in the business's time zone.
    const occurredAt = inZone(change.details?.occurred_at ?? change.at, zone);
    const only = change.details?.package_ids;
    const packages = only ? change.packages.filter((pkg) => only.includes(pkg.id)) : change.packages;
    // A place the change names (a warehouse) is where it happened, whatever the code.
    const location = change.details?.location ?? (address && LOCATED.has(code) ? locationOf(address) : null);
    return packages.map((pkg) =>
      this.row(change.businessId, pkg.id, {
        tracking_number: pkg.tracking_number,
        event_id: `tms-${randomUUID()}`,
        occurred_at: occurredAt,
        status_code: code,
        source: { type: 'self_delivery' },
        ...(location ? { location } : {}),
        ...(change.rerouted ? { description: 'Rerouted to a new address' } : {}),
        ...(change.details?.pod ? { pod: change.details.pod } : {}),
        ...(change.details?.incident_reason ? { incident_reason: change.details.incident_reason } : {}),
      }),
    );
  }

  /**
   * Appends one event another module observed (a label bought from a carrier, ...) to a
   * package's timeline, in the caller's transaction. A number that is no order's package (a
   * forwarded inbound parcel) has no package id.
   */
  async appendEvent(
    ctx: OperationContext,
    businessId: number,
    pkg: { id: number | null; trackingNumber: string },
    event: Omit<IncomingEvent, 'tracking_number' | 'occurred_at'> & { occurred_at?: string },
  ): Promise<void> {
    await this.appendEvents(ctx, businessId, [{ pkg, event }]);
  }

  /** `appendEvent` for several packages at once (a batch scanned together): one insert. */
  async appendEvents(
    ctx: OperationContext,
    businessId: number,
    events: ReadonlyArray<{
      pkg: { id: number | null; trackingNumber: string };
      event: Omit<IncomingEvent, 'tracking_number' | 'occurred_at'> & { occurred_at?: string };
    }>,
  ): Promise<void> {
    if (events.length === 0) return;
    // Observed now, here: in the business's time zone.
    const now = events.some(({ event }) => event.occurred_at === undefined)
      ? inZone(this.clock.now(), await this.zones.timeZoneOf(ctx.db, businessId))
      : undefined;
    await this.store(
      ctx,
      businessId,
      events.map(({ pkg, event }) =>
        this.row(businessId, pkg.id, {
          ...event,
          tracking_number: pkg.trackingNumber,
          occurred_at: event.occurred_at ?? now!,
        }),
      ),
    );
  }

  // ----- providers -----

  async createProvider(db: Queryable, businessId: number, name: string) {
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const id = await repo.insertProvider(db, {
      business_id: businessId,
      name,
      key_hash: digest(key),
      created_at: this.clock.now(),
      revoked_at: null,
    });
    return { id, name, key };
  }

  async providers(db: Queryable, businessId: number) {
    return (await repo.providersOf(db, businessId)).map((p) => ({
      id: p.id,
      name: p.name,
      created_at: p.created_at.toISOString(),
      revoked_at: p.revoked_at?.toISOString() ?? null,
    }));
  }

  async revokeProvider(db: Queryable, businessId: number, id: number): Promise<void> {
    if (!(await repo.revokeProvider(db, businessId, id, this.clock.now()))) {
      throw new AppError('TRACKING_PROVIDER_NOT_FOUND', { params: { provider: id } });
    }
  }

  /** The provider a key belongs to; null for unknown, revoked or malformed keys. */
  readonly authenticateProvider = async (db: Queryable, key: string): Promise<TrackingProvider | null> => {
    if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
    const row = await repo.providerByKeyHash(db, digest(key));
    return row ? { id: row.id, businessId: row.business_id, name: row.name } : null;
  };

  // ----- helpers -----

  private row(businessId: number, packageId: number | null, event: IncomingEvent): repo.EventRow {
    const code = canonicalCode(event.status_code);
    const details: EventDetails = {
      ...(event.source.name ? { source_name: event.source.name } : {}),
      ...(event.source.reference ? { source_reference: event.source.reference } : {}),
      ...(event.location ? { location: event.location as Record<string, unknown> } : {}),
      ...(event.incident_reason ? { incident_reason: event.incident_reason } : {}),
      ...(event.pod ? { pod: event.pod } : {}),
      ...(event.description ? { description: event.description } : {}),
    };
    return {
      business_id: businessId,
      tracking_number: event.tracking_number,
      package_id: packageId,
      event_id: event.event_id ?? contentId(event, code),
      otep_version: event.otep_version ?? OTEP_VERSION,
      occurred_at: new Date(event.occurred_at),
      occurred_offset: offsetOf(event.occurred_at),
      recorded_at: this.clock.now(),
      status_code: code,
      source_type: event.source.type,
      details,
    };
  }
}

/** Codes whose event happens at the order's address, so it is recorded as the location. */
const LOCATED = new Set(['picked_up', 'out_for_delivery', 'delivered', 'delivery_failed', 'pickup_failed']);

/** Internal order status → OTEP code (docs/otep.md shows the table). */
function otepCodeOf(change: Pick<OrderStatusChange, 'from' | 'to' | 'rerouted'>): string {
  if (change.from === null) return 'information_submitted';
  if (change.rerouted) return 'delivery_rescheduled';
  switch (change.to) {
    case 'NEW_ORDER':
    case 'HOLD':
      return change.from === 'PLANNED' ? 'removed_from_route' : 'delivery_rescheduled';
    case 'PLANNED':
      return 'awaiting_pickup';
    case 'PICKED_UP':
      return 'picked_up';
    case 'AT_WAREHOUSE':
      return 'received';
    case 'OUT_FOR_DELIVERY':
      return 'out_for_delivery';
    case 'DELIVERED':
      return 'delivered';
    case 'FAILED_ATTEMPT':
      // Failing before pickup is a failed pickup (a driver found nothing to collect).
      return change.from === 'PLANNED' ? 'pickup_failed' : 'delivery_failed';
    case 'RETURNED':
      return 'returned';
    case 'CANCELLED':
      return 'cancelled';
  }
}

function locationOf(address: Address): OtepLocation {
  return {
    ...(address.line1 ? { address: address.line1 } : {}),
    ...(address.city ? { city: address.city } : {}),
    ...(address.postal_code ? { postal_code: address.postal_code } : {}),
    ...(address.country ? { country: address.country } : {}),
    ...(address.lat !== undefined ? { lat: address.lat } : {}),
    ...(address.lng !== undefined ? { lng: address.lng } : {}),
  };
}

function toEvent(row: Awaited<ReturnType<typeof repo.newestEventsOf>>[number]): OtepEvent {
  const { details } = row;
  return {
    event_id: row.event_id,
    otep_version: row.otep_version,
    occurred_at: withOffset(row.occurred_at, row.occurred_offset),
    recorded_at: row.recorded_at.toISOString(),
    status_code: canonicalCode(row.status_code),
    status_uri: statusUri(canonicalCode(row.status_code)),
    phase: codeEntry(row.status_code)?.phase ?? null,
    source: {
      type: row.source_type as SourceType,
      ...(details.source_name ? { name: details.source_name } : {}),
      ...(details.source_reference ? { reference: details.source_reference } : {}),
    },
    ...(details.location ? { location: details.location as OtepLocation } : {}),
    ...(details.incident_reason
      ? { incident_reason: details.incident_reason as OtepEvent['incident_reason'] }
      : {}),
    ...(details.pod ? { pod: details.pod } : {}),
    ...(details.description ? { description: details.description } : {}),
    ...(row.after_terminal ? { after_terminal: true as const } : {}),
  };
}

/** The instant as the clocks of a time zone read it, with their offset (`2026-11-02T19:58:00+01:00`). */
function inZone(at: Date, zone: string): string {
  return withOffset(at, offsetIn(at, zone));
}

/** Without an id from the source, the event is identified by what it says (the reference's rule). */
function contentId(event: IncomingEvent, code: string): string {
  const key = [
    event.tracking_number,
    new Date(event.occurred_at).toISOString(),
    code,
    event.source.type,
  ].join('|');
  return `otep-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** `timelines[2]` + `events[0].occurred_at` → `timelines[2].events[0].occurred_at`. */
export function joinPath(prefix: string, path: string): string {
  if (!prefix) return path;
  return path ? `${prefix}.${path}` : prefix;
}

/** A page of a timeline, with what describes the whole timeline. */
/** Tracking events of one package an order audit reads at most. */
const MAX_AUDIT_EVENTS = 1000;

export interface TimelinePage {
  timeline: OtepTimeline;
  /** Events in the whole timeline, on every page. */
  totalEvents: number;
  /** Changes whenever an event is added: the validator of cached answers. */
  version: string;
}

/** The newest events, as many as a page holds by default. */
export const FIRST_PAGE: EventPage = { page: 1, perPage: 200 };

function maxId(rows: ReadonlyArray<{ id: number }>): number | null {
  return rows.reduce<number | null>(
    (highest, row) => (highest === null || row.id > highest ? row.id : highest),
    null,
  );
}

function versionOf(total: number, lastId: number | null): string {
  return `${total}.${lastId ?? 0}`;
}
