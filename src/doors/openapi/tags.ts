/** Descriptions of the endpoint families (OpenAPI tags), in the interface's words. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  AddressBook:
    'Saved addresses of a business and of its customers, imported from CSV and searched with typos forgiven.',
  Alliance:
    'Cross-client tracking authorization and data sharing: alliances of businesses, their members, and the grants each gives the others.',
  Analytics:
    "Order figures from a daily rollup: a period's summary and a day's digest compared with the week before.",
  Approvals:
    'The approval queue: write tool calls agents propose, which a person approves (and they run as that person) or rejects.',
  'Broker Order Assignments':
    'Hand one order exclusively to one contractor (broker employee), and take it back.',
  Contractors:
    'Contractor (broker) companies working for a business: the rules that give each its planning pool.',
  Datasets:
    "A business's own tables of records: groups, datasets with a declared field schema, records checked on write, geocoded, imported from CSV or JSON and searched by fields, words and distance.",
  Developer:
    'What integrators and coding agents learn the API from: endpoints, GraphQL operations, guides, the guidance file.',
  Documents: 'Fingerprints to verify that a PDF was issued by the service and is intact.',
  Dispatch: 'Depots, routes and route building from the planning pool.',
  Driver: 'Drivers, their vehicles, capacity, working hours and skills, and their routes.',
  LabelService:
    'Label-service orders: rate a shipment with one carrier, buy its labels (4 x 6 in PDFs) and read them back.',
  OrderChat:
    'Order Chat: per-order conversation between dispatchers, assigned driver and optionally the customer, pushed live over MQTT.',
  Orders:
    'Orders of every family (local delivery, label, shipping, LTL, storage, moving, device orders), their packages and lifecycle.',
  Payments: 'Online payment of orders and labels, and the credit accounts of customers.',
  'Platform Apps':
    'Standalone apps assigned to clients: the public configuration they start from, and native sign-in with an identity provider.',
  Platform: 'Platform administration: which optional modules the system offers, and to which businesses.',
  Pricing: 'Price hiding: which order families a business prices offline for which customer.',
  WarehouseMobile:
    'Warehouse Mobile: receiving, putaway, route sorting and route outbound, with the warehouses, their locations and inventory.',
  WarehouseTransfer:
    'Warehouse Transfer: move mis-received local delivery packages between warehouses, with batch rollback and audit trail.',
  Webhooks: 'Signed notifications of orders, tracking, labels and assignments, delivered through the outbox.',
  Shipping:
    'Carriers behind one adapter, priced by rate cards the business configures: methods, comparing every carrier, quote and ship.',
  Skills:
    "A business's skill catalogue (code and label), the skills each driver holds and the skills each order requires: route building gives an order only to a driver holding all of them.",
  System: 'Health of the service and its database, and what it offers agents.',
  Tracking: 'Package tracking and the audit trail of orders.',
  User: 'Accounts: sign-in with email and password, bearer tokens, the signed-in account.',
};
