import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import {
  addressSchema,
  idParam,
  openingHoursOutput,
  openingHoursSchema,
  timeZoneSchema,
} from '../../platform/schemas.ts';
import { MAX_BATCH, type WarehousesService } from './service.ts';
import { LOCATION_KINDS, PACKAGE_STATES } from './tables.ts';

const TAG_MOBILE = 'Warehouse Mobile';
const TAG_TRANSFER = 'Warehouse Transfer';
/** Scans are for employees and drivers with the warehouse's role; client admins scan anywhere. */
const SCANNERS = [...STAFF, 'driver'] as const;
const ADMIN = ['client_admin'] as const;

const trackingNumber = z.string().trim().min(1).max(64).describe('A package tracking number');
const scanId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/)
  .describe(
    "The scanning device's own id for this scan (letters, digits, . _ : -; up to 64): the same scan sent again moves nothing",
  );
const code = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, fieldMessage('location_code'));
const date = z.iso.date().describe('Calendar date YYYY-MM-DD; default: today in the business time zone');

const locationKind = z.enum(LOCATION_KINDS).meta({ title: 'WarehouseLocationKind' });
const locationSchema = z
  .object({
    id: z.int(),
    warehouse_id: z.int(),
    code: z.string(),
    kind: locationKind,
    capacity: z.int().describe('Parcels it can hold (packages plus stock units)'),
    occupied: z.int().describe('Parcels it holds now'),
  })
  .meta({ title: 'WarehouseLocation' });
const warehouseSchema = z
  .object({
    id: z.int(),
    code: z.string(),
    name: z.string(),
    address: z.object({
      line1: z.string(),
      postal_code: z.string().nullable(),
      city: z.string().nullable(),
      country: z.string().nullable(),
      lat: z.number().nullable(),
      lng: z.number().nullable(),
    }),
    time_zone: z.string(),
    opening_hours: openingHoursOutput,
    depot_id: z.int().nullable().describe('The dispatch depot its routes start from'),
    postal_prefixes: z
      .array(z.string())
      .describe('Drop-off postal codes it serves (a package belongs to it)'),
    staff_user_ids: z.array(z.int()).describe('Employees and drivers with the warehouse role here'),
    locations: z.array(locationSchema),
    created_at: z.string(),
  })
  .meta({ title: 'Warehouse' });
const warehouseAnswer = z.object({ result: z.literal(true), warehouse: warehouseSchema });
const place = z.object({ id: z.int(), code: z.string() }).nullable();
const scanResult = z.object({
  tracking_number: z.string(),
  outcome: z.enum(['received', 'already_received', 'refused']),
  order_id: z.int().optional(),
  order_status: z.string().optional(),
  mis_received: z.boolean().optional().describe('It belongs to another warehouse (home_warehouse)'),
  home_warehouse: z.object({ id: z.int(), code: z.string() }).nullable().optional(),
  error_code: z.string().optional(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
const outboundReport = {
  route_id: z.int(),
  dispatched_at: z.string().nullable(),
  loaded: z.array(z.string()),
  missing: z.array(z.string()).describe("The route's packages not loaded"),
  extra: z.array(z.string()).describe('Packages scanned for this route that are not on it (not loaded)'),
  unload: z
    .array(z.string())
    .describe(
      'Loaded for this route, but their order was held or cancelled since: take them off the van (never sent out)',
    ),
};
const transferSchema = z
  .object({
    id: z.int(),
    from_warehouse_id: z.int(),
    to_warehouse_id: z.int(),
    tracking_numbers: z.array(z.string()),
    note: z.string().nullable(),
    created_by: z.int().nullable(),
    created_at: z.string(),
    door: z.string(),
    rolled_back_at: z.string().nullable(),
    rolled_back_by: z.int().nullable(),
  })
  .meta({ title: 'WarehouseTransfer' });
const warehouseId = idParam.describe('The warehouse');

const warehouseInput = z.object({
  code,
  name: z.string().trim().min(1).max(120),
  ...addressSchema.pick({ line1: true, postal_code: true, city: true, country: true, lat: true, lng: true })
    .shape,
  time_zone: timeZoneSchema,
  opening_hours: openingHoursSchema.optional(),
  depot_id: idParam.optional(),
  postal_prefixes: z.array(z.string().trim().min(1).max(20)).max(200).optional(),
});

export function warehousesOperations(warehouses: WarehousesService): Operation[] {
  return [
    defineOperation({
      name: 'get_warehouses',
      summary: "The business's warehouses with their locations and who holds the warehouse role",
      description:
        'Each warehouse with its code, address, time zone, opening hours, linked depot, the staff holding its warehouse role, and its locations with capacity and occupancy. Use it to find a warehouse_id.',
      tag: TAG_MOBILE,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_warehouses',
        guide:
          "The business's warehouses (code, address, hours, depot) with their locations (zones, aisles, bins, lanes), capacity and occupancy. Find a warehouse_id here before get_inventory.",
        idempotent: true,
      },
      access: { kinds: SCANNERS, scopes: ['wms:read'] },
      rest: { method: 'GET', path: '/v1/client/warehouses' },
      graphql: 'warehouses',
      input: z.object({
        code: z.string().max(32).optional().describe('Only the warehouse with this code'),
        ...pageParams,
      }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, warehouses: z.array(warehouseSchema) }),
      handler: (ctx, input) => warehouses.sites.list(ctx, input),
    }),
    defineOperation({
      name: 'get_inventory',
      summary: 'What is where now: packages by location and state, or stock by SKU and quantity',
      description:
        "what=packages: packages held with their location, state, order status and route, and a count by location and state; what=stock: storage customers' SKUs by location. Filters narrow to a warehouse, location, state, package, route or SKU.",
      tag: TAG_MOBILE,
      kind: 'query',
      risk: 'low',
      errors: ['WAREHOUSE_NOT_FOUND'],
      tool: {
        user: 'get_inventory',
        guide:
          'What a warehouse holds: what=packages (default) with location, state, order status and counts; what=stock, SKUs by location. Paged; filter by the arguments.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['wms:read'], customer: 'customer_id' },
      rest: { method: 'GET', path: '/v1/client/inventory' },
      graphql: 'inventory',
      input: z.object({
        what: z.enum(['packages', 'stock']).default('packages'),
        warehouse_id: idParam.optional(),
        location_id: idParam.optional(),
        state: z.array(z.enum(PACKAGE_STATES)).min(1).optional(),
        tracking_number: trackingNumber.optional(),
        route_id: idParam.optional(),
        mis_received: z.boolean().optional(),
        sku: z.string().trim().min(1).max(64).optional(),
        customer_id: idParam.optional().describe('Stock of this storage customer only'),
        ...pageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        summary: z.array(
          z.object({
            warehouse_id: z.int(),
            location: place,
            state: z.enum(PACKAGE_STATES),
            packages: z.int(),
          }),
        ),
        packages: z.array(
          z.object({
            tracking_number: z.string(),
            order_id: z.int(),
            order_status: z.string().nullable(),
            warehouse_id: z.int(),
            state: z.enum(PACKAGE_STATES),
            location: place,
            route_id: z.int().nullable(),
            mis_received: z.boolean(),
            home_warehouse_id: z.int().nullable(),
            received_at: z.string(),
            updated_at: z.string(),
          }),
        ),
        stock: z.array(
          z.object({
            warehouse_id: z.int(),
            location: place,
            customer_id: z.int(),
            sku: z.string(),
            quantity: z.int(),
            updated_at: z.string(),
          }),
        ),
      }),
      handler: (ctx, input) => warehouses.sites.inventory(ctx, input),
    }),
    defineOperation({
      name: 'create_warehouse',
      summary: 'Add a warehouse: code, name, address, coordinates, time zone, opening hours, linked depot',
      description:
        'Add each of its locations next (create_warehouse_location), and give its staff the warehouse role (set_warehouse_staff) so they can scan there.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ADMIN, scopes: ['wms:write'] },
      rest: { method: 'POST', path: '/v1/client/warehouses' },
      graphql: 'createWarehouse',
      input: warehouseInput,
      output: warehouseAnswer,
      handler: (ctx, input) => warehouses.sites.createWarehouse(ctx, input),
    }),
    defineOperation({
      name: 'update_warehouse',
      summary: 'Change a warehouse: only the fields sent change; null clears an optional one',
      description:
        'Its postal prefixes and coordinates decide which warehouse a package belongs to when it is received; a package received elsewhere is flagged mis-received.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ADMIN, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/warehouses/:warehouse_id' },
      graphql: 'updateWarehouse',
      input: z.object({
        warehouse_id: warehouseId,
        code: code.optional(),
        name: warehouseInput.shape.name.optional(),
        line1: warehouseInput.shape.line1.optional(),
        time_zone: timeZoneSchema.optional(),
        postal_code: warehouseInput.shape.postal_code.unwrap().nullable().optional(),
        city: warehouseInput.shape.city.unwrap().nullable().optional(),
        country: warehouseInput.shape.country.unwrap().nullable().optional(),
        lat: warehouseInput.shape.lat.unwrap().nullable().optional(),
        lng: warehouseInput.shape.lng.unwrap().nullable().optional(),
        opening_hours: openingHoursSchema.nullable().optional(),
        depot_id: idParam.nullable().optional(),
        postal_prefixes: warehouseInput.shape.postal_prefixes.unwrap().nullable().optional(),
      }),
      output: warehouseAnswer,
      handler: (ctx, { warehouse_id, ...changes }) =>
        warehouses.sites.updateWarehouse(ctx, warehouse_id, changes),
    }),
    defineOperation({
      name: 'create_warehouse_location',
      summary:
        'Add a location to a warehouse: a zone, aisle, bin or staging lane, with its capacity in parcels',
      description:
        'Putaway and sorting move packages and stock into locations, never past their capacity; staging lanes receive routes at sorting.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ADMIN, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/warehouses/:warehouse_id/locations' },
      graphql: 'createWarehouseLocation',
      input: z.object({
        warehouse_id: warehouseId,
        code,
        kind: locationKind,
        capacity: z.int().min(0).max(1_000_000),
      }),
      output: z.object({ result: z.literal(true), location: locationSchema }),
      handler: (ctx, { warehouse_id, ...input }) => warehouses.sites.createLocation(ctx, warehouse_id, input),
    }),
    defineOperation({
      name: 'update_warehouse_location',
      summary:
        "Change a location's code, kind or capacity: never below what it holds; capacity 0 closes it (nothing more goes in, no route is given it as lane)",
      description:
        'Refused below what the location holds now, and a staging lane serving a route of today or later keeps its kind. Locations are never deleted: capacity 0 retires one.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ADMIN, scopes: ['wms:write'] },
      errors: [
        'WAREHOUSE_NOT_FOUND',
        'WAREHOUSE_LOCATION_NOT_FOUND',
        'CAPACITY_BELOW_OCCUPIED',
        'LOCATION_IN_USE',
      ],
      rest: { method: 'PATCH', path: '/v1/client/warehouses/:warehouse_id/locations/:location_id' },
      graphql: 'updateWarehouseLocation',
      input: z.object({
        warehouse_id: warehouseId,
        location_id: idParam.describe('The location'),
        code: code.optional(),
        kind: locationKind.optional(),
        capacity: z.int().min(0).max(1_000_000).optional(),
      }),
      output: z.object({ result: z.literal(true), location: locationSchema }),
      handler: (ctx, { warehouse_id, location_id, ...changes }) =>
        warehouses.sites.updateLocation(ctx, warehouse_id, location_id, changes),
    }),
    defineOperation({
      name: 'set_warehouse_staff',
      summary: 'Give the warehouse role to these employees and drivers (and take it from the others)',
      description:
        'The list replaces the previous one. Employees and drivers scan only at warehouses where they hold the role; client admins scan everywhere.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ADMIN, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'USER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/warehouses/:warehouse_id/staff' },
      graphql: 'setWarehouseStaff',
      input: z.object({ warehouse_id: warehouseId, user_ids: z.array(idParam).max(500) }),
      output: warehouseAnswer,
      handler: (ctx, input) => warehouses.sites.setStaff(ctx, input.warehouse_id, input.user_ids),
    }),
    defineOperation({
      name: 'receive_packages',
      summary: 'Receiving: scan one tracking number or a batch in at a warehouse',
      description:
        "Each number on its own: received (the order moves to AT_WAREHOUSE and a `received` tracking event with the warehouse as location enters the package's timeline), already_received (nothing changes), or refused with its error_code. A package that belongs to another warehouse is flagged mis_received.",
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED'],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/receive' },
      graphql: 'receivePackages',
      input: z.object({
        warehouse_id: warehouseId,
        tracking_numbers: z.array(trackingNumber).min(1).max(MAX_BATCH),
      }),
      output: z.object({ result: z.literal(true), received: z.int(), results: z.array(scanResult) }),
      handler: (ctx, input) => warehouses.receiving.receive(ctx, input.warehouse_id, input.tracking_numbers),
    }),
    defineOperation({
      name: 'receive_stock',
      summary: "Receiving: a storage customer's SKU quantity arrives at a warehouse, not put away yet",
      description:
        "The quantity waits unplaced until putaway. The scanning device's scan_id makes the scan safe to send again: the same id records the move once.",
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:write'], customer: 'customer_id' },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED', 'SCAN_ID_REUSED'],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/receive-stock' },
      graphql: 'receiveStock',
      input: z.object({
        warehouse_id: warehouseId,
        customer_id: idParam,
        sku: z.string().trim().min(1).max(64),
        quantity: z.int().min(1).max(1_000_000),
        scan_id: scanId,
      }),
      output: z.object({
        result: z.literal(true),
        outcome: z.enum(['received', 'already_received']),
        sku: z.string(),
        customer_id: z.int(),
        unplaced_quantity: z.int().describe('Units of this SKU waiting to be put away'),
      }),
      handler: (ctx, { warehouse_id, ...input }) =>
        warehouses.receiving.receiveStock(ctx, warehouse_id, input),
    }),
    defineOperation({
      name: 'putaway',
      summary: 'Putaway: move a received package, or a SKU quantity, to a location; never over its capacity',
      description:
        'Give a tracking_number to move a package, or sku, customer_id and quantity to move stock; the scan_id of a stock move makes it safe to send again.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:write'], customer: 'customer_id' },
      errors: [
        'WAREHOUSE_NOT_FOUND',
        'WAREHOUSE_ROLE_REQUIRED',
        'WAREHOUSE_LOCATION_NOT_FOUND',
        'PACKAGE_NOT_IN_WAREHOUSE',
        'LOCATION_FULL',
        'STOCK_NOT_ENOUGH',
        'TRACKING_NOT_FOUND',
        'SCAN_ID_REUSED',
      ],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/putaway' },
      graphql: 'putaway',
      input: z
        .object({
          warehouse_id: warehouseId,
          location_id: idParam,
          tracking_number: trackingNumber.optional(),
          sku: z.string().trim().min(1).max(64).optional(),
          customer_id: idParam.optional(),
          quantity: z.int().min(1).max(1_000_000).optional(),
          from_location_id: idParam
            .optional()
            .describe('Stock: where it is taken from; default: not put away yet'),
          scan_id: scanId.optional().describe('Stock: required, as for receive_stock'),
        })
        .refine(
          (input) =>
            (input.tracking_number !== undefined) !==
            (input.sku !== undefined &&
              input.customer_id !== undefined &&
              input.quantity !== undefined &&
              input.scan_id !== undefined),
          {
            message: 'give tracking_number, or sku with customer_id, quantity and scan_id',
            path: ['tracking_number'],
          },
        ),
      output: z.object({
        result: z.literal(true),
        outcome: z.enum(['moved', 'unchanged']),
        location: locationSchema,
      }),
      handler: (ctx, { warehouse_id, ...input }) => warehouses.receiving.putaway(ctx, warehouse_id, input),
    }),
    defineOperation({
      name: 'sort_package',
      summary: "Route sorting: the scan answers the package's staging lane and stop sequence for the date",
      description:
        "Scan a received package: it moves to its route's staging lane for the date (today by default), the route getting the first free lane on its first sorted package. A package on no route that day is answered no_route.",
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:write'] },
      errors: [
        'WAREHOUSE_NOT_FOUND',
        'WAREHOUSE_ROLE_REQUIRED',
        'PACKAGE_NOT_IN_WAREHOUSE',
        'TRACKING_NOT_FOUND',
        'NO_STAGING_LANE',
        'LOCATION_FULL',
      ],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/sort' },
      graphql: 'sortPackage',
      input: z.object({ warehouse_id: warehouseId, tracking_number: trackingNumber, date: date.optional() }),
      output: z.object({
        result: z.literal(true),
        outcome: z.enum(['sorted', 'already_sorted', 'no_route']),
        tracking_number: z.string(),
        date: z.string(),
        route: z
          .object({ id: z.int(), driver: z.object({ id: z.int(), name: z.string() }).nullable() })
          .nullable(),
        lane: z.object({ id: z.int(), code: z.string() }).nullable(),
        stop_sequence: z.int().nullable(),
      }),
      handler: (ctx, { warehouse_id, ...input }) => warehouses.routes.sort(ctx, warehouse_id, input),
    }),
    defineOperation({
      name: 'get_route_sorting',
      summary:
        "A day's route sorting at a warehouse: each route's lane, packages sorted and to sort, packages on no route",
      description:
        'Each route of the day (today by default) with its lane and its packages sorted and still to sort, and the packages held with no route that day.',
      tag: TAG_MOBILE,
      kind: 'query',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:read'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED'],
      rest: { method: 'GET', path: '/v1/warehouse/:warehouse_id/sorting' },
      graphql: 'routeSorting',
      input: z.object({ warehouse_id: warehouseId, date: date.optional() }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        routes: z.array(
          z.object({
            route_id: z.int(),
            driver: z
              .object({ id: z.int(), name: z.string() })
              .nullable()
              .describe('null while the route is open on a fleet route board'),
            lane: z.object({ id: z.int(), code: z.string() }).nullable(),
            sorted: z.array(z.string()),
            to_sort: z.array(z.string()),
          }),
        ),
        unrouted: z.array(z.string()).describe('Packages held here whose order is on no route that day'),
      }),
      handler: (ctx, { warehouse_id, ...input }) => warehouses.routes.sortPlan(ctx, warehouse_id, input),
    }),
    defineOperation({
      name: 'load_package',
      summary:
        "Route outbound: scan a package onto its route's van; a package not on the route is reported as extra",
      description:
        "Scanning a route's package loads it and frees its location; a package of another route or none is recorded as extra, not loaded. Scanning twice is harmless.",
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:write'] },
      errors: [
        'WAREHOUSE_NOT_FOUND',
        'WAREHOUSE_ROLE_REQUIRED',
        'ROUTE_NOT_FOUND',
        'ROUTE_ALREADY_DISPATCHED',
        'TRACKING_NOT_FOUND',
        'PACKAGE_NOT_IN_WAREHOUSE',
      ],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/routes/:route_id/load' },
      graphql: 'loadPackage',
      input: z.object({ warehouse_id: warehouseId, route_id: idParam, tracking_number: trackingNumber }),
      output: z.object({
        result: z.literal(true),
        outcome: z.enum(['loaded', 'already_loaded', 'extra']),
        tracking_number: z.string(),
        route_id: z.int(),
      }),
      handler: (ctx, input) =>
        warehouses.routes.load(ctx, input.warehouse_id, input.route_id, input.tracking_number),
    }),
    defineOperation({
      name: 'get_route_outbound',
      summary: "Route outbound: the route's packages loaded and missing, and the extra ones scanned",
      description:
        'Check a van before dispatch_route: what is loaded, what is missing, what was scanned by mistake, and what to unload because its order left the route.',
      tag: TAG_MOBILE,
      kind: 'query',
      risk: 'low',
      access: { kinds: SCANNERS, scopes: ['wms:read'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED', 'ROUTE_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/warehouse/:warehouse_id/routes/:route_id/outbound' },
      graphql: 'routeOutbound',
      input: z.object({ warehouse_id: warehouseId, route_id: idParam }),
      output: z.object({ result: z.literal(true), ...outboundReport }),
      handler: (ctx, input) => warehouses.routes.outbound(ctx, input.warehouse_id, input.route_id),
    }),
    defineOperation({
      name: 'dispatch_route',
      summary:
        'Route outbound: dispatch the route; its loaded packages go out for delivery, missing and extra ones are reported',
      description:
        'Loaded packages leave the warehouse and their orders go OUT_FOR_DELIVERY; missing, extra and to-unload packages are reported and stay. Dispatching again changes nothing.',
      tag: TAG_MOBILE,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: SCANNERS, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED', 'ROUTE_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/warehouse/:warehouse_id/routes/:route_id/dispatch' },
      graphql: 'dispatchRoute',
      input: z.object({ warehouse_id: warehouseId, route_id: idParam }),
      output: z.object({
        result: z.literal(true),
        outcome: z.enum(['dispatched', 'already_dispatched']),
        ...outboundReport,
      }),
      handler: (ctx, input) => warehouses.routes.dispatchRoute(ctx, input.warehouse_id, input.route_id),
    }),
    defineOperation({
      name: 'transfer_packages',
      summary:
        'Warehouse transfer: move mis-received local-delivery packages to another warehouse, all or none',
      description:
        'One package or a batch: when any package cannot move, nothing moves and TRANSFER_REFUSED lists each failing package with its reason.',
      tag: TAG_TRANSFER,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: STAFF, scopes: ['wms:write'] },
      errors: ['WAREHOUSE_NOT_FOUND', 'WAREHOUSE_ROLE_REQUIRED', 'TRANSFER_REFUSED'],
      rest: { method: 'POST', path: '/v1/client/warehouse-transfers' },
      graphql: 'transferPackages',
      input: z
        .object({
          from_warehouse_id: idParam,
          to_warehouse_id: idParam,
          tracking_numbers: z.array(trackingNumber).min(1).max(MAX_BATCH),
          note: z.string().trim().max(500).optional(),
        })
        .refine((input) => input.from_warehouse_id !== input.to_warehouse_id, {
          message: 'must differ from from_warehouse_id',
          path: ['to_warehouse_id'],
        }),
      output: z.object({ result: z.literal(true), transfer: transferSchema }),
      handler: (ctx, input) => warehouses.transfers.transfer(ctx, input),
    }),
    defineOperation({
      name: 'rollback_warehouse_transfer',
      summary:
        'Warehouse transfer: roll a committed transfer back whole, while none of its packages has moved since',
      description:
        'Use it when a transfer was a mistake: every package goes back to the source warehouse, or none does when one has moved since. A transfer rolls back once.',
      tag: TAG_TRANSFER,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: STAFF, scopes: ['wms:write'] },
      errors: ['TRANSFER_NOT_FOUND', 'TRANSFER_NOT_REVERSIBLE', 'WAREHOUSE_ROLE_REQUIRED'],
      rest: { method: 'POST', path: '/v1/client/warehouse-transfers/:transfer_id/rollback' },
      graphql: 'rollbackWarehouseTransfer',
      input: z.object({ transfer_id: idParam }),
      output: z.object({ result: z.literal(true), transfer: transferSchema }),
      handler: (ctx, input) => warehouses.transfers.rollbackTransfer(ctx, input.transfer_id),
    }),
  ];
}
