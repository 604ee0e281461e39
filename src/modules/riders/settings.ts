// How a business offers its instant orders, and the rules every business shares.

export interface RiderSettings {
  /** Riders offered an order at once (a wave). */
  wave_size: number;
  /** Seconds each offer stays open. */
  offer_seconds: number;
  /**
   * Riders driving a route under way (started, with stops left) may be offered orders too. Off
   * by default: such a rider is busy, and taking an order would give it two routes at once.
   */
  offer_riders_on_route: boolean;
}

export const DEFAULT_RIDER_SETTINGS: RiderSettings = {
  wave_size: 1,
  offer_seconds: 30,
  offer_riders_on_route: false,
};

/** A rider's position is fresh enough to be offered an order when it arrived this recently. */
export const FRESH_POSITION_MS = 2 * 60_000;
