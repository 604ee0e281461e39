/**
 * The endpoint families (OpenAPI tags). An operation's `tag` is one of the interface's families,
 * spelled as its table spells them; an operation no family of the interface covers takes one of
 * the service's own (SERVICE_FAMILIES). docs/integration.md lists both.
 */

/** The families of the interface's table, in its order and spelling, built or not. */
export const INTERFACE_FAMILIES = [
  'Broker Order Assignments',
  'User',
  'Client',
  'Driver',
  'DriverInfo',
  'Skills',
  'Shipping',
  'LabelService',
  'AddressBook',
  'ReturnReasons',
  'OCR',
  'POI',
  'Dataset',
  'Alliance',
  'Tracking',
  'OTEP',
  'Customer',
  'ThirdPartyDelivery',
  'Warehouse Transfer',
  'InstantRider',
  'Custom Maps',
  'Loading Planner',
  'Packing Plans',
  'Smart Locker',
  'Reservations',
  'Device Operations',
  'Device Orders',
  'Locker Resale',
  'Luggage Relay',
  'Locker Storage',
  'Webhooks',
  'Warehouse Mobile',
  'Platform Apps',
  'Dispatch',
  'Driver Route Board',
  'Reservations',
  'Consolidation',
  'Order Chat',
  'Operations AI Agent',
  'SMS Marketing',
  'Documents',
  'Fleets',
] as const;

/**
 * The service's own families: operations the interface names no family for (it describes the
 * approval queue and capabilities with the agent servers, and leaves analytics, payments and
 * platform administration unshown).
 */
export const SERVICE_FAMILIES = [
  'Analytics',
  'Approvals',
  'Contractors',
  'Developer',
  'Jobs',
  'Payments',
  'Platform',
  'System',
] as const;

export type Family = (typeof INTERFACE_FAMILIES)[number] | (typeof SERVICE_FAMILIES)[number];

/** What each family built holds, in the interface's words where it has them. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  AddressBook:
    'Saved addresses of a business and of its customers, imported from CSV and searched with typos forgiven.',
  Alliance:
    'Cross-client tracking authorization and data sharing: alliances of businesses, their members, and the grants each gives the others.',
  Analytics:
    "Order figures from a daily rollup: a period's summary and a day's digest compared with the week before.",
  Jobs: 'Long calls accepted with 202 and run in the background: their status, progress and outcome (docs/jobs.md).',
  Approvals:
    'The approval queue: write tool calls agents propose, which a person approves (and they run as that person) or rejects.',
  'Broker Order Assignments':
    'Hand one order exclusively to one contractor (broker employee), and take it back.',
  Client:
    "The client (business) and its orders of every family: creation, lifecycle, notes and windows, which customers see prices, and the business's opt-in families.",
  Contractors:
    'Contractor (broker) companies working for a business: the rules that give each its planning pool.',
  Customer:
    'Customer-facing reads of a customer account: its settings (the families it settles offline) and its credit balance.',
  'Custom Maps':
    "Public/embed and authenticated business maps: layers of the business's own data, service zones, published links, GeoJSON export.",
  Dataset:
    "Flexible data storage and geocoding: a business's own tables of records (groups, datasets with a declared field schema, records checked on write, geocoded, imported from CSV or JSON and searched by fields, words and distance), and placing an address on the map.",
  Developer:
    'What integrators and coding agents learn the API from: endpoints, GraphQL operations, guides, the guidance file.',
  Fleets:
    "Fleets under an owner business: their drivers and captains, the fleet shift calendar (weekly patterns, shifts, sign-ups), whose shifts are the drivers' working windows in route building.",
  'Driver Route Board':
    "A fleet's board of a day's routes: published by staff or captains, claimed by the fleet's drivers first come first served, with a standby queue and withdrawal.",
  InstantRider:
    'Rider API for the driver app: a rider is a driver granted instant delivery (standard driver login and Bearer token); online state, position pings, and instant orders offered to the nearest riders.',
  Documents: 'Fingerprints to verify that a PDF was issued by the service and is intact.',
  Dispatch: 'Depots, vehicles, routes and route building from the planning pool.',
  Driver:
    'Drivers: sign-up and its approval, and the driver app working its own routes (start, stops, scans, positions, proofs, finish).',
  DriverInfo:
    'What a business knows of its drivers: their working profiles (depot, vehicle, capacity, shift, skills, availability) and their routes of the day.',
  OCR: "Label parsing by optical character recognition: a shipping label's photo or PDF read into its tracking numbers, addresses, weight and dimensions, matched with the business's orders, and drafted into an order created only once confirmed.",
  LabelService:
    'Label-service orders: rate a shipment with one carrier, buy its labels (4 x 6 in PDFs) and read them back.',
  'Operations AI Agent':
    'The operations AI agent: dispatcher suggestions computed from the observed day, each turned into an approval proposal in one call. An opt-in family: while it is off, its operations answer 409 with `feature_enabled: false`.',
  'Order Chat':
    'Per-order conversation between dispatchers, assigned driver and optionally the customer, pushed live over MQTT. An opt-in family: while it is off, its operations answer 409 with `feature_enabled: false`.',
  OTEP: 'The open tracking event protocol: timelines and events in every output format, ingest of native and EPCIS events by tracking providers, the conformance validator, and the providers and their keys.',
  Payments: 'Online payment of orders and labels, and credit given to customer accounts.',
  'Platform Apps':
    'Standalone apps assigned to clients: the public configuration they start from, and native sign-in with an identity provider.',
  'Loading Planner':
    'Load plans for sea containers, air ULD envelopes, vans, trucks and open decks: placements in loading order, weight, balance, stacking, support and unloading order, with a picture.',
  Consolidation:
    "Package forwarding: customers' suites at the warehouses, pre-announced inbound parcels with their AfterShip tracking pushes, receiving with storage fees, and consolidations into one shipment with a customs declaration.",
  'SMS Marketing':
    "Subscribers with double opt-in evidence, unsubscribe keywords in six languages, segments, campaigns under frequency caps and quiet hours in each subscriber's zone, offer codes, and the providers' signed webhooks. An opt-in family: while it is off, its operations answer 409 SMS_MARKETING_DISABLED; only a business's own staff use it (403 for any other account).",
  Reservations:
    'Bookable resources with recurring slots and a capacity each; public booking without an account (a code to the contact, signed links to cancel or change, an iCalendar file) and waitlists whose first person is offered each freed place for a time.',
  'Smart Locker':
    'Locker sites with their devices and compartments, bookings with one-time drop and pickup codes, openings at the locker or in the app, and the append-only ledger of handlings.',
  'Device Operations':
    'Lockers, kiosks and smart drops: registration with their own MQTT credential, commands with a deadline and an answer, compartments out of order.',
  'Device Orders':
    'Parcels sent from a locker: orders of the device_order family with a compartment to drop them in.',
  'Locker Resale':
    "Compartments of an operator's sites offered to other businesses: a quota per size class at a price per period.",
  ThirdPartyDelivery:
    'Connections to delivery providers that hand orders to the fleet: orders pulled on a cursor or pushed, accepted or rejected before their deadline by rules or a dispatcher, and status changes sent back.',
  'Luggage Relay': 'A bag relayed between sites in hops, a compartment at each, with its chain of custody.',
  'Locker Storage': 'Short-term storage periods sold at the kiosk, read-only, with their history.',
  'Packing Plans':
    "The business's packaging catalog and carton packing plans: the smallest total outer volume under a hard fill cap, applied to an order's packages.",
  Platform:
    'Platform administration: which optional modules the system offers, to which businesses, and revoking opt-in families.',
  POI: "Points of interest: the business's own places (depots, hubs, lockers, customer sites) with their opening hours.",
  ReturnReasons:
    'The return reasons a business asks for when an order is returned, with their labels and photo rule.',
  Shipping:
    'Carriers behind one adapter, priced by rate cards the business configures: methods, comparing every carrier, quote and ship.',
  Skills:
    "A business's skill catalogue (code and label), the skills each driver holds and the skills each order requires: route building gives an order only to a driver holding all of them.",
  System: 'Health of the service and its database, and what it offers agents.',
  Tracking:
    "Package tracking: the public tracking of a parcel and its proofs of delivery, a number's full timeline for its business and allies, and the audit trail of orders.",
  User: 'Accounts: sign-in with email and password, bearer tokens, the signed-in account.',
  'Warehouse Mobile':
    'Receiving, putaway, route sorting and route outbound, with the warehouses, their locations and inventory.',
  'Warehouse Transfer':
    'Move mis-received local delivery packages between warehouses, with batch rollback and audit trail.',
  Webhooks: 'Signed notifications of orders, tracking, labels and assignments, delivered through the outbox.',
} satisfies Partial<Record<Family, string>>;
