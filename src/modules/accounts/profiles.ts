/** Scopes that tokens can grant, by the resource they guard. */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'labels:read',
  'labels:write',
  'routes:read',
  'routes:write',
  'routes:drive',
  'drivers:read',
  'drivers:write',
  'analytics:read',
  'address:read',
  'address:write',
  'approvals:read',
  'approvals:write',
  'wms:read',
  'wms:write',
  'datasets:read',
  'datasets:write',
  'maps:read',
  'maps:write',
  'fleets:read',
  'fleets:write',
  'alliance:read',
  'alliance:write',
  'webhooks:read',
  'webhooks:write',
  'platform:read',
  'platform:write',
  'agent:use',
  'packing:read',
  'packing:write',
  'lockers:read',
  'lockers:write',
  'reservations:read',
  'reservations:write',
  'sms:read',
  'sms:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Named scope bundles of the interface; `full` grants everything. */
export const PROFILES: Record<string, readonly Scope[] | 'all'> = {
  'ops-readonly': [
    'orders:read',
    'labels:read',
    'routes:read',
    'drivers:read',
    'analytics:read',
    'address:read',
    'approvals:read',
    'packing:read',
    'lockers:read',
    'reservations:read',
  ],
  support: ['orders:read', 'analytics:read', 'address:read', 'approvals:read'],
  'ops-write': [
    'orders:read',
    'orders:write',
    'labels:read',
    'labels:write',
    'routes:read',
    'routes:write',
    'drivers:read',
    'analytics:read',
    'address:read',
    'approvals:read',
    'approvals:write',
    'packing:read',
    'packing:write',
    'lockers:read',
    'lockers:write',
    'reservations:read',
    'reservations:write',
  ],
  'wms-readonly': ['wms:read', 'orders:read', 'packing:read'],
  'datasets-readonly': ['datasets:read'],
  'alliance-readonly': ['alliance:read'],
  /** A driver's app: their own routes and working them; their fleets' boards and calendars (captains manage theirs). */
  driver: ['routes:read', 'routes:drive', 'fleets:read', 'fleets:write'],
  full: 'all',
};

/** Agent tokens created without a profile get the read-only operations profile. */
export const DEFAULT_AGENT_PROFILE = 'ops-readonly';

export function isProfile(name: string): boolean {
  return Object.hasOwn(PROFILES, name);
}
