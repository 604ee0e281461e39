import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { Geocoder } from '../../platform/geocoding.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import * as repo from './repository.ts';
import { locationField } from './schema.ts';
import type { GeocodingStatus } from './tables.ts';
import type { DatasetRow, RecordRow } from './views.ts';

type Values = Record<string, unknown>;
/** The value of an address field (docs/datasets.md, "Fields and their values"). */
type AddressValue = { text: string; country?: string; lat?: number; lng?: number };

/** Where a record is on the map and how that was found: the columns beside its values. */
export interface Placement {
  address_text: string | null;
  lat: number | null;
  lng: number | null;
  geocoding_status: GeocodingStatus;
  geocoding_provider: string | null;
  geocoding_confidence: number | null;
}

/** The outbox topic of records waiting for the public geocoder. */
export const PLACING_TOPIC = 'datasets.place';
/** Records one background placing message carries. */
const PLACING_BATCH = 50;
/** Tries of one message while the public geocoder does not answer (about 4 hours in all). */
const PLACING_ATTEMPTS = 8;

/**
 * How dataset records are placed on the map. `geocoding.now` places them as they are written, in
 * the writing transaction (the business's own data: quick, and it reads only the database);
 * `geocoding.later`, a public geocoder, places what that did not know, in the background through
 * the outbox: a call across the network, spaced as its owner asks, has no place in a transaction.
 */
export class RecordPlacing {
  private readonly geocoder: Geocoder | null;
  private readonly publicGeocoder: Geocoder | null;

  constructor(
    private readonly clock: Clock,
    geocoding: { now: Geocoder | null; later?: Geocoder | null },
  ) {
    this.geocoder = geocoding.now;
    this.publicGeocoder = geocoding.later ?? null;
  }

  /**
   * Where the record is, from its location field: a geo point or an address's own coordinates as
   * given; else the address is geocoded, unless it is the one already placed. An unknown address
   * is `not_found`; no geocoder, or one that fails, leaves the record unplaced as `unavailable`.
   */
  async place(db: Queryable, dataset: DatasetRow, values: Values, previous?: RecordRow): Promise<Placement> {
    const unplaced = { lat: null, lng: null, geocoding_provider: null, geocoding_confidence: null };
    const field = locationField(dataset.fields);
    const value = field ? values[field.name] : undefined;
    if (!field || value === undefined) return { ...unplaced, address_text: null, geocoding_status: 'none' };
    if (field.type === 'geo_point') {
      const point = value as { lat: number; lng: number };
      return { ...unplaced, ...point, address_text: null, geocoding_status: 'provided' };
    }
    const address = value as AddressValue;
    if (address.lat !== undefined && address.lng !== undefined) {
      return {
        ...unplaced,
        lat: address.lat,
        lng: address.lng,
        address_text: address.text,
        geocoding_status: 'provided',
      };
    }
    if (
      previous &&
      previous.geocoding_status !== 'unavailable' &&
      isDeepStrictEqual(previous.data[field.name], value)
    ) {
      return {
        address_text: previous.address_text,
        lat: previous.lat,
        lng: previous.lng,
        geocoding_status: previous.geocoding_status,
        geocoding_provider: previous.geocoding_provider,
        geocoding_confidence: previous.geocoding_confidence,
      };
    }
    const unavailable = { ...unplaced, address_text: address.text, geocoding_status: 'unavailable' as const };
    if (!this.geocoder) return unavailable;
    let found: Awaited<ReturnType<Geocoder['geocode']>>;
    try {
      found = await this.geocoder.geocode(db, {
        businessId: dataset.business_id,
        text: address.text,
        country: address.country ?? null,
      });
    } catch {
      // A geocoder that cannot be reached must not cost the caller the record: it stays, unplaced.
      return unavailable;
    }
    if (!found) {
      const status = this.publicGeocoder ? 'pending' : 'not_found';
      return { ...unplaced, address_text: address.text, geocoding_status: status };
    }
    return {
      address_text: address.text,
      lat: found.lat,
      lng: found.lng,
      geocoding_status: 'geocoded',
      geocoding_provider: found.provider,
      geocoding_confidence: found.confidence,
    };
  }

  /**
   * Tells the geocoder the addresses it is about to be asked, in this transaction, for records of
   * these values (an import's next rows): those without their coordinates.
   */
  async expect(db: Queryable, dataset: DatasetRow, records: Values[]): Promise<void> {
    const field = locationField(dataset.fields);
    if (!this.geocoder?.expect || field?.type !== 'address') return;
    const queries = records.flatMap((values) => {
      const address = values[field.name] as AddressValue | undefined;
      if (!address || (address.lat !== undefined && address.lng !== undefined)) return [];
      return [{ businessId: dataset.business_id, text: address.text, country: address.country ?? null }];
    });
    if (queries.length > 0) await this.geocoder.expect(db, queries);
  }

  /**
   * Hands the records left `pending` among these to the background placer, in this transaction's
   * outbox: a rolled-back write (a dry run) asks nobody anything.
   */
  async placeLater(db: Queryable, dataset: DatasetRow, ids: number[]) {
    if (!this.publicGeocoder || ids.length === 0) return;
    const pending = await repo.pendingRecordIds(db, dataset.business_id, ids);
    for (let start = 0; start < pending.length; start += PLACING_BATCH) {
      await enqueue(db, this.clock, {
        topic: PLACING_TOPIC,
        businessId: dataset.business_id,
        messageId: randomUUID(),
        payload: {
          business_id: dataset.business_id,
          record_ids: pending.slice(start, start + PLACING_BATCH),
        },
      });
    }
  }

  /**
   * The outbox handler that places pending records with the public geocoder, one after another.
   * A record changed meanwhile (another address, or placed) is left as it now is. When the
   * geocoder cannot answer, the rest waits and is tried again later, longer each time; after
   * PLACING_ATTEMPTS tries it is `unavailable`, as a record whose geocoder failed at once is.
   */
  placer(db: Queryable): OutboxHandler {
    return async (message) => {
      const geocoder = this.publicGeocoder;
      const { business_id: businessId, record_ids: ids } = message.payload as {
        business_id: number;
        record_ids: number[];
      };
      const records = await repo.pendingRecords(db, businessId, ids);
      for (const [index, record] of records.entries()) {
        const text = record.address_text ?? '';
        const field = locationField(record.fields);
        const country = (record.data[field?.name ?? ''] as { country?: string } | undefined)?.country ?? null;
        let found: Awaited<ReturnType<Geocoder['geocode']>> = null;
        try {
          found = geocoder ? await geocoder.geocode(db, { businessId, text, country }) : null;
        } catch (error) {
          const waiting = records.slice(index).map((left) => left.id);
          if (message.attempt >= PLACING_ATTEMPTS) {
            await repo.settlePending(db, businessId, waiting, undefined, this.clock.now());
            return { done: true, error: (error as Error).message };
          }
          const delayMs = Math.min(3_600_000, 60_000 * 2 ** (message.attempt - 1));
          return { retryAt: new Date(this.clock.now().getTime() + delayMs), error: (error as Error).message };
        }
        await repo.settlePending(db, businessId, [record.id], found, this.clock.now(), text);
      }
      return { done: true };
    };
  }
}
