import type { Generated } from 'kysely';

export const RESOURCE_KINDS = ['pickup_counter', 'moving_crew', 'delivery_slot', 'other'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
export const BOOKING_STATES = [
  'held',
  'confirmed',
  'waitlisted',
  'offered',
  'cancelled',
  'attended',
  'lapsed',
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];
/** The states that take one of the slot's places. */
export const TAKING_STATES: readonly BookingState[] = ['held', 'confirmed', 'offered'];
export type ContactKind = 'email' | 'phone';

export interface ReservationsTables {
  reservation_resources: {
    id: Generated<number>;
    business_id: number;
    name: string;
    kind: ResourceKind;
    rrule: string;
    starts_on: string;
    time_zone: string;
    slot_minutes: number;
    capacity: number;
    offer_minutes: number;
    waitlist: boolean;
    published: boolean;
    created_at: Date;
  };
  reservation_slots: {
    id: Generated<number>;
    business_id: number;
    resource_id: number;
    starts_at: Date;
    capacity: number;
    taken: Generated<number>;
  };
  reservation_bookings: {
    id: Generated<number>;
    business_id: number;
    resource_id: number;
    slot_id: number;
    reference: string;
    state: BookingState;
    name: string;
    contact: string;
    contact_kind: ContactKind;
    contact_confirmed: Generated<boolean>;
    code_hash: string | null;
    code_expires_at: Date | null;
    code_attempts: Generated<number>;
    offer_expires_at: Date | null;
    created_at: Date;
    confirmed_at: Date | null;
    ended_at: Date | null;
  };
  reservation_link_keys: { id: number; secret: Buffer };
}
