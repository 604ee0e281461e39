/**
 * The data of the tracking bench (bench/tracking.ts): parcels' journeys as providers push them,
 * generated from seeds so every run loads the same, and the COPY that preloads them.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { mulberry32 as random } from '../src/modules/dispatch/solver/generate.ts';
import type { EventDetails } from '../src/modules/tracking/tables.ts';
import { withOffset } from '../src/modules/tracking/times.ts';

// ----- generated timelines -----

// Seeded generators (mulberry32, shared with the routing instances), so every run loads the same data.
export type Random = ReturnType<typeof random>;
const pickOf = <T>(rng: Random, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

interface Place {
  location: Record<string, unknown>;
  offset: string;
}
const HUBS: Place[] = [
  ['Paris Nord hub', 'Gonesse', '95500', 'FR', 48.9867, 2.4493, '3012345000017', '+01:00'],
  ['Lyon hub', 'Saint-Priest', '69800', 'FR', 45.6967, 4.9431, '3012345000024', '+01:00'],
  ['Lille hub', 'Lesquin', '59810', 'FR', 50.5886, 3.1116, '3012345000031', '+01:00'],
  ['Bordeaux hub', 'Mérignac', '33700', 'FR', 44.8386, -0.6436, '3012345000048', '+01:00'],
  ['Marseille hub', 'Vitrolles', '13127', 'FR', 43.46, 5.2486, '3012345000055', '+01:00'],
  ['Brussels hub', 'Brussels', '1130', 'BE', 50.8833, 4.4286, '5412345000013', '+01:00'],
  ['London gateway', 'London', 'TW6 2GA', 'GB', 51.47, -0.4543, '5012345000016', 'Z'],
].map(([name, city, postal_code, country, lat, lng, gln, offset]) => ({
  location: { name, city, postal_code, country, lat, lng, gln },
  offset: offset as string,
}));
const STREETS = [
  'rue de la Paix',
  'avenue Jean Jaurès',
  'boulevard Voltaire',
  'rue Victor Hugo',
  'place Bellecour',
];
const TOWNS = [
  ['Paris', '75011', 48.859, 2.379],
  ['Lyon', '69002', 45.7578, 4.832],
  ['Lille', '59000', 50.6292, 3.0573],
  ['Bordeaux', '33000', 44.8378, -0.5792],
  ['Marseille', '13001', 43.2965, 5.3698],
  ['Nantes', '44000', 47.2184, -1.5536],
] as const;
const RECIPIENTS = ['Léa Martin', 'Hugo Bernard', 'Chloé Dubois', 'Lucas Moreau', 'Emma Laurent'];
const MIDDLE = ['in_transit', 'arrival_scan', 'package_outbound'];

/** An event as a provider pushes it. */
export interface PushedEvent {
  event_id: string;
  occurred_at: string;
  status_code: string;
  source: { type: 'provider_push' };
  location?: Record<string, unknown>;
  incident_reason?: { code: string };
  pod?: { recipient: string; note: string };
}

/** A parcel's journey of `count` events: pre-shipment, pickup, hub hops, delivery (most of them). */
export function journey(rng: Random, idPrefix: string, count: number, start: number): PushedEvent[] {
  const delivered = rng() < 0.7;
  const failedOnce = delivered && rng() < 0.2;
  const head = ['information_submitted', 'awaiting_pickup', 'picked_up', 'received'];
  const tail = delivered
    ? failedOnce
      ? ['out_for_delivery', 'delivery_failed', 'out_for_delivery', 'delivered']
      : ['out_for_delivery', 'delivered']
    : rng() < 0.5
      ? ['out_for_delivery']
      : [];
  const middle = Array.from(
    { length: Math.max(0, count - head.length - tail.length) },
    (_, i) => MIDDLE[i % MIDDLE.length]!,
  );
  let codes = [...head, ...middle, ...tail];
  if (codes.length > count) codes = [codes[0]!, ...codes.slice(codes.length - (count - 1))];
  const [town, postal, lat, lng] = pickOf(rng, TOWNS);
  const home = {
    address: `${1 + Math.floor(rng() * 120)} ${pickOf(rng, STREETS)}`,
    city: town,
    postal_code: postal,
    country: 'FR',
    lat: Number((lat + (rng() - 0.5) / 50).toFixed(5)),
    lng: Number((lng + (rng() - 0.5) / 50).toFixed(5)),
  };
  const origin = pickOf(rng, HUBS);
  const destination = pickOf(rng, HUBS);
  let at = start;
  let hop = origin;
  return codes.map((code, index) => {
    at += (30 + Math.floor(rng() * 600)) * 60_000;
    if (code === 'arrival_scan') hop = rng() < 0.5 ? destination : pickOf(rng, HUBS);
    const place: Place | null =
      code === 'picked_up' || code === 'received' || code === 'package_outbound'
        ? origin
        : code === 'arrival_scan'
          ? hop
          : code === 'out_for_delivery'
            ? destination
            : code === 'delivered' || code === 'delivery_failed'
              ? { location: home, offset: '+01:00' }
              : null;
    return {
      event_id: `${idPrefix}-${index}`,
      occurred_at: withOffset(new Date(at), place?.offset ?? '+01:00'),
      status_code: code,
      source: { type: 'provider_push' as const },
      ...(place ? { location: place.location } : {}),
      ...(code === 'delivery_failed' ? { incident_reason: { code: 'recipient_absent' } } : {}),
      ...(code === 'delivered'
        ? { pod: { recipient: pickOf(rng, RECIPIENTS), note: 'Handed to the recipient' } }
        : {}),
    };
  });
}

/** A tracking number as the service makes them: TMS plus 10 characters of Crockford base32. */
export function trackingNumbers(count: number): string[] {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const rng = random(7);
  const seen = new Set<string>();
  while (seen.size < count) {
    seen.add(`TMS${Array.from({ length: 10 }, () => alphabet[Math.floor(rng() * 32)]).join('')}`);
  }
  return [...seen];
}

// ----- COPY -----

export interface Target {
  businessId: number;
  providerName: string;
  packages: Map<string, number>;
}

/** tracking_events columns, in the order the COPY lines give them. */
const COPY_COLUMNS =
  'business_id, tracking_number, package_id, event_id, otep_version, occurred_at, occurred_offset, ' +
  'recorded_at, status_code, source_type, details';

const ESCAPE = /[\\\t\n\r]/;
function copyText(value: string): string {
  if (!ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

/** The COPY table and columns of the deduplication keys stored beside the events. */
export const KEYS_TABLE = 'tracking_event_keys (tracking_number, event_id, business_id)';

/** The COPY line of an event's deduplication key. */
export function copyKeyLine(target: Target, number: string, eventId: string): string {
  return [copyText(number), copyText(eventId), target.businessId].join('\t');
}

/** The COPY line of a pushed event, holding what TrackingService stores for it. */
export function copyLine(target: Target, number: string, event: PushedEvent, recordedAt: Date): string {
  const offset = /(Z|[+-]\d{2}:\d{2})$/.exec(event.occurred_at)![1]!;
  const details: EventDetails = {
    source_name: target.providerName,
    ...(event.location ? { location: event.location } : {}),
    ...(event.incident_reason ? { incident_reason: event.incident_reason } : {}),
    ...(event.pod ? { pod: event.pod } : {}),
  };
  const packageId = target.packages.get(number);
  return [
    target.businessId,
    copyText(number),
    packageId ?? '\\N',
    copyText(event.event_id),
    '0.1',
    new Date(event.occurred_at).toISOString(),
    offset,
    recordedAt.toISOString(),
    event.status_code,
    'provider_push',
    copyText(JSON.stringify(details)),
  ].join('\t');
}

export async function copyLines(
  pool: pg.Pool,
  lines: Iterable<string>,
  progress?: (rows: number) => void,
  into = `tracking_events (${COPY_COLUMNS})`,
) {
  const client = await pool.connect();
  try {
    const stream = client.query(copyFrom(`COPY ${into} FROM STDIN`));
    async function* chunks() {
      let batch: string[] = [];
      let rows = 0;
      for (const line of lines) {
        batch.push(line);
        if (batch.length === 2000) {
          rows += batch.length;
          yield `${batch.join('\n')}\n`;
          batch = [];
          if (rows % 100_000 === 0) progress?.(rows);
        }
      }
      if (batch.length > 0) yield `${batch.join('\n')}\n`;
    }
    await pipeline(Readable.from(chunks()), stream);
  } finally {
    client.release();
  }
}
