import type { OtepEvent, OtepTimeline } from '../timeline.ts';
import { toUtc } from '../times.ts';
import { compact } from './common.ts';

/** Amazon Shipping API v2 event codes, each with the tracking summary status it leaves the package in. */
const SUMMARY_BY_EVENT_CODE = {
  ReadyForReceive: 'PreTransit',
  PickupDone: 'InTransit',
  PackageReceivedByCarrier: 'InTransit',
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
  received: 'PackageReceivedByCarrier',
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
  return_to_sender: 'ReturnInitiated',
  rejected_by_recipient: 'Rejected',
  cancelled: 'PickupCancelled',
};

/** Experimental codes read as a movement of the parcel. */
function eventCodeOf(event: OtepEvent): EventCode {
  return EVENT_CODE_BY_CODE[event.status_code] ?? 'Departed';
}

/** Amazon Shipping's getTracking payload: the event history and the summary status of the latest event. */
export function amazon(timeline: OtepTimeline) {
  const last = timeline.events.at(-1);
  return compact({
    trackingId: timeline.subject.tracking_number,
    eventHistory: timeline.events.map((event) =>
      compact({
        eventCode: eventCodeOf(event),
        eventTime: toUtc(event.occurred_at),
        location: amazonLocation(event),
      }),
    ),
    summary: { status: last ? SUMMARY_BY_EVENT_CODE[eventCodeOf(last)] : 'PreTransit' },
  });
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
