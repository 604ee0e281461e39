import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { TrackingService } from '../tracking/index.ts';
import { normalCarrier, normalNumber } from './forwarding.ts';
import * as repo from './repository.ts';

/** A push whose `ts` is further than this from the service's clock is a replay (docs/consolidation.md). */
export const PUSH_WINDOW_SECONDS = 15 * 60;
export const PROVIDER_NAME = 'AfterShip';

/** AfterShip's tracking webhook body (the fields read here; the rest is ignored). */
interface AfterShipPush {
  event_id?: unknown;
  event?: unknown;
  ts?: unknown;
  msg?: {
    id?: unknown;
    slug?: unknown;
    tracking_number?: unknown;
    tag?: unknown;
    subtag?: unknown;
    checkpoints?: unknown;
  };
}

interface Checkpoint {
  checkpoint_time?: unknown;
  tag?: unknown;
  subtag?: unknown;
  message?: unknown;
  city?: unknown;
  zip?: unknown;
  country_iso3?: unknown;
  location?: unknown;
}

/**
 * Tracking pushes from the business's contracted provider, in AfterShip's webhook format:
 * signed with the business's webhook secret, taken once, matched to a pre-announced parcel by
 * carrier (AfterShip's slug) and number, and written to the parcel's timeline as OTEP events.
 */
export class TrackingPushes {
  constructor(
    private readonly clock: Clock,
    private readonly tracking: TrackingService,
  ) {}

  /** Runs in the system door's context of the business the URL names: no caller. */
  async receive(ctx: OperationContext, businessId: number, body: Buffer, signature: string | undefined) {
    // Broken JSON is refused as on every JSON route (it is only read, nothing is done with it yet).
    let push: AfterShipPush;
    try {
      push = JSON.parse(body.toString('utf8')) as AfterShipPush;
    } catch {
      throw new AppError('INVALID_JSON');
    }
    const settings = await repo.settingsOf(ctx.db, businessId);
    // An unknown business, one without a secret and a wrong signature are refused alike.
    if (!settings?.webhook_secret || !signature || !signedWith(settings.webhook_secret, body, signature)) {
      throw new AppError('TRACKING_PUSH_UNVERIFIED');
    }
    const eventId = typeof push.event_id === 'string' ? push.event_id.slice(0, 100) : '';
    const ts = typeof push.ts === 'number' ? push.ts : Number.NaN;
    const now = this.clock.now();
    if (!eventId || !(Math.abs(now.getTime() / 1000 - ts) <= PUSH_WINDOW_SECONDS)) {
      throw new AppError('TRACKING_PUSH_REPLAYED');
    }
    if (!(await repo.claimPush(ctx.db, businessId, eventId, now)))
      throw new AppError('TRACKING_PUSH_REPLAYED');
    const msg = push.msg ?? {};
    const slug = typeof msg.slug === 'string' ? normalCarrier(msg.slug) : '';
    const number = typeof msg.tracking_number === 'string' ? normalNumber(msg.tracking_number) : '';
    const [parcel] = await repo.parcelsOf(ctx.db, businessId, {
      carrier: slug,
      trackingNumber: number,
      limit: 1,
    });
    // A push for a parcel nobody announced is taken (the provider would retry a refusal) and kept nowhere.
    if (!parcel || !slug || !number) return { result: true as const, matched: false, events: 0 };
    const events = eventsOf(push, eventId);
    await this.tracking.appendEvents(
      ctx,
      businessId,
      events.map((event) => ({ pkg: { id: null, trackingNumber: parcel.reference }, event })),
    );
    return { result: true as const, matched: true, parcel_id: parcel.id, events: events.length };
  }
}

function signedWith(secret: string, body: Buffer, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature.trim(), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** AfterShip tags (and a few subtags) → OTEP codes; null: nothing to put on a timeline. */
function otepCode(tag: string, subtag: string): string | null {
  switch (subtag) {
    case 'InTransit_002':
      return 'picked_up';
    case 'InTransit_003':
      return 'arrival_scan';
    case 'InTransit_007':
      return 'package_outbound';
    case 'Exception_003':
      return 'rejected_by_recipient';
    case 'Exception_011':
      return 'return_to_sender';
    case 'Exception_020':
      return 'cancelled';
  }
  switch (tag) {
    case 'InfoReceived':
      return 'information_submitted';
    case 'InTransit':
      return 'in_transit';
    case 'OutForDelivery':
      return 'out_for_delivery';
    case 'AvailableForPickup':
      return 'arrival_scan';
    case 'AttemptFail':
      return 'delivery_failed';
    case 'Delivered':
      return 'delivered';
    case 'Exception':
      return 'delivery_rescheduled';
    default:
      // Pending and Expired say nothing about where the parcel is.
      return null;
  }
}

const text = (value: unknown, max = 200) =>
  typeof value === 'string' && value ? value.slice(0, max) : undefined;

/**
 * The checkpoints of the push as OTEP events, each with an id of its own (the tracking's id,
 * its time and subtag), so a checkpoint a later push repeats is not stored twice. A push
 * without checkpoints gives its tracking's tag, at `ts`.
 */
function eventsOf(push: AfterShipPush, eventId: string) {
  const msg = push.msg ?? {};
  const trackingId = text(msg.id) ?? eventId;
  const raw = Array.isArray(msg.checkpoints) ? (msg.checkpoints as Checkpoint[]).slice(-100) : [];
  const checkpoints: Checkpoint[] =
    raw.length > 0
      ? raw
      : [
          {
            tag: msg.tag,
            subtag: msg.subtag,
            checkpoint_time: new Date((push.ts as number) * 1000).toISOString(),
          },
        ];
  const events = [];
  for (const checkpoint of checkpoints) {
    const tag = text(checkpoint.tag) ?? '';
    const subtag = text(checkpoint.subtag) ?? '';
    const code = otepCode(tag, subtag);
    const time = text(checkpoint.checkpoint_time, 40);
    if (!code || !time || Number.isNaN(Date.parse(time))) continue;
    const city = text(checkpoint.city);
    const postal = text(checkpoint.zip, 20);
    const address = text(checkpoint.location);
    events.push({
      event_id: `aftership-${trackingId}-${time}-${subtag || tag}`.slice(0, 200),
      // AfterShip's checkpoint times are local without an offset at some carriers: read as UTC then.
      occurred_at: /[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`,
      status_code: code,
      source: { type: 'provider_push' as const, name: PROVIDER_NAME, reference: eventId },
      ...(city || postal || address
        ? {
            location: {
              ...(address ? { address } : {}),
              ...(city ? { city } : {}),
              ...(postal ? { postal_code: postal } : {}),
            },
          }
        : {}),
      ...(text(checkpoint.message, 500) ? { description: text(checkpoint.message, 500) } : {}),
    });
  }
  return events;
}
