import { sql } from 'kysely';
import type { DemoCredentials } from '../../demo/seed.ts';
import type { AccountKind } from '../../platform/catalog/operation.ts';
import type { Db } from '../../platform/db/database.ts';

/** The demo's "now" for the examples: a Monday, 10:30 in Paris, as the tests' clock. */
export const EXAMPLE_MOMENT = new Date('2026-11-02T09:30:00Z');
export const TODAY = '2026-11-02';
export const TOMORROW = '2026-11-03';

/** Who sends an example: a demo account, the tracking provider with its key, or nobody. */
export type Signer = AccountKind | 'driver2' | 'driver3' | 'partner_admin' | 'provider' | 'public';

const ACCOUNTS: Record<Exclude<Signer, 'provider' | 'public'>, string> = {
  platform_admin: 'platform@demo.test',
  client_admin: 'admin@demo.test',
  employee: 'employee@demo.test',
  contractor: 'contractor@demo.test',
  customer: 'customer@demo.test',
  driver: 'driver@demo.test',
  driver2: 'driver2@demo.test',
  driver3: 'driver3@demo.test',
  partner_admin: 'admin@partner.demo.test',
};
export type Tokens = Record<keyof typeof ACCOUNTS, string>;

/** A token of every demo account the examples sign in as. */
export async function signIn(baseUrl: string, password: string): Promise<Tokens> {
  const tokens: Partial<Tokens> = {};
  for (const [signer, email] of Object.entries(ACCOUNTS) as Array<[keyof Tokens, string]>) {
    const answer = await fetch(`${baseUrl}/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const body = (await answer.json()) as { access_token?: string };
    if (!body.access_token) throw new Error(`${email} could not sign in: ${JSON.stringify(body)}`);
    tokens[signer] = body.access_token;
  }
  return tokens as Tokens;
}

const user = (email: string) => `select id from users where email = '${email}'`;
const DEMO = `(select id from businesses where code = 'demo')`;
const DRIVER = `(${user('driver@demo.test')})`;
const DRIVER_ROUTE = `(select id from routes where driver_user_id = ${DRIVER} and route_date = '${TODAY}')`;

/** An order of the demo nobody has planned yet: what dispatch acts on. */
const NEW_ORDER = `select min(id) from orders where business_id = ${DEMO} and status = 'NEW_ORDER' and route_id is null and not instant`;
/** The route whose parcels the seed left to receive at Paris Bercy. */
const UNRECEIVED_ROUTE = `select max(route_id) from orders where business_id = ${DEMO} and status = 'PLANNED' and scheduled_date = '${TODAY}'`;
const BOARD_ROUTE = `select route_id from route_board_entries where built_for_user_id = (${user('driver2@demo.test')})`;
const RECEIVED_ROUTE = `select min(o.route_id) from warehouse_packages w join orders o on o.id = w.order_id where o.business_id = ${DEMO}`;

/** Ids of the demo's objects the examples name, each found by what the seed made it. */
const ID_LOOKUPS = {
  business: DEMO,
  partner: `select id from businesses where code = 'demo-partner'`,
  platform_admin: user('platform@demo.test'),
  client_admin: user('admin@demo.test'),
  employee: user('employee@demo.test'),
  customer: user('customer@demo.test'),
  driver: user('driver@demo.test'),
  driver2: user('driver2@demo.test'),
  driver3: user('driver3@demo.test'),
  contractor: user('contractor@demo.test'),
  contractor_company: 'select min(id) from contractor_companies',
  held_order: `select min(id) from orders where business_id = ${DEMO} and status = 'HOLD'`,
  today_order: `select min(id) from orders where business_id = ${DEMO} and status = 'NEW_ORDER' and scheduled_date = '${TODAY}'`,
  broker_order: `select min(id) from orders where business_id = ${DEMO} and status = 'NEW_ORDER' and not instant and id > (${NEW_ORDER})`,
  board_order: `select order_id from route_stops where route_id = (${BOARD_ROUTE}) order by sequence limit 1`,
  free_compartment: `select max(id) from locker_compartments where business_id = ${DEMO} and booking_id is null`,
  third_inbound: `select id from inbound_parcels where tracking_number = '1Z999AA10123456785'`,
  pending_third_party_order: `select min(id) from third_party_orders where business_id = ${DEMO} and state = 'pending'`,
  // The demo driver's route of today and its stops: the driver's own work.
  route: DRIVER_ROUTE,
  route_order: `select order_id from route_stops where route_id = ${DRIVER_ROUTE} order by sequence limit 1`,
  route_order_2: `select order_id from route_stops where route_id = ${DRIVER_ROUTE} order by sequence offset 1 limit 1`,
  order: NEW_ORDER,
  delivered_order: `select min(id) from orders where business_id = ${DEMO} and status = 'DELIVERED'`,
  instant_order: `select min(id) from orders where business_id = ${DEMO} and instant`,
  unreceived_order: `select order_id from route_stops where route_id = (${UNRECEIVED_ROUTE}) order by sequence limit 1`,
  chat_order: 'select min(order_id) from order_chats',
  depot: `select min(id) from depots where business_id = ${DEMO}`,
  vehicle: `select min(id) from vehicles where business_id = ${DEMO}`,
  fleet: `select min(id) from fleets where business_id = ${DEMO}`,
  // The crew's routes on the board: the second driver's (claimed by the set-up), the third's (open).
  board_route: BOARD_ROUTE,
  open_board_route: `select route_id from route_board_entries where built_for_user_id = (${user('driver3@demo.test')})`,
  shift: `select min(id) from fleet_shifts where business_id = ${DEMO} and shift_date > '${TODAY}'`,
  shift_pattern: `select min(id) from fleet_shift_patterns where business_id = ${DEMO}`,
  warehouse: `select id from warehouses where code = 'PAR-BERCY'`,
  warehouse_lyon: `select id from warehouses where code = 'LYS-GERLAND'`,
  warehouse_bin: `select id from warehouse_locations where code = 'A-01'`,
  warehouse_zone: `select id from warehouse_locations where code = 'A'`,
  unreceived_route: UNRECEIVED_ROUTE,
  received_route: RECEIVED_ROUTE,
  dataset_group: `select min(id) from dataset_groups where business_id = ${DEMO}`,
  dataset: `select min(id) from datasets where business_id = ${DEMO}`,
  dataset_record: `select min(id) from dataset_records where business_id = ${DEMO}`,
  alliance: `select id from alliances where name = 'Paris Delivery Network'`,
  alliance_open: `select id from alliances where name = 'North network'`,
  alliance_invited: `select id from alliances where name = 'South network'`,
  map: `select min(id) from maps where business_id = ${DEMO}`,
  point: `select min(id) from points_of_interest where business_id = ${DEMO}`,
  address: `select min(id) from saved_addresses where business_id = ${DEMO}`,
  service_zone: `select min(id) from service_zones where business_id = ${DEMO}`,
  packaging: `select min(id) from packaging_types where business_id = ${DEMO}`,
  loading_space: `select min(id) from loading_spaces where business_id = ${DEMO}`,
  load_plan: `select min(id) from load_plans where business_id = ${DEMO}`,
  packing_plan: `select min(id) from packing_plans where business_id = ${DEMO}`,
  locker_site: `select min(id) from locker_sites where business_id = ${DEMO}`,
  locker_device: `select min(id) from locker_devices where business_id = ${DEMO}`,
  locker_compartment: `select min(id) from locker_compartments where business_id = ${DEMO}`,
  locker_booking: `select min(id) from locker_bookings where business_id = ${DEMO}`,
  locker_quota: `select min(id) from locker_quotas`,
  luggage_relay: `select min(id) from luggage_relays`,
  inbound_parcel: `select min(id) from inbound_parcels where business_id = ${DEMO}`,
  consolidation: `select min(id) from consolidations where business_id = ${DEMO}`,
  third_party_connection: `select min(id) from third_party_connections where business_id = ${DEMO}`,
  reservation_resource: `select min(id) from reservation_resources where business_id = ${DEMO}`,
  reservation_booking: `select min(id) from reservation_bookings where business_id = ${DEMO}`,
  sms_subscriber: `select min(id) from sms_subscribers where business_id = ${DEMO}`,
  sms_campaign: `select min(id) from sms_campaigns where business_id = ${DEMO}`,
  sms_draft: `select min(id) from sms_campaigns where business_id = ${DEMO} and status = 'draft'`,
  sms_sending: `select min(id) from sms_campaigns where business_id = ${DEMO} and status = 'sending'`,
  second_inbound: `select id from inbound_parcels where tracking_number = '1Z999AA10123456784'`,
  sms_segment: `select min(id) from sms_segments where business_id = ${DEMO}`,
  tracking_provider: `select min(id) from tracking_providers where business_id = ${DEMO}`,
  driver_registration: `select min(id) from driver_registrations where business_id = ${DEMO}`,
  proposal: `select min(id) from agent_write_proposals where business_id = ${DEMO} and status = 'pending'`,
  conversation: `select min(id) from agent_conversations where business_id = ${DEMO}`,
  proof: `select min(id) from proof_files where business_id = ${DEMO}`,
  contractor_rule: `select min(id) from contractor_rules`,
  webhook_delivery: `select min(id) from webhook_delivery_logs where business_id = ${DEMO}`,
  transfer: `select min(id) from warehouse_transfers where business_id = ${DEMO}`,
  offer: `select min(id) from instant_offers where business_id = ${DEMO}`,
  third_party_order: `select min(id) from third_party_orders where business_id = ${DEMO}`,
} as const;

/** Texts the examples name: tracking numbers, references. */
const TEXT_LOOKUPS = {
  tracking_number: `select p.tracking_number from packages p join orders o on o.id = p.order_id where o.id = (select order_id from route_stops where route_id = ${DRIVER_ROUTE} order by sequence limit 1)`,
  // A parcel the seed received at Paris Bercy, and one of the route left to receive.
  received_tracking_number: `select min(w.tracking_number) from warehouse_packages w join orders o on o.id = w.order_id where o.route_id = (${RECEIVED_ROUTE})`,
  unreceived_tracking_number: `select min(p.tracking_number) from packages p join orders o on o.id = p.order_id where o.route_id = (select max(route_id) from orders where business_id = ${DEMO} and status = 'PLANNED' and scheduled_date = '${TODAY}')`,
  order_ref: `select order_ref from orders where id = (${NEW_ORDER})`,
  lyon_tracking_number: `select p.tracking_number from packages p join orders o on o.id = p.order_id where o.order_ref = 'DEMO-LYON-1'`,
  carrier: `select code from shipping_carriers where business_id = ${DEMO} and active order by id limit 1`,
  carrier_service: `select rate_card->'services'->0->>'code' from shipping_carriers where business_id = ${DEMO} and active order by id limit 1`,
  carrier_rate_card: `select rate_card::text from shipping_carriers where business_id = ${DEMO} and active order by id limit 1`,
  dataset_record_data: `select data::text from dataset_records where id = (select min(id) from dataset_records where business_id = ${DEMO})`,
  load_plan_space: `select space::text from load_plans where business_id = ${DEMO} order by id limit 1`,
  label_tracking_number: 'select min(tracking_number) from shipping_labels',
  inbound_tracking_number: 'select min(tracking_number) from inbound_parcels',

  locker_reference: 'select min(reference) from locker_bookings',
  reservation_reference: 'select min(reference) from reservation_bookings',
  reservation_signature: "select ''",
  held_reference: "select ''",
  held_code: "select ''",
  locker_drop_code: "select ''",
  job: 'select min(id::text) from jobs',
  document_sha256: 'select sha256 from documents order by id limit 1',
} as const;

export interface Demo {
  tokens: Tokens;
  credentials: DemoCredentials;
  /** The key of a tracking provider of the demo business (made by the examples' set-up). */
  providerKey: string;
  id: Record<keyof typeof ID_LOOKUPS, number>;
  text: Record<keyof typeof TEXT_LOOKUPS, string>;
  /** Whatever the set-up's calls answered, by step name. */
  made: Record<string, unknown>;
}

/** The demo's ids and texts as the database holds them now. */
export async function lookUpDemo(
  db: Db,
  credentials: DemoCredentials,
  tokens: Tokens,
  made: Record<string, unknown> = {},
): Promise<Demo> {
  const value = async (query: string) => {
    const { rows } = await sql.raw<Record<string, unknown>>(query).execute(db);
    const row = rows[0];
    return row ? Object.values(row)[0] : undefined;
  };
  const named = async (name: string, query: string) => {
    try {
      return await value(query);
    } catch (error) {
      throw new Error(`The demo lookup ${name} failed: ${error}`);
    }
  };
  const id = {} as Record<string, number>;
  for (const [name, query] of Object.entries(ID_LOOKUPS)) id[name] = Number((await named(name, query)) ?? 0);
  const text = {} as Record<string, string>;
  for (const [name, query] of Object.entries(TEXT_LOOKUPS))
    text[name] = String((await named(name, query)) ?? '');
  // The booking confirmed by the set-up gives the signature of its links; the one held, its code.
  const links = made.booking_confirmed as { links?: { manage?: string } } | undefined;
  text.reservation_signature = /signature=([^&]+)/.exec(links?.links?.manage ?? '')?.[1] ?? '';
  text.held_reference =
    (made.booking_held as { booking?: { reference?: string } } | undefined)?.booking?.reference ?? '';
  const contacted = (made.contacted ?? []) as Array<{ text: string }>;
  const locker = made.locker_booking as
    | { booking?: { reference?: string }; codes?: { drop_code?: string } }
    | undefined;
  text.locker_reference = locker?.booking?.reference ?? '';
  text.locker_drop_code = locker?.codes?.drop_code ?? '';
  text.held_code = /\b(\d{6})\b/.exec(contacted[contacted.length - 1]?.text ?? '')?.[1] ?? '';
  return {
    tokens,
    credentials,
    providerKey: String(
      (made.tracking_provider as { provider?: { key?: string } } | undefined)?.provider?.key ?? '',
    ),
    id: id as Demo['id'],
    text: text as Demo['text'],
    made,
  };
}
