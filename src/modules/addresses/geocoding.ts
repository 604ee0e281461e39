import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../platform/db/database.ts';
import type { GeocodeQuery, GeocodeResult, Geocoder } from '../../platform/geocoding.ts';
import { type OutboundRules, safeDelivery } from '../../platform/http/outbound.ts';
import * as repo from './repository.ts';

/** How sure the built-in geocoder must be before it places an address (0 to 1). */
const BUSINESS_DATA_CONFIDENCE = 0.7;

/** A place another module keeps (a dataset record with a point), offered to the built-in geocoder and the search. */
export interface PlaceMatch {
  label: string;
  address_text: string;
  lat: number;
  lng: number;
  /** 0 to 1: how much of the words the place's address holds (trigram word similarity). */
  score: number;
  /** The record behind the place, and its dataset. */
  record_id: number;
  dataset_id: number;
}

/** Where the addresses module finds other modules' places (the datasets module's placed records). */
export interface PlaceSource {
  /** Places whose address looks like the words (at least 0.4 alike), the `limit` best. */
  searchPlaces(db: Queryable, businessId: number, q: string, limit: number): Promise<PlaceMatch[]>;
  /**
   * For each of the words, the `limit` places at least `minScore` alike, best first: what
   * `searchPlaces` answers of them at that score, in one statement that an index answers.
   */
  placesLike(
    db: Queryable,
    businessId: number,
    words: string[],
    limit: number,
    minScore: number,
  ): Promise<PlaceMatch[][]>;
}

/**
 * Another module's place scores arrive rounded to two decimals: asked for a little less than the
 * confidence, so that none that rounds up to it is left out.
 */
const SCORE_ROUNDING = 0.01;

/**
 * Addresses looked up ahead in one statement: about half a second of lookups on a 10,000-entry
 * book, well within the statement bound (DATABASE_TIMEOUT_MS) on a loaded machine.
 */
const EXPECTED_BATCH = 50;

/**
 * The default geocoder: the business's own data. An address is placed where the business already
 * placed it, in its own address book, its points of interest or a placed dataset record, when the
 * text holds that place's street line and every number of the text (house number, postal code)
 * is the place's too. Anything less is unknown: no nearby street, no city centre stands in.
 *
 * Only places at least BUSINESS_DATA_CONFIDENCE sure can answer, so only those are looked up,
 * through the trigram indexes: the five surest of them are the five surest of all, which is what
 * the answer is chosen from.
 */
export class BusinessDataGeocoder implements Geocoder {
  /** Own places looked up ahead (`expect`), by transaction, then business, country and words. */
  private readonly expected = new WeakMap<Queryable, Map<string, OwnPlace[]>>();

  constructor(private readonly places: () => PlaceSource | null) {}

  /**
   * Looks up the own places of many addresses in one statement, kept for this transaction. Only
   * they are: the other places are placed dataset records, which the writes these addresses are
   * asked for (an import's rows) add to as they go, so those are asked for each one when it comes.
   */
  async expect(db: Queryable, queries: GeocodeQuery[]): Promise<void> {
    // On the pool, nothing says when what was looked up would be stale.
    if (!db.isTransaction) return;
    const kept = this.expected.get(db) ?? new Map<string, OwnPlace[]>();
    this.expected.set(db, kept);
    const byBusiness = new Map<number, Map<string, repo.PlaceQuery>>();
    for (const query of queries) {
      const words = wordsOf(query);
      const key = keyOf(query, words);
      if (words.length < 3 || kept.has(key)) continue;
      const asked = byBusiness.get(query.businessId) ?? new Map<string, repo.PlaceQuery>();
      byBusiness.set(query.businessId, asked.set(key, { words, country: query.country ?? null }));
    }
    for (const [businessId, asked] of byBusiness) {
      const keys = [...asked.keys()];
      for (let start = 0; start < keys.length; start += EXPECTED_BATCH) {
        const batch = keys.slice(start, start + EXPECTED_BATCH);
        const found = await repo.placesMatching(
          db,
          businessId,
          batch.map((key) => asked.get(key)!),
          BUSINESS_DATA_CONFIDENCE,
        );
        for (const [index, key] of batch.entries()) kept.set(key, found[index]!);
      }
    }
  }

  async geocode(db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    const text = wordsOf(query);
    if (text.length < 3) return null;
    const own =
      this.expected.get(db)?.get(keyOf(query, text)) ??
      (
        await repo.placesMatching(
          db,
          query.businessId,
          [{ words: text, country: query.country ?? null }],
          BUSINESS_DATA_CONFIDENCE,
        )
      )[0]!;
    const [others = []] =
      (await this.places()?.placesLike(
        db,
        query.businessId,
        [text],
        5,
        BUSINESS_DATA_CONFIDENCE - SCORE_ROUNDING,
      )) ?? [];
    const candidates = [
      ...own,
      // A record's address is one text: it must hold the words about as well as a street line does.
      ...others.map((place) => ({ ...place, confidence: place.score })),
    ];
    const best = candidates
      .filter((place) => place.confidence >= BUSINESS_DATA_CONFIDENCE)
      .filter((place) => sameNumbers(text, place.address_text))
      .sort((a, b) => b.confidence - a.confidence)[0];
    if (!best) return null;
    return {
      lat: best.lat,
      lng: best.lng,
      label: best.label,
      provider: 'business_data',
      confidence: Math.round(best.confidence * 100) / 100,
    };
  }
}

/** A place of the business's own book or points of interest, with how sure it is (repo.placesMatching). */
type OwnPlace = Awaited<ReturnType<typeof repo.placesMatching>>[number][number];

/** The words of an address as they are matched. */
function wordsOf(query: GeocodeQuery): string {
  return query.text.trim().toLowerCase();
}

function keyOf(query: GeocodeQuery, words: string): string {
  return JSON.stringify([query.businessId, query.country ?? null, words]);
}

/** Every number written in the words (a house number, a postal code) stands in the place's address too. */
function sameNumbers(words: string, address: string): boolean {
  const held = new Set(address.toLowerCase().match(/\d+/g) ?? []);
  return (words.match(/\d+/g) ?? []).every((number) => held.has(number));
}

export interface UrlGeocoderSettings extends OutboundRules {
  /** A Nominatim-compatible search endpoint, e.g. https://nominatim.openstreetmap.org/search */
  url: string;
  /** Sent as User-Agent: public Nominatim asks every application to name itself. */
  userAgent: string;
  /** At least this long between two calls of this instance (public Nominatim allows one a second). */
  minIntervalMs: number;
}

/** A public geocoder could not answer now (refused address, timeout, error status, unreadable body). */
export class GeocoderUnavailable extends Error {
  override name = 'GeocoderUnavailable';
}

/** Calls one instance lets wait for the public geocoder before it answers "not now". */
const MAX_WAITING = 20;

/** Nominatim's place_rank of a house or building; lower ranks are streets, districts, towns. */
const HOUSE_RANK = 30;

/**
 * A public geocoder reached by URL, speaking Nominatim's search API (OpenStreetMap's Nominatim, a
 * self-hosted one, or a compatible service): `GET {url}?q=...&format=jsonv2&limit=1`. Calls go
 * through the guarded outbound client (no private addresses unless the operator allows them), one
 * at a time and spaced by `minIntervalMs`, and answers are kept for a day, so the service stays a
 * polite client of a shared public server.
 */
export class UrlGeocoder implements Geocoder {
  private readonly answers = new LRUCache<string, { found: GeocodeResult | null }>({
    max: 5_000,
    ttl: 24 * 3_600_000,
  });
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private lastCallAt = 0;

  constructor(private readonly settings: UrlGeocoderSettings) {}

  async geocode(_db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    const key = `${query.country ?? ''}|${query.text.trim().toLowerCase()}`;
    const known = this.answers.get(key);
    if (known) return known.found;
    const found = await this.spaced(() => this.ask(query));
    this.answers.set(key, { found });
    return found;
  }

  /** Runs calls one after another, at least `minIntervalMs` apart; a long queue answers "not now" at once. */
  private spaced<T>(call: () => Promise<T>): Promise<T> {
    if (this.waiting >= MAX_WAITING) {
      return Promise.reject(new GeocoderUnavailable('The geocoder is busy: too many addresses wait'));
    }
    this.waiting += 1;
    const run = this.queue.then(async () => {
      this.waiting -= 1;
      const wait = this.lastCallAt + this.settings.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await call();
      } finally {
        this.lastCallAt = Date.now();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ask(query: GeocodeQuery): Promise<GeocodeResult | null> {
    const url = new URL(this.settings.url);
    url.searchParams.set('q', query.text.trim());
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', '1');
    if (query.country) url.searchParams.set('countrycodes', query.country.toLowerCase());
    let body: string;
    try {
      const answer = await safeDelivery(url.toString(), {
        headers: { accept: 'application/json', 'user-agent': this.settings.userAgent },
        timeoutMs: this.settings.timeoutMs,
        maxResponseBytes: 64 * 1024,
        allow: this.settings.allow,
      });
      if (answer.status !== 200 || answer.truncated) {
        throw new GeocoderUnavailable(`The geocoder answered ${answer.status}`);
      }
      body = answer.bodyExcerpt;
    } catch (error) {
      if (error instanceof GeocoderUnavailable) throw error;
      throw new GeocoderUnavailable((error as Error).message, { cause: error });
    }
    let places: unknown;
    try {
      places = JSON.parse(body);
    } catch {
      throw new GeocoderUnavailable('The geocoder answered something other than JSON');
    }
    if (!Array.isArray(places)) throw new GeocoderUnavailable('The geocoder did not answer a list of places');
    const place = places[0] as
      | { lat?: unknown; lon?: unknown; display_name?: unknown; place_rank?: unknown }
      | undefined;
    if (!place) return null;
    const lat = Number(place.lat);
    const lng = Number(place.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      throw new GeocoderUnavailable('The geocoder answered a place without valid coordinates');
    }
    // How precise the place is stands for how sure we are: a house is sure, a town is not.
    const rank = typeof place.place_rank === 'number' ? place.place_rank : HOUSE_RANK / 2;
    return {
      lat,
      lng,
      label: typeof place.display_name === 'string' ? place.display_name : query.text,
      provider: 'url',
      confidence: Math.round(Math.min(1, Math.max(0, rank / HOUSE_RANK)) * 100) / 100,
    };
  }
}

/** The business's own data first, then the public geocoder: the first that knows the place answers. */
export class GeocoderChain implements Geocoder {
  constructor(private readonly geocoders: Geocoder[]) {}

  async geocode(db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    for (const geocoder of this.geocoders) {
      const found = await geocoder.geocode(db, query);
      if (found) return found;
    }
    return null;
  }
}
