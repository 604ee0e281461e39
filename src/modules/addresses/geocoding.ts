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
  searchPlaces(db: Queryable, businessId: number, q: string, limit: number): Promise<PlaceMatch[]>;
}

/**
 * The default geocoder: the business's own data. An address is placed where the business already
 * placed it, in its own address book, its points of interest or a placed dataset record, when the
 * text holds that place's street line and every number of the text (house number, postal code)
 * is the place's too. Anything less is unknown: no nearby street, no city centre stands in.
 */
export class BusinessDataGeocoder implements Geocoder {
  constructor(private readonly places: () => PlaceSource | null) {}

  async geocode(db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    const text = query.text.trim().toLowerCase();
    if (text.length < 3) return null;
    const own = await repo.placesMatching(db, query.businessId, text, query.country ?? null);
    const others = (await this.places()?.searchPlaces(db, query.businessId, text, 5)) ?? [];
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
