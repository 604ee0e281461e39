import type { Generated } from 'kysely';

export const DISPATCH_STATES = ['offering', 'accepted', 'exhausted', 'withdrawn'] as const;
export type DispatchState = (typeof DISPATCH_STATES)[number];
export const OFFER_STATES = ['open', 'accepted', 'declined', 'expired', 'taken', 'withdrawn'] as const;
export type OfferState = (typeof OFFER_STATES)[number];

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
  };
}
