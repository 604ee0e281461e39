import type { Generated } from 'kysely';

export const DEVICE_KINDS = ['locker', 'kiosk', 'smart_drop'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const SIZE_CLASSES = ['S', 'M', 'L', 'XL'] as const;
export type SizeClass = (typeof SIZE_CLASSES)[number];
export const COMPARTMENT_STATES = ['free', 'reserved', 'occupied', 'out_of_order'] as const;
export type CompartmentState = (typeof COMPARTMENT_STATES)[number];
export const BOOKING_PURPOSES = ['delivery', 'send', 'handover', 'luggage', 'storage'] as const;
export type BookingPurpose = (typeof BOOKING_PURPOSES)[number];
export const BOOKING_STATES = [
  'reserved',
  'occupied',
  'collected',
  'expired',
  'retrieved',
  'cancelled',
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];
export type Opening = 'deposit' | 'pickup' | 'retrieval';
export const ACTOR_KINDS = ['driver', 'customer', 'staff', 'device', 'recipient', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface LockersTables {
  locker_sites: {
    id: Generated<number>;
    business_id: number;
    name: string;
    address: unknown;
    lat: number | null;
    lng: number | null;
    opening_hours: string | null;
    hold_hours: number;
    send_price_minor: number | null;
    currency: string | null;
    created_at: Date;
  };
  locker_devices: {
    id: Generated<number>;
    business_id: number;
    site_id: number;
    kind: DeviceKind;
    name: string;
    credential_hash: string;
    firmware: string | null;
    last_seen_at: Date | null;
    disconnected_at: Date | null;
    created_at: Date;
  };
  locker_compartments: {
    id: Generated<number>;
    business_id: number;
    device_id: number;
    site_id: number;
    number: number;
    size_class: SizeClass;
    length_mm: number;
    width_mm: number;
    height_mm: number;
    state: Generated<CompartmentState>;
    booking_id: number | null;
  };
  locker_bookings: {
    id: Generated<number>;
    business_id: number;
    operator_business_id: number;
    reference: string;
    site_id: number;
    device_id: number;
    compartment_id: number;
    purpose: BookingPurpose;
    order_id: number | null;
    relay_id: number | null;
    hop: number | null;
    state: BookingState;
    opening: Opening | null;
    opening_command_id: string | null;
    drop_code_hash: string | null;
    pickup_code_hash: string | null;
    pickup_expires_at: Date | null;
    failed_attempts: Generated<number>;
    locked_at: Date | null;
    recipient_user_id: number | null;
    recipient_name: string | null;
    paid_until: Date | null;
    created_by: number | null;
    created_at: Date;
    deposited_at: Date | null;
    finished_at: Date | null;
  };
  locker_commands: {
    id: string;
    seq: Generated<number>;
    business_id: number;
    device_id: number;
    compartment_id: number | null;
    booking_id: number | null;
    action: 'open' | 'reboot';
    status: 'pending' | 'acked' | 'failed';
    error: string | null;
    issued_at: Date;
    expires_at: Date;
    answered_at: Date | null;
  };
  locker_quotas: {
    id: Generated<number>;
    business_id: number;
    site_id: number;
    tenant_business_id: number;
    size_class: SizeClass;
    compartments: number;
    price_minor: number;
    currency: string;
    period: 'day' | 'week' | 'month';
    starts_on: string;
    ends_on: string | null;
    created_at: Date;
  };
  luggage_relays: {
    id: Generated<number>;
    business_id: number;
    bag_tag: string;
    owner_name: string | null;
    site_ids: number[];
    created_by: number | null;
    created_at: Date;
  };
  locker_ledger: {
    id: Generated<number>;
    business_id: number;
    tenant_business_id: number | null;
    site_id: number;
    device_id: number | null;
    compartment_id: number | null;
    booking_id: number | null;
    order_id: number | null;
    relay_id: number | null;
    command_id: string | null;
    kind: string;
    actor_kind: ActorKind;
    actor_user_id: number | null;
    code_ref: string | null;
    details: Generated<unknown>;
    at: Date;
  };
}
