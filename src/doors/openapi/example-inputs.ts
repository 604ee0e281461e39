import { type Demo, TODAY, TOMORROW } from './example-demo.ts';
import { moreExampleCalls } from './example-inputs-more.ts';
import type { ExampleCall } from './example-requests.ts';
import { AT, DROPOFF, PACKAGES } from './example-values.ts';

/** A path parameter no example names itself: the demo's object of that name. */
export function parameterOf(name: string, d: Demo): unknown {
  const known: Record<string, unknown> = {
    order_id: d.id.order,
    route_id: d.id.route,
    fleet_id: d.id.fleet,
    warehouse_id: d.id.warehouse,
    driver_id: d.id.driver,
    dataset_id: d.id.dataset,
    record_id: d.id.dataset_record,
    group_id: d.id.dataset_group,
    alliance_id: d.id.alliance,
    campaign_id: d.id.sms_campaign,
    map_id: d.id.map,
    customer_id: d.id.customer,
    business_id: d.id.business,
    tracking_number: d.text.tracking_number,
    shift_id: d.id.shift,
    pattern_id: d.id.shift_pattern,
    connection_id: d.id.third_party_connection,
    plan_id: d.id.packing_plan,
    segment_id: d.id.sms_segment,
    resource_id: d.id.reservation_resource,
    provider_order_id: d.id.third_party_order,
    device_id: d.id.locker_device,
    site_id: d.id.locker_site,
    zone_id: d.id.service_zone,
    subscriber_id: d.id.sms_subscriber,
    registration_id: d.id.driver_registration,
    proposal_id: d.id.proposal,
    point_id: d.id.point,
    packaging_id: d.id.packaging,
    offer_id: d.id.offer,
    conversation_id: d.id.conversation,
    address_id: d.id.address,
    transfer_id: d.id.transfer,
    space_id: d.id.loading_space,
    rule_id: d.id.contractor_rule,
    relay_id: d.id.luggage_relay,
    quota_id: d.id.locker_quota,
    proof_id: d.id.proof,
    location_id: d.id.warehouse_bin,
    delivery_id: d.id.webhook_delivery,
    compartment_id: d.id.locker_compartment,
    business: 'demo',
    appCode: 'courier',
    app_code: 'courier',
    clientCode: 'demo',
    client_code: 'demo',
  };
  return known[name];
}

/** A minimal EPCIS 2.0 document: one object event of the parcel, as a provider pushes it. */
function epcisDocument(trackingNumber: string, at: string) {
  return {
    '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld'],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: at,
    epcisBody: {
      eventList: [
        {
          type: 'ObjectEvent',
          eventTime: at,
          eventTimeZoneOffset: '+01:00',
          epcList: [`https://tms.example.com/api/v1/otep/trackings/${trackingNumber}`],
          action: 'OBSERVE',
          bizStep: 'departing',
        },
      ],
    },
  };
}

/**
 * The example call of every operation with a REST binding, by operation name: the input a
 * request sends (ids from the demo), and as whom when not the first kind the operation admits.
 * test/openapi-examples.test.ts fails when an operation has none.
 */
export function exampleCalls(d: Demo): Record<string, ExampleCall> {
  const { id, text } = d;
  return {
    get_capabilities: {},
    get_health: {},
    login: { input: { email: 'employee@demo.test', password: d.credentials.password } },
    logout: {},
    get_me: {},
    set_platform_module: { input: { module: 'contractor_assignment', available: true } },
    set_business_module: { input: { module: 'contractor_assignment', enabled: true } },
    get_feature_families: {},
    set_feature_family: { input: { family: 'order_chat', enabled: true } },
    set_feature_family_revoked: { input: { family: 'sms_marketing', revoked: false } },
    register_driver: {
      input: {
        business_code: 'demo',
        name: 'Noah Novak',
        email: 'noah@demo.test',
        password: 'a-long-password',
      },
    },
    get_driver_registrations: {},
    approve_driver_registration: {},
    reject_driver_registration: { input: { reason: 'No licence on file' } },
    get_broker_order_assignments: {},
    assign_orders_to_broker: { input: { order_ids: [id.order], broker_id: id.contractor } },
    revoke_broker_order_assignments: { input: { order_ids: [id.broker_order] } },
    release_broker_order_assignment: { as: 'contractor', input: { order_id: id.broker_order } },
    create_contractor_rule: {
      input: { contractor_company_id: id.contractor_company, postal_prefixes: ['7501'], valid_from: TODAY },
    },
    get_contractor_rules: {},
    delete_contractor_rule: {},
    create_order: { input: { orders: [{ dropoff: DROPOFF, packages: PACKAGES, scheduled_date: TOMORROW }] } },
    bulk_create_orders: {
      input: {
        orders: [{ order_ref: 'SHOP-1042', dropoff: DROPOFF, packages: PACKAGES, scheduled_date: TOMORROW }],
      },
    },
    get_orders: { input: { scheduled_date: TODAY, per_page: 2 } },
    find_order: { input: { order_ref: text.order_ref } },
    get_order_detail: {},
    cancel_order: {},
    hold_order: {},
    release_order: { input: { order_id: id.held_order } },
    update_order_status: { input: { order_id: id.route_order, status: 'OUT_FOR_DELIVERY' } },
    list_return_reasons: {},
    save_return_reason: {
      input: { code: 'damaged', labels: { en: 'Damaged parcel', fr: 'Colis endommagé' } },
    },
    delete_return_reason: { input: { code: 'damaged' } },
    get_orders_needing_location: {},
    set_order_location: { input: { lat: 48.8566, lng: 2.3522 } },
    reroute_to_address: { input: { dropoff: DROPOFF } },
    update_delivery_instruction: { input: { delivery_instruction: 'Leave with the concierge' } },
    update_order_note: { input: { note: 'Fragile: glassware' } },
    update_time_window_by_refs: {
      input: { order_refs: [text.order_ref], time_window: { start: '14:00', end: '17:00' } },
    },
    order_snapshot: { input: { date: TODAY } },
    list_exceptions: {},
    create_depot: { input: { name: 'Depot Nord', lat: 48.8973, lng: 2.3443 } },
    set_driver_profile: {
      input: {
        capacity: { weight_grams: 600000, volume_cm3: 4000000, count: 60 },
        shift: { start: '08:00', end: '18:00' },
      },
    },
    get_drivers: {},
    get_driver_routes_today: {},
    get_routes: { input: { date: TODAY } },
    get_route_detail: {},
    get_build_route_options: { input: { date: TODAY } },
    build_route: { input: { date: TOMORROW } },
    get_dispatch_settings: {},
    update_dispatch_settings: { input: {} },
    get_dispatch_board: { input: { date: TODAY } },
    list_skills: {},
    save_skill: { input: { code: 'refrigerated', label: 'Refrigerated goods' } },
    delete_skill: { input: { code: 'bulky' } },
    get_driver_skills: {},
    set_driver_skills: { input: { skills: ['fragile'] } },
    get_order_required_skills: {},
    set_order_required_skills: { input: { skills: ['fragile'] } },
    get_job: { input: { id: text.job } },
    list_jobs: {},
    create_vehicle: {
      input: { name: 'Van 5', capacity: { weight_grams: 600000, volume_cm3: 4000000, count: 60 } },
    },
    get_vehicles: {},
    assign_order_to_route: { input: { order_id: id.today_order } },
    // The demo's routes are still at the depot at 10:30, so timed from then some windows are at
    // risk: the dispatcher confirms, as the console's dialog would.
    move_route_stop: { input: { order_id: id.route_order, position: 2, confirm_violations: true } },
    resequence_route: { input: { optimize: true, confirm_violations: true } },
    change_route_driver: { input: { driver_id: id.driver2, confirm_violations: true } },
    change_route_vehicle: { input: { vehicle_id: id.vehicle } },
    lock_route: {},
    unlock_route: {},
    get_dispatch_suggestions: {},
    get_order_audit_timeline: { input: { order_id: id.route_order } },
    get_operation_events: { input: { order_ids: [id.route_order] } },
    get_tracking_detail: {},
    get_otep_tracking: {},
    get_otep_tracking_events: {},
    get_otep_trackings_batch: { input: { tracking_numbers: [text.tracking_number] } },
    otep_ingest: {
      input: {
        events: [
          {
            event_id: 'ev-1001',
            subject: { tracking_number: text.tracking_number },
            occurred_at: AT,
            status_code: 'in_transit',
            source: { type: 'carrier', name: 'Last-mile partner' },
          },
        ],
      },
    },
    otep_ingest_epcis: { input: { document: epcisDocument(text.tracking_number, AT) } },
    otep_validate: { input: { timeline: {} } },
    create_tracking_provider: { input: { name: 'Last-mile partner' } },
    get_tracking_providers: {},
    revoke_tracking_provider: { input: { provider_id: id.tracking_provider } },
    get_public_tracking: { input: { trackingNumber: text.tracking_number } },
    set_customer_price_visibility: { input: { hidden: { local_delivery: true } } },
    get_customer_price_visibility: {},
    get_customer_settings: {},
    pay_order: { input: { order_id: id.order, method: 'card', card_token: 'tok_visa' } },
    get_account_credits: {},
    add_account_credit: { input: { amount: '5.00', currency: 'EUR', reason: 'goodwill' } },
    ...moreExampleCalls(d),
  };
}
