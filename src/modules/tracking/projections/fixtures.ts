import { CODEBOOK, codeEntry, OTEP_VERSION, statusUri } from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepTimeline } from '../timeline.ts';

/** Test data for the projections: a realistic parcel, and one event of every code. */

export const BASE_URL = 'https://tms.example.com';

type EventDetails = Omit<Partial<OtepEvent>, 'event_id' | 'status_code' | 'occurred_at' | 'recorded_at'>;

function otepEvent(
  eventId: string,
  statusCode: string,
  occurredAt: string,
  recordedAt: string,
  details: EventDetails,
): OtepEvent {
  return {
    event_id: eventId,
    otep_version: OTEP_VERSION,
    occurred_at: occurredAt,
    recorded_at: recordedAt,
    status_code: statusCode,
    status_uri: statusUri(statusCode),
    phase: codeEntry(statusCode)?.phase ?? null,
    source: { type: 'self_delivery' },
    ...details,
  };
}

const NORDWIND = { type: 'self_delivery', name: 'Nordwind Logistics' } as const;
const ATLANTIC = { type: 'carrier', name: 'Atlantic Express' } as const;

const SHOP_WAREHOUSE: OtepLocation = {
  name: 'Hafenstadt Kaffee warehouse',
  address: 'Hanauer Landstraße 200',
  city: 'Frankfurt am Main',
  region: 'HE',
  postal_code: '60314',
  country: 'DE',
  lat: 50.1147,
  lng: 8.7239,
};
const FRANKFURT_HUB: OtepLocation = {
  name: 'Frankfurt Cargo City hub',
  address: 'Cargo City Süd, Gebäude 579',
  city: 'Frankfurt am Main',
  region: 'HE',
  postal_code: '60549',
  country: 'DE',
  lat: 50.0379,
  lng: 8.5622,
  gln: '4012345000016',
};
const BROOKLYN_STATION: OtepLocation = {
  name: 'Brooklyn delivery station',
  city: 'Brooklyn',
  region: 'NY',
  postal_code: '11201',
  country: 'US',
};
const RECIPIENT_DOOR: OtepLocation = {
  address: '148 Atlantic Ave',
  city: 'Brooklyn',
  region: 'NY',
  postal_code: '11201',
  country: 'US',
  lat: 40.6905,
  lng: -73.9955,
};

/**
 * A parcel from a Frankfurt shop to Brooklyn: picked up with a proof, scanned at a hub with a GLN,
 * flown over, one failed attempt (nobody home), delivered the next day with a proof. The clocks
 * read +01:00 in Frankfurt, Z at the hub scanner and in the air, -05:00 in New York.
 */
export const PARCEL: OtepTimeline = {
  otep_version: OTEP_VERSION,
  profile: 'parcel',
  subject: { tracking_number: 'TMS7K2M9Q4XZ1', order_id: 4711, gs1_sscc: '040123450000001235' },
  current_status: 'delivered',
  delivered: true,
  events: [
    otepEvent('evt-0001', 'information_submitted', '2026-11-02T09:15:00+01:00', '2026-11-02T08:15:02.412Z', {
      source: { ...NORDWIND, reference: 'ORD-20261102-7K2M9Q' },
    }),
    otepEvent('evt-0002', 'picked_up', '2026-11-02T16:20:00+01:00', '2026-11-02T15:20:05Z', {
      source: NORDWIND,
      location: SHOP_WAREHOUSE,
      pod: {
        recipient: 'Jonas Weber',
        signature_url: 'https://files.tms.example.com/pod/evt-0002/signature.png',
        note: 'Handed over at the loading dock',
      },
    }),
    otepEvent('evt-0003', 'arrival_scan', '2026-11-02T19:05:00Z', '2026-11-02T19:05:31.250Z', {
      source: NORDWIND,
      location: FRANKFURT_HUB,
    }),
    otepEvent('evt-0004', 'in_transit', '2026-11-03T02:30:00Z', '2026-11-03T02:31:10Z', {
      source: ATLANTIC,
      description: 'Departed Frankfurt on the flight to New York JFK',
    }),
    otepEvent('evt-0005', 'out_for_delivery', '2026-11-04T08:10:00-05:00', '2026-11-04T13:10:44Z', {
      source: ATLANTIC,
      location: BROOKLYN_STATION,
    }),
    otepEvent('evt-0006', 'delivery_failed', '2026-11-04T13:45:00-05:00', '2026-11-04T18:46:02Z', {
      source: ATLANTIC,
      location: RECIPIENT_DOOR,
      incident_reason: { code: 'recipient_absent', message: 'Nobody at home, notice left at the door' },
    }),
    otepEvent('evt-0007', 'out_for_delivery', '2026-11-05T08:05:00-05:00', '2026-11-05T13:05:20Z', {
      source: ATLANTIC,
      location: BROOKLYN_STATION,
    }),
    otepEvent('evt-0008', 'delivered', '2026-11-05T11:32:00-05:00', '2026-11-05T16:32:07.118Z', {
      source: ATLANTIC,
      location: RECIPIENT_DOOR,
      pod: {
        recipient: 'Amelia Miller',
        signature_url: 'https://files.tms.example.com/pod/evt-0008/signature.png',
        photo_urls: ['https://files.tms.example.com/pod/evt-0008/door.jpg'],
        note: 'Handed to the recipient at the door',
      },
    }),
  ],
};

/** One timeline per status code of the codebook, plus an experimental one: a single event each. */
export function singleEventTimelines(): OtepTimeline[] {
  const codes = [...CODEBOOK.map((entry) => entry.code), 'x-customs_hold'];
  return codes.map((code, index) => {
    const minute = String(index).padStart(2, '0');
    const event = otepEvent(
      `evt-${code}`,
      code,
      `2026-11-02T10:${minute}:00+01:00`,
      `2026-11-02T09:${minute}:30Z`,
      {
        source: NORDWIND,
        location: index % 2 === 0 ? FRANKFURT_HUB : BROOKLYN_STATION,
        ...(codeEntry(code)?.phase === 'exception'
          ? { incident_reason: { code: 'other', message: 'Test' } }
          : {}),
      },
    );
    return {
      otep_version: OTEP_VERSION,
      profile: 'parcel',
      subject: { tracking_number: `TMS-${code}` },
      current_status: code,
      delivered: code === 'delivered',
      events: [event],
    };
  });
}
