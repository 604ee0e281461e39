import { aftership } from './aftership.ts';
import { amazon } from './amazon.ts';
import type { Projection } from './common.ts';
import { epcis } from './epcis.ts';
import { onerecord } from './onerecord.ts';
import { otep } from './otep.ts';
import { otlp } from './otlp.ts';
import { sensorthings } from './sensorthings.ts';
import { shopify } from './shopify.ts';
import { bigcommerce, etsy, magento, walmart, woocommerce } from './storefronts.ts';
import { uncefact } from './uncefact.ts';

export const FORMAT_NAMES = [
  'otep',
  'epcis',
  'onerecord',
  'uncefact',
  'otlp',
  'sensorthings',
  'aftership',
  'shopify',
  'amazon',
  'walmart',
  'bigcommerce',
  'magento',
  'woocommerce',
  'etsy',
] as const;
type FormatName = (typeof FORMAT_NAMES)[number];

export interface Format {
  /** One per format, so an Accept header can name any of them. */
  mediaType: string;
  description: string;
  project: Projection;
}

/** Formats without a media type of their own get one in our vendor tree. */
const vendor = (name: string) => `application/vnd.otep.${name}+json`;

const BY_NAME = {
  otep: {
    mediaType: 'application/vnd.otep+json',
    description: 'The native OTEP timeline',
    project: otep,
  },
  epcis: {
    mediaType: 'application/ld+json; profile="https://ref.gs1.org/standards/epcis"',
    description: 'GS1 EPCIS 2.0 JSON-LD EPCISDocument, one ObjectEvent per event',
    project: epcis,
  },
  onerecord: {
    mediaType: 'application/ld+json; profile="https://onerecord.iata.org/ns/cargo"',
    description: 'IATA ONE Record 3.2 LogisticsEvents of the Shipment or Piece',
    project: onerecord,
  },
  uncefact: {
    mediaType: 'application/ld+json; profile="https://vocabulary.uncefact.org/"',
    description: 'UN/CEFACT JSON-LD Consignment with its TransportEvents (Rec 24 codes)',
    project: uncefact,
  },
  otlp: {
    mediaType: vendor('otlp'),
    description: 'OpenTelemetry OTLP/JSON trace: the journey is a trace, each event a span',
    project: otlp,
  },
  sensorthings: {
    mediaType: vendor('sensorthings'),
    description: 'OGC SensorThings API Datastream "status" with one Observation per event',
    project: sensorthings,
  },
  aftership: {
    mediaType: vendor('aftership'),
    description: 'Tracking-aggregator object (AfterShip tag, subtag and checkpoints)',
    project: aftership,
  },
  shopify: {
    mediaType: vendor('shopify'),
    description: 'Shopify fulfillment tracking info and FulfillmentEvents',
    project: shopify,
  },
  amazon: {
    mediaType: vendor('amazon'),
    description: 'Amazon Shipping tracking: eventHistory and summary status',
    project: amazon,
  },
  walmart: {
    mediaType: vendor('walmart'),
    description: 'Walmart Marketplace order line status and trackingInfo (approximate)',
    project: walmart,
  },
  bigcommerce: {
    mediaType: vendor('bigcommerce'),
    description: 'BigCommerce order status and shipment (approximate)',
    project: bigcommerce,
  },
  magento: {
    mediaType: vendor('magento'),
    description: 'Magento / Adobe Commerce order state and shipment track (approximate)',
    project: magento,
  },
  woocommerce: {
    mediaType: vendor('woocommerce'),
    description: 'WooCommerce order status and shipment tracking item (approximate)',
    project: woocommerce,
  },
  etsy: {
    mediaType: vendor('etsy'),
    description: 'Etsy receipt status and shipment (approximate)',
    project: etsy,
  },
} satisfies Record<FormatName, Format>;

/** The formats by name; indexable by any string, since names arrive from query parameters. */
export const FORMATS: Readonly<Record<string, Format>> = BY_NAME;

/** The media types of the formats, which the timeline reads can answer in as bare documents. */
export const FORMAT_MEDIA_TYPES: readonly string[] = FORMAT_NAMES.map((name) => BY_NAME[name].mediaType);

/** The format whose media type a door negotiated (see Operation.representations). */
export function formatOfMediaType(mediaType: string | undefined): FormatName | undefined {
  return FORMAT_NAMES.find((name) => BY_NAME[name].mediaType === mediaType);
}
