import { canonicalCode } from '../codebook.ts';
import { currentEvent, type OtepEvent, type OtepTimeline } from '../timeline.ts';
import { offsetOf, toUtc } from '../times.ts';
import { compact, subjectKey } from './common.ts';

/**
 * Amazon Shipping API v2 event codes (the `EventCode` enum of its model), each with the tracking
 * summary status (`Status`) it leaves the package in.
 */
const SUMMARY_BY_EVENT_CODE = {
  ReadyForReceive: 'PreTransit',
  PickupDone: 'InTransit',
  ArrivedAtCarrierFacility: 'InTransit',
  Departed: 'InTransit',
  OutForDelivery: 'OutForDelivery',
  DeliveryAttempted: 'DeliveryAttempted',
  RecipientRequestedAlternateDeliveryTiming: 'InTransit',
  Delivered: 'Delivered',
  ReturnInitiated: 'Undeliverable',
  Rejected: 'Rejected',
  PickupCancelled: 'PickupCancelled',
} as const;
type EventCode = keyof typeof SUMMARY_BY_EVENT_CODE;

const EVENT_CODE_BY_CODE: Record<string, EventCode> = {
  information_submitted: 'ReadyForReceive',
  booking_confirmed: 'ReadyForReceive',
  awaiting_pickup: 'ReadyForReceive',
  out_for_pickup: 'ReadyForReceive',
  picked_up: 'PickupDone',
  // The parcel is still with the sender, ready to be collected again.
  pickup_failed: 'ReadyForReceive',
  pickup_rescheduled: 'ReadyForReceive',
  // Amazon's model has no "received by carrier" code: a facility's intake is an arrival there.
  received: 'ArrivedAtCarrierFacility',
  arrival_scan: 'ArrivedAtCarrierFacility',
  in_transit: 'Departed',
  package_outbound: 'Departed',
  // Taken off the vehicle: the parcel is back at the depot.
  removed_from_route: 'ArrivedAtCarrierFacility',
  route_cancelled: 'ArrivedAtCarrierFacility',
  out_for_delivery: 'OutForDelivery',
  delivered: 'Delivered',
  delivery_failed: 'DeliveryAttempted',
  delivery_rescheduled: 'RecipientRequestedAlternateDeliveryTiming',
  returned: 'ReturnInitiated',
  rejected: 'Rejected',
  cancelled: 'PickupCancelled',
};

/** Experimental codes read as a movement of the parcel. */
function eventCodeOf(event: OtepEvent): EventCode {
  return EVENT_CODE_BY_CODE[canonicalCode(event.status_code)] ?? 'Departed';
}

/**
 * Amazon Shipping's `GetTrackingResult`: the event history and the summary status of the current
 * event (the latest not flagged after a terminal one). The model requires two fields a timeline has no source for, so both follow a stated rule:
 * `alternateLegTrackingId` is empty (a return travels under the same tracking number here, so there
 * is no second leg), and `promisedDeliveryDate` is `promisedDeliveryDateOf` below.
 */
export function amazon(timeline: OtepTimeline) {
  const current = currentEvent(timeline);
  return {
    trackingId: subjectKey(timeline.subject),
    alternateLegTrackingId: '',
    eventHistory: timeline.events.map((event) =>
      compact({
        eventCode: eventCodeOf(event),
        eventTime: toUtc(event.occurred_at),
        location: amazonLocation(event),
      }),
    ),
    promisedDeliveryDate: promisedDeliveryDateOf(timeline.events),
    summary: { status: current ? SUMMARY_BY_EVENT_CODE[eventCodeOf(current)] : 'PreTransit' },
  };
}

/** Nothing happened yet: no instant to promise from, so the start of the Unix epoch says "none". */
const NO_PROMISE = '1970-01-01T00:00:00Z';

/**
 * OTEP carries no delivery promise. Once a parcel is out for delivery (or delivered) its day is
 * known: the end of that local day, in UTC. Before that, the latest event's time: the document
 * promises nothing beyond what has happened.
 */
function promisedDeliveryDateOf(events: readonly OtepEvent[]): string {
  const lastDay = events.findLast((event) =>
    ['out_for_delivery', 'delivered'].includes(canonicalCode(event.status_code)),
  );
  if (lastDay) return toUtc(`${lastDay.occurred_at.slice(0, 10)}T23:59:59${offsetOf(lastDay.occurred_at)}`);
  const latest = events.at(-1);
  return latest ? toUtc(latest.occurred_at) : NO_PROMISE;
}

function amazonLocation({ location }: OtepEvent) {
  const fields = compact({
    city: location?.city,
    stateOrRegion: location?.region,
    postalCode: location?.postal_code,
    countryCode: location?.country,
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}
