import type { Generated } from 'kysely';

export const DISPATCH_STATES = ['offering', 'accepted', 'exhausted', 'withdrawn'] as const;
export type DispatchState = (typeof DISPATCH_STATES)[number];
export const OFFER_STATES = ['open', 'accepted', 'declined', 'expired', 'taken', 'withdrawn'] as const;
export type OfferState = (typeof OFFER_STATES)[number];
/** Why an offer went to its rider: nearest and free, or nearest on a route under way (when the business allows it). */
export const OFFER_REASONS = ['nearest_free', 'nearest_on_route'] as const;
export type OfferReasonCode = (typeof OFFER_REASONS)[number];

/** What an offer keeps of why it was made to its rider. */
export interface OfferReason {
  code: OfferReasonCode;
  /** Its place in the wave's ranking, nearest first. */
  rank: number;
  distance_meters: number;
  /** Online and free since (ties in distance go to whoever has waited longest); null when unknown. */
  waiting_since: string | null;
  /** The route under way it is driving (nearest_on_route), with the stops it still has to do. */
  route: { id: number; stops_left: number } | null;
}

export interface RidersTables {
  /** A driver granted instant delivery (the row is the grant), its online state and last known position. */
  riders: {
    driver_user_id: number;
    business_id: number;
    granted_at: Date;
    online: Generated<boolean>;
    online_since: Date | null;
    /** When it last became free to take an order: ties in distance go to whoever waited longest. */
    idle_since: Date | null;
    lat: number | null;
    lng: number | null;
    accuracy_meters: number | null;
    /** The phone's time of the last kept ping. */
    position_at: Date | null;
    /** The server's time it arrived: how fresh the position is. */
    position_received_at: Date | null;
    /** The instant order it accepted and has not finished. */
    busy_order_id: number | null;
  };
  /** How a business offers its instant orders (defaults in DEFAULT_RIDER_SETTINGS until it saves its own). */
  rider_settings: {
    business_id: number;
    wave_size: number;
    offer_seconds: number;
    /** Riders driving a route under way may be offered orders too. */
    offer_riders_on_route: boolean;
    updated_at: Date;
  };
  /** An instant order's dispatch: where riders are ranked from, which wave is out, who took it. */
  instant_dispatches: {
    order_id: number;
    business_id: number;
    state: DispatchState;
    origin_lat: number | null;
    origin_lng: number | null;
    wave: Generated<number>;
    rider_user_id: number | null;
    route_id: number | null;
    created_at: Date;
    updated_at: Date;
  };
  /** One offer of an instant order to one rider. */
  instant_offers: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    driver_user_id: number;
    wave: number;
    state: Generated<OfferState>;
    distance_meters: number;
    offered_at: Date;
    expires_at: Date;
    answered_at: Date | null;
    /** Why it went to this rider; null for offers made before reasons were kept. */
    reason: OfferReason | null;
  };
}
