/**
 * The OTEP codebook for the `parcel` profile: every status code with its phase, whether it ends
 * a journey, whether it carries a proof of delivery or pickup, and its counterparts in GS1 EPCIS
 * (CBV bizStep and disposition), IATA (status code) and UN/CEFACT (Recommendation 24). The
 * validator, the projections, the JSON Schema and the published codebook all read this table.
 */

export const OTEP_VERSION = '0.1';
export const PROFILES = ['parcel'] as const;
export type Profile = (typeof PROFILES)[number];
/** The profile of a timeline that names none. */
export const DEFAULT_PROFILE: Profile = 'parcel';

export const PHASES = [
  'pre_shipment',
  'pickup',
  'inbound',
  'transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'return',
] as const;
export type Phase = (typeof PHASES)[number];

export const SOURCE_TYPES = [
  'self_delivery',
  'third_party_delivery',
  'carrier',
  'provider_push',
  'synthesized',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
/** The source of an event that names none: whoever pushed it (on ingest the provider gives its name). */
export const DEFAULT_SOURCE_TYPE: SourceType = 'provider_push';

export const INCIDENT_REASONS = [
  'recipient_absent',
  'address_not_found',
  'refused',
  'damaged',
  'weather',
  'customs',
  'vehicle_issue',
  'access_restricted',
  'other',
] as const;
export type IncidentReason = (typeof INCIDENT_REASONS)[number];

export interface CodeEntry {
  code: string;
  phase: Phase;
  terminal: boolean;
  /** Carries a proof of delivery or pickup. */
  pod: boolean;
  /** GS1 CBV business step, its bare word (the epcis format writes its CBV 2.0 URI). */
  bizStep: string;
  /** GS1 CBV disposition; `received` is not a CBV word and is emitted in our own namespace. */
  disposition: string;
  iata: string;
  /** UN/CEFACT Recommendation 24 transport status code. */
  rec24: number;
  /** One line for people: the codebook page and the tracking page's fallback. */
  description: string;
}

const row = (
  code: string,
  phase: Phase,
  flags: { terminal?: boolean; pod?: boolean },
  bizStep: string,
  disposition: string,
  iata: string,
  rec24: number,
  description: string,
): CodeEntry => ({
  code,
  phase,
  terminal: flags.terminal ?? false,
  pod: flags.pod ?? false,
  bizStep,
  disposition,
  iata,
  rec24,
  description,
});

export const CODEBOOK: readonly CodeEntry[] = [
  row(
    'information_submitted',
    'pre_shipment',
    {},
    'commissioning',
    'active',
    'BKD',
    68,
    'Shipment information received',
  ),
  row('booking_confirmed', 'pre_shipment', {}, 'commissioning', 'active', 'BKD', 6, 'Booking confirmed'),
  row(
    'awaiting_pickup',
    'pre_shipment',
    {},
    'staging_outbound',
    'in_progress',
    'FOH',
    64,
    'Ready, waiting to be picked up',
  ),
  row('out_for_pickup', 'pickup', {}, 'departing', 'in_progress', 'FOH', 64, 'Driver on the way to pick up'),
  row('picked_up', 'pickup', { pod: true }, 'receiving', 'in_progress', 'RCS', 13, 'Picked up'),
  row('pickup_failed', 'exception', {}, 'receiving', 'in_progress', 'DIS', 53, 'Pickup attempt failed'),
  row(
    'pickup_rescheduled',
    'exception',
    {},
    'staging_outbound',
    'in_progress',
    'FOH',
    76,
    'Pickup rescheduled',
  ),
  row('received', 'inbound', {}, 'receiving', 'in_progress', 'RCF', 74, 'Received at a facility'),
  row('arrival_scan', 'inbound', {}, 'arriving', 'in_transit', 'ARR', 1, 'Arrived at a facility'),
  row('in_transit', 'transit', {}, 'departing', 'in_transit', 'DEP', 31, 'In transit'),
  row('package_outbound', 'transit', {}, 'staging_outbound', 'in_transit', 'DEP', 27, 'Left the facility'),
  row(
    'removed_from_route',
    'exception',
    {},
    'holding',
    'in_progress',
    'DIS',
    76,
    'Taken off the delivery route',
  ),
  row('route_cancelled', 'exception', {}, 'holding', 'in_progress', 'DIS', 76, 'Delivery route cancelled'),
  row('out_for_delivery', 'out_for_delivery', {}, 'departing', 'in_transit', 'NFD', 113, 'Out for delivery'),
  row(
    'delivered',
    'delivered',
    { terminal: true, pod: true },
    'receiving',
    'received',
    'DLV',
    21,
    'Delivered',
  ),
  row('delivery_failed', 'exception', {}, 'holding', 'in_progress', 'AWD', 23, 'Delivery attempt failed'),
  row('delivery_rescheduled', 'exception', {}, 'holding', 'in_progress', 'AWD', 105, 'Delivery rescheduled'),
  row('returned', 'return', { terminal: true }, 'shipping', 'returned', 'RTS', 82, 'Returned to the sender'),
  row(
    'rejected',
    'return',
    { terminal: true },
    'receiving',
    'returned',
    'DIS',
    106,
    'Refused by the recipient',
  ),
  row('cancelled', 'exception', { terminal: true }, 'void_shipping', 'inactive', 'DIS', 7, 'Cancelled'),
];

export const STATUS_CODES = CODEBOOK.map((entry) => entry.code);
const BY_CODE = new Map(CODEBOOK.map((entry) => [entry.code, entry]));

/**
 * Longer names of the terminal return codes, from before the codebook took the interface's names
 * (`returned`, `rejected`): still accepted on input, and written back in the canonical form.
 */
export const CODE_ALIASES: Readonly<Record<string, string>> = {
  return_to_sender: 'returned',
  rejected_by_recipient: 'rejected',
};
// A Map, so that codes named like Object's own members (`constructor`) are no aliases.
const ALIAS_TARGETS = new Map(Object.entries(CODE_ALIASES));

/**
 * The canonical short code: `otep:parcel:return_to_sender` → `returned`. Addressed forms lose
 * their prefix, aliases become the code they name; experimental and unknown codes stay as sent.
 */
export function canonicalCode(code: string): string {
  const short = shortCode(code);
  return ALIAS_TARGETS.get(short) ?? short;
}

/** The codebook entry of a short code or alias; undefined for unknown and experimental (`x-`) codes. */
export function codeEntry(code: string): CodeEntry | undefined {
  return BY_CODE.get(ALIAS_TARGETS.get(code) ?? code);
}

/** Whether a code ends a journey: `delivered`, `returned`, `rejected`, `cancelled`, short, addressed or an alias. */
export function isTerminal(code: string): boolean {
  return codeEntry(canonicalCode(code))?.terminal === true;
}

/** Every form a terminal code may be stored in: the codes, and the aliases rows from before them hold. */
export const TERMINAL_STORED_CODES: readonly string[] = [
  ...CODEBOOK.filter((entry) => entry.terminal).map((entry) => entry.code),
  ...Object.keys(CODE_ALIASES).filter(isTerminal),
];

export function isExperimental(code: string): boolean {
  return /^x-[a-z0-9_-]+$/.test(code);
}

/** `otep:parcel:delivered` → `delivered` (any known profile); short, experimental and unknown codes stay. */
export function shortCode(code: string): string {
  const profile = PROFILES.find((name) => code.startsWith(`otep:${name}:`));
  return profile ? code.slice(`otep:${profile}:`.length) : code;
}

/** `otep:phase:transit` → `transit`. */
export function shortPhase(phase: string): string {
  return phase.startsWith('otep:phase:') ? phase.slice('otep:phase:'.length) : phase;
}

export function statusUri(code: string, profile: Profile = 'parcel'): string {
  return `otep:${profile}:${code}`;
}
