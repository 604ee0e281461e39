import { canonicalCode } from '../codebook.ts';
import type { OtepEvent, OtepTimeline } from '../timeline.ts';
import { carrierOf, compact, eventText, type ProjectionContext, subjectIri } from './common.ts';

/**
 * Shopify's FulfillmentEvent statuses. `label_printed`, `label_purchased` (the merchant's label),
 * `picked_up` and `ready_for_pickup` (the customer collecting in store) describe nothing an OTEP
 * event says, so no code maps to them.
 */
type ShopifyStatus =
  | 'confirmed'
  | 'carrier_picked_up'
  | 'in_transit'
  | 'out_for_delivery'
  | 'attempted_delivery'
  | 'delayed'
  | 'delivered'
  | 'failure';

const STATUS_BY_CODE: Record<string, ShopifyStatus> = {
  information_submitted: 'confirmed',
  booking_confirmed: 'confirmed',
  awaiting_pickup: 'confirmed',
  out_for_pickup: 'confirmed',
  picked_up: 'carrier_picked_up',
  pickup_failed: 'delayed',
  pickup_rescheduled: 'delayed',
  received: 'in_transit',
  arrival_scan: 'in_transit',
  in_transit: 'in_transit',
  package_outbound: 'in_transit',
  removed_from_route: 'delayed',
  route_cancelled: 'delayed',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  delivery_failed: 'attempted_delivery',
  delivery_rescheduled: 'delayed',
  // Shopify has no "returned" or "cancelled" event: `failure` is its word for a shipment that will not arrive.
  returned: 'failure',
  rejected: 'failure',
  cancelled: 'failure',
};

/** Shopify's fulfillment: its tracking info and one FulfillmentEvent per event. */
export function shopify(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  return {
    tracking_info: compact({
      company: carrierOf(timeline),
      number: timeline.subject.tracking_number,
      url: subjectIri(timeline.subject, baseUrl),
    }),
    fulfillment_events: timeline.events.map(fulfillmentEvent),
  };
}

function fulfillmentEvent(event: OtepEvent) {
  const { location } = event;
  return compact({
    status: STATUS_BY_CODE[canonicalCode(event.status_code)] ?? 'in_transit',
    happened_at: event.occurred_at,
    message: eventText(event),
    address1: location?.address,
    city: location?.city,
    province: location?.region,
    zip: location?.postal_code,
    country: location?.country,
    latitude: location?.lat,
    longitude: location?.lng,
  });
}
