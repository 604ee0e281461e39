import { canonicalCode } from '../codebook.ts';
import { currentEvent, type OtepEvent, type OtepTimeline } from '../timeline.ts';
import { toUtc } from '../times.ts';
import { compact, eventText, locationLine } from './common.ts';

/** The AfterShip subtags we use, with AfterShip's own message; the tag is the part before `_`. */
const SUBTAG_MESSAGES = {
  Pending_001: 'No information yet',
  InfoReceived_001: 'Info Received',
  InTransit_001: 'In Transit',
  InTransit_002: 'Acceptance scan',
  InTransit_003: 'Arrival scan',
  InTransit_007: 'Departure Scan',
  OutForDelivery_001: 'Out for Delivery',
  AttemptFail_001: 'Failed Attempt',
  AttemptFail_002: 'Addressee not available',
  Delivered_001: 'Delivered',
  Exception_001: 'Exception',
  Exception_003: 'Customer refused delivery',
  Exception_005: 'Delayed (External factors)',
  Exception_011: 'Returned to sender',
  Exception_020: 'Shipment cancelled',
} as const;
type Subtag = keyof typeof SUBTAG_MESSAGES;

const SUBTAG_BY_CODE: Record<string, Subtag> = {
  information_submitted: 'InfoReceived_001',
  booking_confirmed: 'InfoReceived_001',
  awaiting_pickup: 'InfoReceived_001',
  out_for_pickup: 'InfoReceived_001',
  picked_up: 'InTransit_002',
  pickup_failed: 'Exception_001',
  pickup_rescheduled: 'InfoReceived_001',
  received: 'InTransit_003',
  arrival_scan: 'InTransit_003',
  in_transit: 'InTransit_001',
  package_outbound: 'InTransit_007',
  removed_from_route: 'Exception_005',
  route_cancelled: 'Exception_005',
  out_for_delivery: 'OutForDelivery_001',
  delivered: 'Delivered_001',
  delivery_failed: 'AttemptFail_001',
  delivery_rescheduled: 'Exception_005',
  returned: 'Exception_011',
  rejected: 'Exception_003',
  cancelled: 'Exception_020',
};

/** AfterShip's subtag of an event; experimental codes read as plain "In Transit". */
function subtagOf(event: OtepEvent): Subtag {
  const code = canonicalCode(event.status_code);
  if (code === 'delivery_failed' && event.incident_reason?.code === 'recipient_absent') {
    return 'AttemptFail_002';
  }
  return SUBTAG_BY_CODE[code] ?? 'InTransit_001';
}

function tagged(subtag: Subtag) {
  return { tag: subtag.split('_')[0]!, subtag, subtag_message: SUBTAG_MESSAGES[subtag] };
}

/**
 * A tracking-aggregator object in AfterShip's shape: the tracking's tag/subtag is its current
 * event's (the latest not flagged after a terminal one), and each event is a checkpoint. AfterShip wants ISO alpha-3 countries, which
 * the timeline does not have: the alpha-2 country stays in the `location` line.
 */
export function aftership(timeline: OtepTimeline) {
  const current = currentEvent(timeline);
  const delivered = timeline.delivered ? current : undefined;
  return compact({
    tracking_number: timeline.subject.tracking_number,
    ...tagged(current ? subtagOf(current) : 'Pending_001'),
    shipment_delivery_date: delivered?.occurred_at,
    signed_by: delivered?.pod?.recipient,
    checkpoints: timeline.events.map(checkpoint),
  });
}

function checkpoint(event: OtepEvent) {
  const { location } = event;
  return compact({
    checkpoint_time: event.occurred_at,
    created_at: event.recorded_at ? toUtc(event.recorded_at) : undefined,
    ...tagged(subtagOf(event)),
    message: eventText(event),
    location: location && (locationLine(location) || undefined),
    city: location?.city,
    state: location?.region,
    zip: location?.postal_code,
    raw_tag: event.status_code,
  });
}
