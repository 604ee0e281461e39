import { canonicalCode, type Phase } from '../codebook.ts';
import { currentEvent, type OtepTimeline } from '../timeline.ts';
import { toUtc } from '../times.ts';
import { carrierOf, compact, type Projection, subjectIri } from './common.ts';

/**
 * Storefronts know an order's fulfilment, not a parcel's journey: each view reduces the timeline to
 * one of these stages, names it in the platform's order (or receipt) status vocabulary, and
 * shapes the tracking record the platform keeps. Approximate by nature: `otep_status` beside it
 * keeps the exact code.
 */
type Stage = 'awaiting_shipment' | 'shipped' | 'delivered' | 'returned' | 'cancelled';

interface Shipment {
  stage: Stage;
  trackingNumber?: string;
  trackingUrl: string;
  carrier?: string;
  /** occurred_at of the first event in the carrier's hands. */
  shippedAt?: string;
}

/** Phases that only happen once the parcel has left the sender. */
const SHIPPED_PHASES: ReadonlySet<Phase> = new Set([
  'inbound',
  'transit',
  'out_for_delivery',
  'delivered',
  'return',
]);

function shipmentOf(timeline: OtepTimeline, baseUrl: string): Shipment {
  const shipped = timeline.events.find(
    (event) => event.status_code === 'picked_up' || (event.phase !== null && SHIPPED_PHASES.has(event.phase)),
  );
  const current = currentEvent(timeline);
  let stage: Stage = shipped ? 'shipped' : 'awaiting_shipment';
  if (timeline.delivered) stage = 'delivered';
  else if (current?.status_code === 'cancelled') stage = 'cancelled';
  else if (current?.phase === 'return') stage = 'returned';
  return {
    stage,
    trackingNumber: timeline.subject.tracking_number,
    trackingUrl: subjectIri(timeline.subject, baseUrl),
    carrier: carrierOf(timeline),
    shippedAt: shipped?.occurred_at,
  };
}

/** The one shape of the five views: platform, its order status, its tracking record, the exact OTEP status. */
function storefront(
  platform: string,
  view: (shipment: Shipment) => { order: Record<string, unknown>; tracking: Record<string, unknown> },
): Projection {
  return (timeline, { baseUrl }) => {
    const { order, tracking } = view(shipmentOf(timeline, baseUrl));
    const current = timeline.current_status;
    return {
      platform,
      order,
      tracking: compact(tracking),
      otep_status: current ? canonicalCode(current) : null,
    };
  };
}

/** Walmart Marketplace order line status; trackingInfo of its shipping update (times in epoch ms). */
const WALMART_STATUS: Record<Stage, string> = {
  awaiting_shipment: 'Acknowledged',
  shipped: 'Shipped',
  delivered: 'Delivered',
  returned: 'Shipped',
  cancelled: 'Cancelled',
};
export const walmart = storefront('walmart', (shipment) => ({
  order: { orderLineStatus: WALMART_STATUS[shipment.stage] },
  tracking: {
    shipDateTime: shipment.shippedAt && Date.parse(shipment.shippedAt),
    carrierName: compact({ otherCarrier: shipment.carrier }),
    methodCode: 'Standard',
    trackingNumber: shipment.trackingNumber,
    trackingURL: shipment.trackingUrl,
  },
}));

/**
 * BigCommerce order status (id and name); its v2 order shipment (RFC 2822 dates, custom carrier).
 * No `shipping_provider`: that names one of BigCommerce's own carrier integrations (an enum in its
 * Orders v2 OpenAPI), and the parcel is carried by none of them.
 */
const BIGCOMMERCE_STATUS: Record<Stage, [number, string]> = {
  awaiting_shipment: [9, 'Awaiting Shipment'],
  shipped: [2, 'Shipped'],
  delivered: [10, 'Completed'],
  returned: [2, 'Shipped'],
  cancelled: [5, 'Cancelled'],
};
export const bigcommerce = storefront('bigcommerce', (shipment) => {
  const [statusId, status] = BIGCOMMERCE_STATUS[shipment.stage];
  return {
    order: { status_id: statusId, status },
    tracking: {
      tracking_number: shipment.trackingNumber,
      tracking_link: shipment.trackingUrl,
      tracking_carrier: '',
      shipping_method: shipment.carrier,
      date_created: shipment.shippedAt && new Date(shipment.shippedAt).toUTCString().replace('GMT', '+0000'),
    },
  };
});

/** Magento / Adobe Commerce order state (status alike); a shipment track with a custom carrier. */
const MAGENTO_STATE: Record<Stage, string> = {
  awaiting_shipment: 'processing',
  shipped: 'complete',
  delivered: 'complete',
  returned: 'complete',
  cancelled: 'canceled',
};
export const magento = storefront('magento', (shipment) => ({
  order: { state: MAGENTO_STATE[shipment.stage], status: MAGENTO_STATE[shipment.stage] },
  tracking: {
    track_number: shipment.trackingNumber,
    title: shipment.carrier,
    carrier_code: 'custom',
    created_at: shipment.shippedAt && toUtc(shipment.shippedAt).slice(0, 19).replace('T', ' '),
  },
}));

/** WooCommerce order status; an item of the Shipment Tracking extension (date as the sender's day). */
const WOOCOMMERCE_STATUS: Record<Stage, string> = {
  awaiting_shipment: 'processing',
  shipped: 'completed',
  delivered: 'completed',
  returned: 'completed',
  cancelled: 'cancelled',
};
export const woocommerce = storefront('woocommerce', (shipment) => ({
  order: { status: WOOCOMMERCE_STATUS[shipment.stage] },
  tracking: {
    tracking_provider: shipment.carrier,
    tracking_number: shipment.trackingNumber,
    tracking_link: shipment.trackingUrl,
    date_shipped: shipment.shippedAt?.slice(0, 10),
  },
}));

/** Etsy receipt status and is_shipped; a receipt shipment (times in Unix seconds). */
const ETSY_STATUS: Record<Stage, string> = {
  awaiting_shipment: 'paid',
  shipped: 'completed',
  delivered: 'completed',
  returned: 'completed',
  cancelled: 'canceled',
};
export const etsy = storefront('etsy', (shipment) => ({
  order: {
    status: ETSY_STATUS[shipment.stage],
    is_shipped: !['awaiting_shipment', 'cancelled'].includes(shipment.stage),
  },
  tracking: {
    carrier_name: shipment.carrier,
    tracking_code: shipment.trackingNumber,
    shipment_notification_timestamp: shipment.shippedAt && Math.floor(Date.parse(shipment.shippedAt) / 1000),
  },
}));
