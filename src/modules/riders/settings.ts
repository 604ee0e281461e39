// How a business offers its instant orders, and the rules every business shares.

export interface RiderSettings {
  /** Riders offered an order at once (a wave). */
  wave_size: number;
  /** Seconds each offer stays open. */
  offer_seconds: number;
}

export const DEFAULT_RIDER_SETTINGS: RiderSettings = { wave_size: 1, offer_seconds: 30 };

/** A rider's position is fresh enough to be offered an order when it arrived this recently. */
export const FRESH_POSITION_MS = 2 * 60_000;
