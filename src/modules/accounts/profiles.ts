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

/**
 * Named scope bundles: the interface's, scope for scope (an agent given a profile reads no more than
 * the interface says its operator chose), then our own. A family the interface does not name joins
 * no interface profile: its tools reach an agent through its own profile or explicit scopes.
 * `full` grants everything.
 */
export const PROFILES: Record<string, readonly Scope[] | 'all'> = {
  'ops-readonly': [
    'orders:read',
    'labels:read',
    'routes:read',
    'drivers:read',
    'analytics:read',
    'address:read',
    'approvals:read',
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
  ],
  'wms-readonly': ['wms:read', 'orders:read'],
  'datasets-readonly': ['datasets:read'],
  'alliance-readonly': ['alliance:read'],
  // The newer families' read bundles, shaped like the interface's datasets-readonly.
  'packing-readonly': ['packing:read'],
  'lockers-readonly': ['lockers:read'],
  'reservations-readonly': ['reservations:read'],
  /** A driver's app: their own routes and working them; their fleets' boards and calendars (captains manage theirs). */
  driver: ['routes:read', 'routes:drive', 'fleets:read', 'fleets:write'],
  full: 'all',
};

/** Agent tokens created without a profile get the read-only operations profile. */
export const DEFAULT_AGENT_PROFILE = 'ops-readonly';

export function isProfile(name: string): boolean {
  return Object.hasOwn(PROFILES, name);
}
