/**
 * Where each table of schema public goes when the database is sharded by business on Citus
 * (docs/scaling.md, "Sharding by business"). test/sharding-plan.test.ts holds the migrated schema
 * to it, and the doc's commands to it. A new table is one line here.
 *
 * - distributed: rows of one business, spread over the nodes by business_id and co-located, so
 *   every business-scoped query and every reference between them stays on one shard.
 * - reference: small, platform-wide tables copied to every node, so any shard can join or refer to them.
 * - local: stays on the coordinator only (queues and bookkeeping no shard joins).
 */
export type Placement =
  | { kind: 'distributed' }
  | { kind: 'reference'; why: string }
  | { kind: 'local'; why: string };

const distributed: Placement = { kind: 'distributed' };
const reference = (why: string): Placement => ({ kind: 'reference', why });
const local = (why: string): Placement => ({ kind: 'local', why });

export const PLACEMENTS: Record<string, Placement> = {
  access_tokens: local(
    'bearer tokens are looked up by hash before any business is known, and written at each sign-in',
  ),
  agent_conversations: distributed,
  agent_daily_caps: distributed,
  agent_daily_turns: distributed,
  agent_settings: distributed,
  agent_turns: distributed,
  agent_write_proposals: distributed,
  alliance_members: reference('membership links businesses to each other and is read across them'),
  alliances: reference('an alliance spans businesses'),
  analytics_daily: distributed,
  analytics_exceptions: distributed,
  analytics_reasons: distributed,
  analytics_revenue: distributed,
  analytics_statuses: distributed,
  app_assignments: distributed,
  app_devices: distributed,
  approval_page_sessions: local('page sessions are looked up by cookie hash before any business is known'),
  apps: reference('the platform catalog of apps'),
  broker_order_assignments: distributed,
  business_families: distributed,
  business_modules: distributed,
  businesses: reference(
    'the root every distributed table refers to; one row a business, looked up by code before sign-in',
  ),
  consolidations: distributed,
  contractor_companies: reference('a contractor company works for several businesses'),
  contractor_engagements: distributed,
  contractor_rules: distributed,
  credit_ledger: distributed,
  dataset_groups: distributed,
  dataset_records: distributed,
  datasets: distributed,
  depots: distributed,
  dispatch_board_changes: distributed,
  dispatch_board_versions: distributed,
  dispatch_settings: distributed,
  document_signing_keys: reference("platform keys that sign every business's documents"),
  documents: distributed,
  driver_positions: distributed,
  driver_profiles: distributed,
  driver_registrations: distributed,
  driver_writes: distributed,
  fleet_members: distributed,
  fleet_shift_patterns: distributed,
  fleet_shift_signups: distributed,
  fleet_shifts: distributed,
  fleets: distributed,
  forwarding_pushes: distributed,
  forwarding_settings: distributed,
  forwarding_suites: distributed,
  identity_bindings: reference(
    'an external identity is matched to its user at sign-in, before any business is known',
  ),
  identity_providers: reference("the platform's sign-in providers"),
  inbound_parcels: distributed,
  instant_dispatches: distributed,
  instant_offers: distributed,
  jobs: distributed,
  kysely_migration: local("the migrator's bookkeeping"),
  kysely_migration_lock: local("the migrator's bookkeeping"),
  label_images: distributed,
  label_orders: distributed,
  label_reading_settings: distributed,
  load_plans: distributed,
  loading_settings: distributed,
  loading_spaces: distributed,
  locker_bookings: distributed,
  locker_commands: distributed,
  locker_compartments: distributed,
  locker_devices: distributed,
  locker_ledger: distributed,
  locker_quotas: distributed,
  locker_sites: distributed,
  luggage_relays: distributed,
  maps: distributed,
  operation_audit: local(
    'the audit of every operation, platform ones without a business too (nullable business_id)',
  ),
  order_chat_messages: distributed,
  order_chat_reads: distributed,
  order_chat_settings: distributed,
  order_chats: distributed,
  order_events: distributed,
  order_settings: distributed,
  orders: distributed,
  outbox: local('the side-effect queue the workers drain with leases; platform messages have no business'),
  packages: distributed,
  packaging_types: distributed,
  packing_plans: distributed,
  payments: distributed,
  platform_modules: reference('platform-wide module switches'),
  points_of_interest: distributed,
  price_visibility: distributed,
  proof_files: distributed,
  reservation_bookings: distributed,
  reservation_link_keys: reference('platform keys that sign booking links'),
  reservation_resources: distributed,
  reservation_slots: distributed,
  return_reasons: distributed,
  rider_settings: distributed,
  riders: distributed,
  route_board_entries: distributed,
  route_board_history: distributed,
  route_board_settings: distributed,
  route_board_standby: distributed,
  route_stops: distributed,
  routes: distributed,
  saved_addresses: distributed,
  service_zones: distributed,
  shipping_carriers: distributed,
  shipping_labels: distributed,
  skills: distributed,
  sms_campaign_recipients: distributed,
  sms_campaigns: distributed,
  sms_consent_evidence: distributed,
  sms_early_reports: distributed,
  sms_inbound: distributed,
  sms_link_keys: reference('platform keys that sign SMS links'),
  sms_messages: distributed,
  sms_offer_codes: distributed,
  sms_segments: distributed,
  sms_send_pace: distributed,
  sms_settings: distributed,
  sms_subscribers: distributed,
  third_party_connections: distributed,
  third_party_orders: distributed,
  third_party_status_pushes: distributed,
  tracking_event_keys: distributed,
  tracking_events: distributed,
  tracking_providers: reference(
    "a provider's key is looked up by hash before its business is known; few rows",
  ),
  users: reference(
    'people may belong to no business (platform staff, contractors) and sign in by email before one is known; nearly every table refers to them',
  ),
  vehicles: distributed,
  warehouse_locations: distributed,
  warehouse_movements: distributed,
  warehouse_outbounds: distributed,
  warehouse_packages: distributed,
  warehouse_route_lanes: distributed,
  warehouse_staff: distributed,
  warehouse_stock: distributed,
  warehouse_transfers: distributed,
  warehouses: distributed,
  webhook_delivery_logs: distributed,
  webhook_settings: distributed,
};

/**
 * Unique keys of distributed tables without business_id: the service looks these up without a
 * business (a public number or link), so they stay unique across businesses. Citus cannot keep
 * such an index on a distributed table; at the Citus step each is replaced as said.
 */
export const GLOBAL_UNIQUE_KEYS: Record<string, string> = {
  packages_tracking_number_key:
    'public tracking by number: the index becomes non-unique on each shard (the lookup fans out) and the number is claimed in global_keys',
  inbound_parcels_reference_key:
    'a forwarded parcel is tracked publicly under its reference: as packages_tracking_number_key',
  maps_link_hash_key: 'a shared map is opened by its link: as packages_tracking_number_key',
  locker_bookings_reference_key:
    'a pickup is opened at the locker by its reference: as packages_tracking_number_key',
  reservation_bookings_reference_key:
    'a booking is opened from its link by reference: as packages_tracking_number_key',
  locker_bookings_operator_id_key:
    "the operator's side of a booking, referred to by its locker commands: dropped with locker_commands_booking_id_fkey",
};

/**
 * References between distributed tables that cross businesses, on purpose: a tenant's locker
 * booking (business_id) sits at another business's locker (operator_business_id). Citus cannot
 * keep a reference between shards; at the Citus step these are dropped and the service's own
 * checks (lockers/bookings.ts reads the compartment in the booking's transaction) stand alone.
 */
export const CROSS_BUSINESS_REFERENCES: Record<string, string> = {
  locker_bookings_site_id_fkey: "the operator's locker site",
  locker_bookings_device_id_fkey: "the operator's locker device",
  locker_bookings_compartment_id_fkey: "the operator's compartment",
  locker_commands_booking_id_fkey: "the operator's commands for a tenant's booking",
};
