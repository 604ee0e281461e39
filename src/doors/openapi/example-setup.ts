import { createHmac } from 'node:crypto';
import { type Demo, TODAY, TOMORROW } from './example-demo.ts';
import type { ExampleCall } from './example-requests.ts';
import { AT, ADDRESS as DROPOFF, PACKAGES, SNEAKERS } from './example-values.ts';

/**
 * Calls kept on the throwaway database before the examples run, for what the demo seed does not
 * hold and some examples act on (a pending proposal, a started route, a parcel in a locker...).
 * Each step's answer is kept in `made` under its name; a later step reads an earlier one's.
 */
export interface SetupStep {
  name: string;
  operation: string;
  call(d: Demo): ExampleCall;
}

/** A second parcel the demo customer announces, so one parcel is left to consolidate. */
export const SECOND_INBOUND = { carrier: 'ups', tracking_number: '1Z999AA10123456784' };

export const SETUP: readonly SetupStep[] = [
  {
    name: 'tracking_provider',
    operation: 'create_tracking_provider',
    call: () => ({ input: { name: 'Partner carrier' } }),
  },
  {
    name: 'vehicle',
    operation: 'create_vehicle',
    call: () => ({
      input: { name: 'Van 1', capacity: { weight_grams: 600000, volume_cm3: 4000000, count: 60 } },
    }),
  },
  {
    name: 'skill',
    operation: 'save_skill',
    call: () => ({ input: { code: 'bulky', label: 'Bulky items' } }),
  },
  {
    name: 'webhooks',
    operation: 'update_webhook_settings',
    call: () => ({
      input: { urls: { 'order.created': 'https://hooks.example.com/tms' }, generate_secret: true },
    }),
  },
  {
    name: 'webhook_test',
    operation: 'test_webhook_delivery',
    call: () => ({ input: { url: 'https://hooks.example.com/tms' } }),
  },
  {
    name: 'proposal',
    operation: 'propose_write',
    call: (d) => ({
      input: { tool: 'hold_order', arguments: { order_id: d.id.order }, reason: 'The address looks wrong' },
    }),
  },
  { name: 'alliance_open', operation: 'create_alliance', call: () => ({ input: { name: 'North network' } }) },
  {
    name: 'alliance_invited',
    operation: 'create_alliance',
    call: () => ({ input: { name: 'South network' } }),
  },
  {
    name: 'invitation',
    operation: 'invite_to_alliance',
    call: (d) => ({
      input: { alliance_id: idIn(d.made.alliance_invited, 'alliance'), business_code: 'demo-partner' },
    }),
  },
  {
    name: 'transfer',
    operation: 'transfer_packages',
    call: (d) => ({
      input: {
        from_warehouse_id: d.id.warehouse,
        to_warehouse_id: d.id.warehouse_lyon,
        tracking_numbers: [d.text.lyon_tracking_number],
      },
    }),
  },
  {
    // Staff hand it over: the crew has no shift today and the route has left, so a claim is refused.
    name: 'board_assign',
    operation: 'reassign_board_route',
    call: (d) => ({ input: { fleet_id: d.id.fleet, route_id: d.id.board_route, driver_id: d.id.driver2 } }),
  },
  {
    name: 'route_start',
    operation: 'start_route',
    call: (d) => ({
      as: 'driver2',
      input: { route_id: d.id.board_route, client_id: 'setup-start', device_time: AT },
    }),
  },
  {
    name: 'broker_assignment',
    operation: 'assign_orders_to_broker',
    call: (d) => ({ input: { order_ids: [d.id.broker_order], broker_id: d.id.contractor } }),
  },
  {
    name: 'third_inbound',
    operation: 'announce_inbound_parcel',
    call: () => ({
      as: 'customer',
      input: {
        carrier: 'ups',
        tracking_number: '1Z999AA10123456785',
        items: [
          {
            description: 'Jacket',
            quantity: 1,
            value: 80,
            currency: 'USD',
            hs_code: '620193',
            origin_country: 'CN',
          },
        ],
      },
    }),
  },
  { name: 'conversation', operation: 'create_agent_conversation', call: () => ({}) },
  {
    name: 'packing_plan',
    operation: 'create_packing_plan',
    call: (d) => ({
      input: {
        order_id: d.id.order,
        items: [{ length_mm: 200, width_mm: 150, height_mm: 100, weight_grams: 900 }],
      },
    }),
  },
  {
    name: 'loading_space',
    operation: 'create_loading_space',
    call: () => ({ input: { name: 'Small van', length_mm: 2500, width_mm: 1600, height_mm: 1400 } }),
  },
  {
    name: 'locker_booking',
    operation: 'reserve_locker_compartment',
    call: (d) => ({ input: { site_id: d.id.locker_site, size_class: 'S' } }),
  },
  {
    name: 'locker_quota',
    operation: 'offer_locker_quota',
    call: (d) => ({
      input: {
        site_id: d.id.locker_site,
        tenant_business_id: d.id.partner,
        size_class: 'S',
        compartments: 1,
        price: 30,
        currency: 'EUR',
        period: 'month',
        starts_on: TOMORROW,
      },
    }),
  },
  {
    name: 'luggage_relay',
    operation: 'create_luggage_relay',
    call: (d) => ({ input: { bag_tag: 'BAG-0001', site_ids: [d.id.locker_site] } }),
  },
  {
    name: 'second_inbound',
    operation: 'announce_inbound_parcel',
    call: () => ({
      as: 'customer',
      input: {
        ...SECOND_INBOUND,
        items: [SNEAKERS],
      },
    }),
  },
  ...['usps:9400111899223197428490', `ups:${SECOND_INBOUND.tracking_number}`].map((parcel, n) => ({
    name: `inbound_received_${n}`,
    operation: 'receive_inbound_parcel',
    call: () => ({
      input: {
        tracking_number: parcel.split(':')[1],
        weight_grams: 1800,
        length_mm: 400,
        width_mm: 300,
        height_mm: 150,
      },
    }),
  })),
  {
    name: 'consolidation',
    operation: 'request_consolidation',
    call: (d) => ({ as: 'customer', input: { parcel_ids: [d.id.inbound_parcel], dropoff: DROPOFF } }),
  },
  {
    name: 'third_party_push',
    operation: 'push_third_party_orders',
    call: (d) => ({
      input: {
        connection_id: d.credentials.thirdParty?.connection_id,
        token: d.credentials.thirdParty?.push_token,
        orders: [
          {
            ref: 'MKT-1001',
            respond_by: '2026-11-02T11:00:00Z',
            customer: { name: 'Camille Martin', phone: '+33 6 12 34 56 78' },
            destination: {
              street: '8 Rue de Rivoli',
              city: 'Paris',
              zip: '75004',
              country: 'FR',
              geo: { lat: 48.8556, lon: 2.3579 },
            },
          },
          // Outside Paris: left for dispatch to accept or reject.
          {
            ref: 'MKT-1002',
            respond_by: '2026-11-02T11:00:00Z',
            customer: { name: 'Hugo Petit' },
            destination: {
              street: '12 Rue Mercière',
              city: 'Lyon',
              zip: '69002',
              country: 'FR',
              geo: { lat: 45.7622, lon: 4.8337 },
            },
          },
        ],
      },
    }),
  },
  {
    name: 'booking',
    operation: 'book_slot',
    call: () => ({
      input: {
        starts_at: '2026-11-03T09:00:00+01:00',
        name: 'Camille Martin',
        contact: 'camille@example.com',
      },
    }),
  },
  {
    name: 'booking_confirmed',
    operation: 'confirm_reservation',
    call: (d) => {
      const booking = d.made.booking as { booking: { reference: string } };
      const [message] = d.made.contacted as Array<{ text: string }>;
      return {
        input: { reference: booking.booking.reference, code: /\b(\d{6})\b/.exec(message?.text ?? '')?.[1] },
      };
    },
  },
  {
    name: 'booking_held',
    operation: 'book_slot',
    call: () => ({
      input: { starts_at: '2026-11-03T09:30:00+01:00', name: 'Louis Bernard', contact: 'louis@example.com' },
    }),
  },
  {
    name: 'sms_segment',
    operation: 'create_sms_segment',
    call: () => ({ input: { name: 'VIP', rules: { tags: { any: ['vip'] } } } }),
  },
  {
    name: 'sms_campaign',
    operation: 'create_sms_campaign',
    call: () => ({ input: { name: 'Weekend offer', body: 'Free delivery this weekend with code WEEKEND.' } }),
  },
  {
    name: 'label',
    operation: 'create_shipping_label',
    call: (d) => ({
      input: {
        pickup: DROPOFF,
        dropoff: { ...DROPOFF, line1: '3 Rue du Bac', postal_code: '75007' },
        packages: PACKAGES,
        carrier: d.text.carrier,
        service: d.text.carrier_service,
      },
    }),
  },
  {
    name: 'instant_order',
    operation: 'create_order',
    call: () => ({
      input: { orders: [{ dropoff: DROPOFF, packages: PACKAGES, scheduled_date: TODAY, instant: true }] },
    }),
  },
  {
    name: 'registration',
    operation: 'register_driver',
    call: () => ({
      input: {
        business_code: 'demo',
        name: 'Noah Novak',
        email: 'noah@demo.test',
        password: 'a-long-password',
      },
    }),
  },
  { name: 'job', operation: 'rebuild_analytics', call: () => ({}) },
];

function idIn(answer: unknown, key: string): number {
  return Number((answer as Record<string, { id?: number }> | undefined)?.[key]?.id ?? 0);
}

/** The aftership-hmac-sha256 signature of a push body, as AfterShip signs it with the business's secret. */
export function afterShipSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}
