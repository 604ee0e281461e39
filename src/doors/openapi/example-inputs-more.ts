import { type Demo, EXAMPLE_MOMENT, TODAY, TOMORROW } from './example-demo.ts';
import type { ExampleCall } from './example-requests.ts';
import { afterShipSignature } from './example-setup.ts';

/** A one-pixel PNG: a photo as small as a photo gets. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What both halves of the table share. */
export interface Shared {
  AT: string;
  DROPOFF: Record<string, unknown>;
  PICKUP: Record<string, unknown>;
  PACKAGES: Array<Record<string, unknown>>;
  ZONE: Record<string, unknown>;
}

/** The second half of the example table (example-inputs.ts): shipping to the end of the catalog. */
export function moreExampleCalls(
  d: Demo,
  { AT, DROPOFF, PICKUP, PACKAGES, ZONE }: Shared,
): Record<string, ExampleCall> {
  const { id, text } = d;
  const record = JSON.parse(text.dataset_record_data || '{}') as Record<string, unknown>;
  const device = { client_id: 'c0ffee00-0000-4000-8000-000000000001', device_time: AT };
  return {
    verify_document: { input: { sha256: text.document_sha256 } },
    get_document_public_key: {},
    upload_proof: {
      as: 'driver2',
      input: { order_id: id.board_order, kind: 'photo' },
      raw: { type: 'image/png', body: PIXEL },
    },
    get_shipping_methods: {},
    get_shipping_rate: {
      input: { pickup: PICKUP, dropoff: DROPOFF, packages: PACKAGES, carrier: text.carrier },
    },
    compare_all_carriers: { input: { pickup: PICKUP, dropoff: DROPOFF, packages: PACKAGES } },
    create_shipping_label: {
      input: {
        pickup: PICKUP,
        dropoff: DROPOFF,
        packages: PACKAGES,
        carrier: text.carrier,
        service: text.carrier_service,
      },
    },
    quote_and_ship: { input: { pickup: PICKUP, dropoff: DROPOFF, packages: PACKAGES } },
    get_shipping_label: { input: { tracking_number: text.label_tracking_number } },
    get_shipping_carriers: {},
    save_shipping_carrier: {
      input: {
        code: 'city-post',
        name: 'City Post',
        // The rate card of the demo's first carrier, under another code.
        rate_card: JSON.parse(text.carrier_rate_card || '{}'),
      },
    },
    parse_label: {
      input: { image_base64: Buffer.from(PIXEL).toString('base64'), content_type: 'image/png' },
    },
    create_order_from_label: { input: { order: { dropoff: DROPOFF, packages: PACKAGES } } },
    get_label_reading_settings: {},
    set_label_reading_settings: { input: { keep_label_images_days: 30 } },
    get_webhook_settings: {},
    update_webhook_settings: {
      input: { urls: { 'order.created': 'https://hooks.example.com/tms' }, generate_secret: true },
    },
    get_webhook_delivery_logs: {},
    replay_webhook_delivery: {},
    test_webhook_delivery: { input: { url: 'https://hooks.example.com/tms' } },
    verify_webhook_signature: {
      input: {
        payload: '{"type":"order.created"}',
        headers: {},
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    },
    get_app_bootstrap: {},
    save_identity_provider: { input: { code: 'google', name: 'Google', preset: 'google' } },
    get_identity_providers: {},
    save_app: {
      input: {
        code: 'crew',
        name: 'Crew',
        type: 'driver',
        schema_version: 1,
        allowed_roles: ['client_admin'],
      },
    },
    get_apps: {},
    save_app_assignment: { input: { config: {} } },
    get_app_assignment: {},
    get_app_assignments: {},
    propose_write: {
      input: {
        tool: 'hold_order',
        arguments: { order_id: id.order, reason: 'Address to check' },
        reason: 'The address looks wrong',
      },
    },
    list_pending_approvals: {},
    // Another person than the proposer approves.
    approve_pending_write: { as: 'employee' },
    reject_pending_write: { input: { reason: 'Not now' } },
    get_api_endpoints: {},
    get_graphql_operations: {},
    run_graphql_query: { input: { query: '{ me { user { id email } } }' } },
    check_skill_update: { input: { current_hash: '0123456789abcdef0123456789abcdef' } },
    get_integration_guide: {},
    get_otep_guide: {},
    get_webhooks_guide: {},
    list_points_of_interest: {},
    create_point_of_interest: {
      input: { name: 'Hub Nord', category: 'hub', line1: '1 Rue de la Chapelle', lat: 48.8973, lng: 2.3597 },
    },
    update_point_of_interest: { input: { name: 'Hub Nord (gate B)' } },
    delete_point_of_interest: {},
    search_address: { input: { q: 'Rivoli' } },
    geocode_address: { input: { address: '8 Rue de Rivoli, 75004 Paris' } },
    list_saved_addresses: {},
    create_saved_address: {
      input: {
        label: 'Office',
        line1: '8 Rue de Rivoli',
        city: 'Paris',
        postal_code: '75004',
        country: 'FR',
      },
    },
    update_saved_address: { input: { label: 'Head office' } },
    delete_saved_address: {},
    import_saved_addresses: {
      input: { csv: 'label,line1,city,postal_code,country\nShop,3 Rue du Bac,Paris,75007,FR\n' },
    },
    list_alliances: {},
    get_alliance: {},
    list_alliance_members: {},
    list_accessible_clients: {},
    create_alliance: { input: { name: 'Lyon Delivery Network' } },
    rename_alliance: { input: { name: 'Greater Paris Delivery Network' } },
    invite_to_alliance: { input: { alliance_id: id.alliance_open, business_code: 'demo-partner' } },
    accept_alliance_invitation: { as: 'partner_admin', input: { alliance_id: id.alliance_invited } },
    decline_alliance_invitation: { as: 'partner_admin', input: { alliance_id: id.alliance_invited } },
    leave_alliance: { as: 'partner_admin' },
    remove_alliance_member: { input: { business_code: 'demo-partner' } },
    dissolve_alliance: {},
    set_alliance_grants: { input: { track_packages: true } },
    rebuild_analytics: {},
    get_orders_summary: { input: { from: '2026-10-19', to: '2026-11-01' } },
    daily_digest: {},
    list_dataset_groups: {},
    create_dataset_group: { input: { name: 'Suppliers' } },
    update_dataset_group: { input: { name: 'Key customers' } },
    delete_dataset_group: { input: { ungroup_datasets: true } },
    list_datasets: {},
    get_dataset: {},
    create_dataset: { input: { name: 'Docks', fields: [{ name: 'name', type: 'text' }] } },
    update_dataset: { input: { name: 'Customer sites (Paris)' } },
    delete_dataset: {},
    search_dataset_records: { input: { q: 'Paris' } },
    get_dataset_record: {},
    create_dataset_record: { input: { values: { ...record, name: 'Marché Bastille' } } },
    update_dataset_record: { input: { values: { ...record, status: record.status } } },
    delete_dataset_record: {},
    import_dataset_records_csv: { input: { csv: 'name\nMarché Bastille\n' } },
    import_dataset_records: { input: { records: [{ name: 'Marché Bastille' }] } },
    get_warehouses: {},
    get_inventory: {},
    create_warehouse: {
      input: {
        code: 'PAR-NORD',
        name: 'Paris Nord warehouse',
        line1: '1 Rue de la Chapelle',
        time_zone: 'Europe/Paris',
      },
    },
    update_warehouse: { input: { name: 'Paris Bercy hub' } },
    create_warehouse_location: { input: { code: 'B', kind: 'zone', capacity: 200 } },
    update_warehouse_location: { input: { capacity: 50 } },
    set_warehouse_staff: { input: { user_ids: [id.employee, id.driver] } },
    receive_packages: { input: { tracking_numbers: [text.unreceived_tracking_number] } },
    receive_stock: {
      input: { customer_id: id.customer, sku: 'TSHIRT-M', quantity: 10, scan_id: 'scan-0001' },
    },
    putaway: { input: { tracking_number: text.received_tracking_number, location_id: id.warehouse_bin } },
    sort_package: { input: { tracking_number: text.received_tracking_number } },
    get_route_sorting: {},
    load_package: { input: { route_id: id.received_route, tracking_number: text.received_tracking_number } },
    get_route_outbound: { input: { route_id: id.received_route } },
    dispatch_route: { input: { route_id: id.received_route } },
    transfer_packages: {
      input: {
        from_warehouse_id: id.warehouse,
        to_warehouse_id: id.warehouse_lyon,
        tracking_numbers: [text.received_tracking_number],
      },
    },
    rollback_warehouse_transfer: {},
    list_maps: {},
    get_map: {},
    create_map: { input: { name: 'Depots and hubs' } },
    update_map: { input: { name: 'Today in Paris' } },
    delete_map: {},
    set_map_layers: {
      input: { layers: [{ key: 'poi', name: 'Points of interest', kind: 'points_of_interest' }] },
    },
    export_map_geojson: {},
    publish_map: {},
    revoke_map_link: {},
    get_public_map: { input: { link_id: d.credentials.publicMap.link } },
    list_service_zones: {},
    upload_service_zone: { input: { name: 'Paris centre', geometry: ZONE } },
    replace_service_zone: { input: { name: 'Paris centre', geometry: ZONE } },
    delete_service_zone: {},
    create_fleet: { input: { name: 'Paris Ouest' } },
    get_fleets: {},
    get_fleet: {},
    rename_fleet: { input: { name: 'Paris Est crew' } },
    delete_fleet: {},
    set_fleet_member: { input: { driver_id: id.driver2, role: 'driver' } },
    remove_fleet_member: { input: { driver_id: id.driver2 } },
    create_shift_pattern: {
      input: {
        weekdays: [6],
        start: '09:00',
        end: '14:00',
        vehicle_kind: 'bike',
        slots: 2,
        valid_from: TOMORROW,
      },
    },
    get_shift_patterns: {},
    update_shift_pattern: { input: { slots: 4 } },
    delete_shift_pattern: {},
    get_fleet_shifts: { input: { from: TODAY, to: TOMORROW } },
    create_fleet_shift: {
      input: { date: TOMORROW, start: '18:00', end: '22:00', vehicle_kind: 'bike', slots: 2 },
    },
    update_fleet_shift: { input: { slots: 4 } },
    cancel_fleet_shift: {},
    sign_up_for_shift: { input: { driver_id: id.driver2 } },
    withdraw_shift_signup: { input: { driver_id: id.driver2 } },
    set_shift_signup_state: { input: { driver_id: id.driver2, state: 'checked_in' } },
    get_my_shifts: { input: { from: TODAY, to: TOMORROW } },
    publish_board_route: { input: { route_id: id.route, pay: { amount_minor: 4000, currency: 'EUR' } } },
    get_route_board: { input: { date: TODAY } },
    get_fleet_board_route: { input: { route_id: id.board_route } },
    pull_back_board_route: { input: { route_id: id.board_route } },
    reassign_board_route: { input: { route_id: id.board_route, driver_id: id.driver3 } },
    clear_board_standby: { input: { route_id: id.board_route } },
    get_route_board_settings: {},
    update_route_board_settings: { input: { withdrawal_cutoff_minutes: 60 } },
    get_my_board_routes: {},
    get_board_route: { input: { route_id: id.board_route } },
    claim_board_route: { as: 'driver3', input: { route_id: id.open_board_route } },
    join_board_standby: { as: 'driver3', input: { route_id: id.board_route } },
    leave_board_standby: { input: { route_id: id.board_route } },
    set_order_chat_settings: { input: { customer_chat: true } },
    list_order_chats: {},
    get_order_chat: { input: { order_id: id.chat_order } },
    post_order_chat_message: { input: { order_id: id.chat_order, text: 'On my way.' } },
    mark_order_chat_read: { input: { order_id: id.chat_order } },
    close_order_chat: { input: { order_id: id.chat_order } },
    reopen_order_chat: { input: { order_id: id.chat_order } },
    set_order_customer_chat: { input: { order_id: id.chat_order, customer_chat: false } },
    get_my_routes: {},
    start_route: { input: device },
    arrive_at_stop: {
      as: 'driver2',
      input: { ...device, route_id: id.board_route, order_id: id.board_order },
    },
    complete_stop: {
      as: 'driver2',
      input: { ...device, route_id: id.board_route, order_id: id.board_order, outcome: 'delivered' },
    },
    report_positions: {
      input: { client_id: device.client_id, positions: [{ lat: 48.85, lng: 2.35, device_time: AT }] },
    },
    finish_route: { as: 'driver2', input: { ...device, route_id: id.board_route } },
    set_rider_grant: { input: { driver_id: id.driver2, granted: true } },
    get_riders: {},
    set_rider_settings: { input: {} },
    get_instant_dispatch: { input: { order_id: id.instant_order } },
    go_online: {},
    go_offline: {},
    send_rider_pings: { input: { pings: [{ lat: 48.85, lng: 2.35, at: AT }] } },
    get_my_offers: {},
    accept_offer: {},
    decline_offer: {},
    set_agent_settings: { input: { instructions: 'Call orders by their reference.' } },
    create_agent_conversation: {},
    list_agent_conversations: {},
    get_agent_conversation: {},
    get_agent_usage: {},
    set_agent_daily_cap: { input: { daily_turns: 200 } },
    create_packaging: {
      input: {
        name: 'Small box',
        inner: { length_mm: 300, width_mm: 200, height_mm: 150 },
        outer: { length_mm: 310, width_mm: 210, height_mm: 160 },
        tare_grams: 150,
        max_gross_grams: 10000,
        cost: 0.8,
        currency: 'EUR',
      },
    },
    list_packaging: {},
    replace_packaging: {
      input: {
        name: 'Small box',
        inner: { length_mm: 300, width_mm: 200, height_mm: 150 },
        outer: { length_mm: 310, width_mm: 210, height_mm: 160 },
        tare_grams: 150,
        max_gross_grams: 12000,
        cost: 0.8,
        currency: 'EUR',
      },
    },
    delete_packaging: {},
    create_packing_plan: {
      input: { items: [{ length_mm: 200, width_mm: 150, height_mm: 100, weight_grams: 900 }] },
    },
    get_packing_plan: {},
    list_packing_plans: {},
    rerun_packing_plan: {},
    apply_packing_plan: { input: { order_id: id.order } },
    list_loading_spaces: {},
    create_loading_space: { input: { name: 'Small van', length_mm: 2500, width_mm: 1600, height_mm: 1400 } },
    delete_loading_space: {},
    create_load_plan: { input: { space: String(id.loading_space), route_id: id.route } },
    get_load_plan: { input: { plan_id: id.load_plan } },
    list_load_plans: {},
    ...lockerAndLaterCalls(d, { AT, DROPOFF, PICKUP, PACKAGES, ZONE }),
  };
}

function lockerAndLaterCalls(d: Demo, { DROPOFF }: Shared): Record<string, ExampleCall> {
  const { id, text } = d;
  const link = { reference: text.reservation_reference, signature: text.reservation_signature };
  return {
    create_locker_site: {
      input: {
        name: 'Bastille lockers',
        address: { line1: '2 Place de la Bastille', city: 'Paris', postal_code: '75011', country: 'FR' },
      },
    },
    list_locker_sites: {},
    get_locker_site: {},
    reserve_locker_compartment: { input: { site_id: id.locker_site } },
    open_locker_compartment: { input: { reference: text.locker_reference, code: text.locker_drop_code } },
    get_locker_opening: { input: { reference: text.locker_reference } },
    get_locker_booking: { input: { booking_id: id.locker_booking } },
    list_locker_bookings: {},
    cancel_locker_booking: { input: { booking_id: id.locker_booking } },
    reissue_locker_code: { input: { booking_id: id.locker_booking } },
    list_locker_ledger: {},
    register_locker_device: {
      input: {
        site_id: id.locker_site,
        kind: 'locker',
        name: 'Hall 2 bank',
        compartments: [{ number: 1, size_class: 'M', length_mm: 600, width_mm: 400, height_mm: 190 }],
      },
    },
    rotate_locker_device_credential: {},
    send_locker_device_command: { input: { action: 'reboot' } },
    list_locker_device_commands: {},
    set_locker_compartment_state: { input: { compartment_id: id.free_compartment, out_of_order: true } },
    send_from_locker: {
      as: 'customer',
      input: { site_id: id.locker_site, dropoff: DROPOFF, packages: [{ weight_grams: 800 }] },
    },
    offer_locker_quota: {
      input: {
        site_id: id.locker_site,
        tenant_business_id: id.partner,
        size_class: 'S',
        compartments: 2,
        price: 30,
        currency: 'EUR',
        period: 'month',
        starts_on: TOMORROW,
      },
    },
    list_locker_quotas: {},
    withdraw_locker_quota: {},
    create_luggage_relay: { input: { bag_tag: 'BAG-0002', site_ids: [id.locker_site] } },
    get_luggage_relay: {},
    list_locker_storage: {},
    configure_forwarding: { input: { free_storage_days: 10 } },
    get_forwarding_settings: {},
    list_forwarding_suites: {},
    announce_inbound_parcel: {
      as: 'customer',
      input: {
        carrier: 'ups',
        tracking_number: '1Z999AA10123456786',
        items: [
          {
            description: 'Sneakers',
            quantity: 1,
            value: 120,
            currency: 'USD',
            hs_code: '640411',
            origin_country: 'VN',
          },
        ],
      },
    },
    list_inbound_parcels: {},
    get_inbound_parcel: { input: { id: id.inbound_parcel } },
    receive_inbound_parcel: {
      input: {
        tracking_number: '1Z999AA10123456785',
        weight_grams: 1800,
        length_mm: 400,
        width_mm: 300,
        height_mm: 150,
      },
    },
    receive_aftership_tracking_push: afterShipPush(d),
    request_consolidation: { as: 'customer', input: { parcel_ids: [id.second_inbound], dropoff: DROPOFF } },
    get_consolidation: { input: { id: id.consolidation } },
    ship_consolidation: { input: { id: id.consolidation } },
    create_third_party_connection: {
      input: {
        name: 'Food marketplace',
        base_url: 'https://marketplace.example.com/api',
        mapping: { fields: { id: '/ref', accept_by: '/respond_by', 'dropoff.line1': '/destination/street' } },
      },
    },
    list_third_party_connections: {},
    get_third_party_connection: {},
    update_third_party_connection: { input: { name: 'Marketplace (Paris)' } },
    delete_third_party_connection: {},
    pull_third_party_orders: {},
    push_third_party_orders: { input: { token: d.credentials.thirdParty?.push_token, orders: [] } },
    list_third_party_orders: {},
    get_third_party_order: {},
    accept_third_party_order: { input: { provider_order_id: id.pending_third_party_order } },
    reject_third_party_order: {
      input: { provider_order_id: id.pending_third_party_order, reason: 'Outside our zone' },
    },
    create_reservation_resource: {
      input: {
        name: 'Moving crew',
        kind: 'moving_crew',
        rrule: 'FREQ=WEEKLY;BYDAY=SA;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
        starts_on: TOMORROW,
        slot_minutes: 240,
        capacity: 1,
      },
    },
    list_reservation_resources: {},
    update_reservation_resource: { input: { capacity: 3 } },
    list_reservations: {},
    cancel_reservation: { input: { booking_id: id.reservation_booking } },
    mark_reservation_attended: { input: { booking_id: id.reservation_booking } },
    list_open_slots: { input: { from: TOMORROW, to: TOMORROW } },
    book_slot: {
      input: {
        starts_at: '2026-11-03T09:00:00+01:00',
        name: 'Camille Martin',
        contact: 'camille@example.com',
      },
    },
    confirm_reservation: { input: { reference: text.held_reference, code: text.held_code } },
    get_reservation: { input: link },
    cancel_reservation_by_link: { input: link },
    change_reservation: { input: { ...link, starts_at: '2026-11-03T10:00:00+01:00' } },
    ...smsCalls(d),
  };
}

/** A tracking update AfterShip pushes for the demo customer's announced parcel, signed with the business's secret. */
function afterShipPush(d: Demo): ExampleCall {
  const body = JSON.stringify({
    event_id: 'evt-0001',
    ts: EXAMPLE_MOMENT.getTime() / 1000,
    event: 'tracking_update',
    msg: {
      slug: 'usps',
      tracking_number: '9400111899223197428490',
      tag: 'InTransit',
      checkpoints: [
        {
          checkpoint_time: EXAMPLE_MOMENT.toISOString(),
          tag: 'InTransit',
          message: 'Departed USPS facility',
        },
      ],
    },
  });
  return {
    input: {
      business_id: d.id.business,
      signature: afterShipSignature(d.credentials.forwarding.secret, body),
    },
    raw: { type: 'application/json', body },
  };
}

function smsCalls(d: Demo): Record<string, ExampleCall> {
  const { id } = d;
  return {
    set_sms_settings: {
      input: {
        default_region: 'FR',
        sender: 'DEMO',
        help_text: 'Demo Deliveries: reply STOP to stop.',
        consent_text: 'I agree to receive offers by SMS.',
        consent_version: 'v2',
      },
    },
    get_sms_settings: {},
    create_sms_subscriber: { input: { phone: '+33 6 11 22 33 44', source: 'api' } },
    list_sms_subscribers: {},
    get_sms_subscriber: { input: { id: id.sms_subscriber } },
    update_sms_subscriber: { input: { id: id.sms_subscriber, tags: ['vip'] } },
    delete_sms_subscriber: { input: { id: id.sms_subscriber } },
    import_sms_subscribers: { input: { rows: [{ phone: '+33 6 55 66 77 88' }] } },
    subscribe_sms: { input: { phone: '+33 6 99 88 77 66', consent: true } },
    list_sms_campaigns: {},
    get_sms_campaign_report: {},
    create_sms_segment: { input: { name: 'VIP', rules: { tags: { any: ['vip'] } } } },
    update_sms_segment: { input: { name: 'VIP customers' } },
    delete_sms_segment: {},
    list_sms_segments: {},
    preview_sms_segment: {},
    create_sms_campaign: {
      input: { name: 'Weekend offer', body: 'Free delivery this weekend with code WEEKEND.' },
    },
    update_sms_campaign: { input: { campaign_id: id.sms_draft, name: 'Weekend offer (Paris)' } },
    schedule_sms_campaign: { input: { campaign_id: id.sms_draft, at: '2026-11-03T09:00:00Z' } },
    start_sms_campaign: { input: { campaign_id: id.sms_draft } },
    cancel_sms_campaign: { input: { campaign_id: id.sms_draft } },
    get_sms_campaign: {},
    preview_sms_campaign: {},
  };
}
