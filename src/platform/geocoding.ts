import type { Queryable } from './db/database.ts';

/** An address as text, to be placed on the map. */
export interface GeocodeQuery {
  /** The business whose own data may answer (its address book, points of interest, datasets). */
  businessId: number;
  /** One line: "8 Quai Perrache, 69002 Lyon". */
  text: string;
  /** ISO 3166-1 alpha-2, when the caller knows it: narrows the answer. */
  country?: string | null;
}

/** Where a geocoder placed an address, and how sure it is. */
export interface GeocodeResult {
  lat: number;
  lng: number;
  /** The place found, as the geocoder names it. */
  label: string;
  /** Who answered: `business_data` (built-in) or `url` (a public geocoder configured by URL). */
  provider: string;
  /** 0 to 1: how well the place found matches the text. */
  confidence: number;
}

/**
 * Places an address on the map. Answers null when it does not know the place: never a guessed
 * point. A geocoder that cannot be reached throws, so a caller can tell "unknown" from "not now".
 * It reads through `db` (the caller's transaction, or the pool for a background worker).
 */
export interface Geocoder {
  geocode(db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null>;
  /**
   * Told the addresses about to be asked in this transaction (the next rows of an import), a
   * geocoder may look them up together now, in one go, and answer each from that when asked.
   * Each answer stays what it would be asked alone.
   */
  expect?(db: Queryable, queries: GeocodeQuery[]): Promise<void>;
}
