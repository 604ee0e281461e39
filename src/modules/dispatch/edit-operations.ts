import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { PlanEdits } from './plan-edits.ts';
import { expectedPlanVersion, expectedToPlanVersion } from './plan-versions.ts';
import {
  capacityDimensionSchema,
  capacityInput,
  capacitySchema,
  routeSchema,
  stopLegSchema,
} from './schemas.ts';

/** Plan edits are the business's staff's: a contractor plans its fleet by building routes. */
const WRITE = { kinds: STAFF, scopes: ['routes:write'] } as const;

const vehicleSchema = z.object({
  id: z.int(),
  name: z.string(),
  vehicle_type: z.string(),
  capacity: capacitySchema,
  active: z.boolean(),
});

const violationSchema = z
  .object({
    route_id: z.int(),
    kind: z
      .enum(['time_window', 'capacity', 'shift', 'pickup_after_delivery', 'skills'])
      .describe(
        "time_window: a stop reached after its window closes; capacity: more on board than the vehicle takes; shift: back at the depot after the driver's shift ends; pickup_after_delivery: a P2P order's legs in the wrong order; skills: an order needs skills the route's driver lacks",
      ),
    order_id: z.int().optional(),
    leg: stopLegSchema.optional(),
    window: z.object({ start: z.string(), end: z.string() }).optional(),
    planned_arrival: z.string().optional(),
    late_minutes: z.int().optional(),
    dimension: capacityDimensionSchema.optional(),
    load: z.int().optional(),
    capacity: z.int().optional(),
    over: z.int().optional(),
    shift_end: z.string().optional(),
    return_time: z.string().optional(),
    over_minutes: z.int().optional(),
    missing_skills: z.array(z.string()).optional(),
  })
  .meta({ title: 'Violation' })
  .describe('A planning rule a route breaks, and by how much');

const editAnswer = z.object({
  result: z.literal(true),
  routes: z
    .array(
      routeSchema
        .extend({
          vehicle: z
            .object({ id: z.int(), name: z.string() })
            .nullable()
            .describe("The vehicle it drives; null: its driver's own (the profile's capacity)"),
        })
        .meta({ title: 'RouteWithVehicle' }),
    )
    .describe('The routes the edit changed, re-timed'),
  violations: z
    .array(violationSchema)
    .describe('Every rule the changed routes break now, their pending stops timed from now'),
  violations_confirmed: z
    .array(violationSchema)
    .describe('Those this edit brought, made anyway by confirm_violations (empty otherwise)'),
  lost_windows: z
    .array(violationSchema)
    .describe(
      'Windows lost before this edit, also among `violations`: time_window violations the routes as read already had, their pending stops timed from now (a route under way: from where its driver was last seen), that this edit does not make later, and any window that closed before now. Never refused, nothing to confirm',
    ),
});

const editOptions = {
  service_minutes: z
    .int()
    .min(0)
    .max(240)
    .default(5)
    .describe("Minutes at each pending stop, as build_route's service_minutes"),
  confirm_violations: z
    .boolean()
    .default(false)
    .describe(
      'Make the edit even if it breaks a window, a capacity, the shift or a pickup-before-delivery; without it such an edit is refused (PLAN_VIOLATION)',
    ),
  expected_plan_version: expectedPlanVersion,
};

const position = z
  .int()
  .positive()
  .optional()
  .describe(
    "Where the order's first stop goes in the route (1 = first; after any stop done, failed or arrived at); a P2P order's delivery goes to its best place after it. Absent: the cheapest place in added travel time",
  );

const EDIT_ERRORS = [
  'ROUTE_NOT_FOUND',
  'ROUTE_ON_BOARD',
  'ROUTE_FINISHED',
  'PLAN_VIOLATION',
  'ROUTE_PAST_MIDNIGHT',
  'DRIVER_WITHOUT_DEPOT',
  'CONCURRENT_UPDATE',
] as const;

export function planEditOperations(edits: PlanEdits): Operation[] {
  return [
    defineOperation({
      name: 'create_vehicle',
      summary: 'Add a vehicle a route can drive instead of its driver’s own',
      description:
        "A vehicle of the business's own, with its type and capacity; change_route_vehicle gives it to a route instead of its driver's vehicle.",
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      rest: { method: 'POST', path: '/v1/client/vehicles' },
      graphql: 'createVehicle',
      input: z.object({
        name: z.string().trim().min(1).max(200),
        vehicle_type: z.string().trim().min(1).max(40).default('van'),
        capacity: capacityInput,
        active: z.boolean().default(true),
      }),
      output: z.object({ result: z.literal(true), vehicle: vehicleSchema }),
      handler: (ctx, input) => edits.createVehicle(ctx, input),
    }),
    defineOperation({
      name: 'get_vehicles',
      summary: "The business's vehicles with their capacity",
      description: "Read it before change_route_vehicle to pick a vehicle that carries the route's load.",
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['routes:read'] },
      rest: { method: 'GET', path: '/v1/client/vehicles' },
      graphql: 'vehicles',
      input: z.object({}),
      output: z.object({ result: z.literal(true), vehicles: z.array(vehicleSchema) }),
      handler: async (ctx) => ({ result: true as const, vehicles: await edits.vehicles(ctx) }),
    }),
    defineOperation({
      name: 'assign_order_to_route',
      summary: 'Add an unplanned order to a route, at the cheapest or a given place',
      description:
        "The late-order case: the order joins a route that passes nearby instead of making a new one. It must be waiting in the caller's planning pool for the route's date (NEW_ORDER); it becomes PLANNED on the route with the route's driver. " +
        'Without `position` it goes where it adds the least travel time without breaking a rule (a P2P order: both legs, pickup first). ' +
        'The route is re-timed; an edit breaking a rule the route kept is refused with PLAN_VIOLATION unless `confirm_violations` is true.',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      tool: {
        user: 'assign_order_to_route',
        guide:
          "Add a waiting order of the route's date to a route, where it adds the least driving (or at `position`); for a late order instead of build_route. On PLAN_VIOLATION, tell the person what breaks before retrying with confirm_violations=true.",
      },
      access: WRITE,
      errors: [...EDIT_ERRORS, 'ORDER_NOT_FOUND', 'ORDER_NOT_PLANNABLE', 'SEQUENCE_INVALID'],
      rest: { method: 'POST', path: '/v1/client/routes/:route_id/stops' },
      graphql: 'assignOrderToRoute',
      input: z.object({ route_id: id, order_id: id, position, ...editOptions }),
      output: editAnswer,
      handler: (ctx, input) => edits.assignOrder(ctx, input),
    }),
    defineOperation({
      name: 'move_route_stop',
      summary: "Move an order's stop within its route or to another route",
      description:
        "Both legs of a P2P order move together. Without `position` the stop goes to its cheapest place. Stops done, failed or arrived at stay where they are (STOP_NOT_MOVABLE). Moved to another route, the order takes that route's driver. Answers the changed routes, re-timed.",
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'move_route_stop',
        guide:
          "Move an order's stop within its route or to another (to_route_id), where it adds the least driving or at `position`. On PLAN_VIOLATION retry with confirm_violations=true only if the person agrees.",
      },
      access: WRITE,
      errors: [...EDIT_ERRORS, 'STOP_NOT_ON_ROUTE', 'STOP_NOT_MOVABLE', 'SEQUENCE_INVALID'],
      rest: { method: 'POST', path: '/v1/client/routes/:route_id/stops/:order_id/move' },
      graphql: 'moveRouteStop',
      input: z.object({
        route_id: id,
        order_id: id,
        to_route_id: id.optional().describe('The route it moves to; absent: its own'),
        position,
        ...editOptions,
        expected_to_plan_version: expectedToPlanVersion,
      }),
      output: editAnswer,
      handler: (ctx, input) => edits.moveStop(ctx, input),
    }),
    defineOperation({
      name: 'remove_route_stop',
      summary: 'Take an order off its route, back to the planning pool',
      description:
        'The order becomes NEW_ORDER again (its tracking shows it taken off the route) and the route is re-timed without it.',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'remove_route_stop',
        guide:
          'Take an order off its route: it goes back to the planning pool (NEW_ORDER) and the route is re-timed. Stops done, failed or arrived at cannot be taken off.',
      },
      access: WRITE,
      errors: [...EDIT_ERRORS, 'STOP_NOT_ON_ROUTE', 'STOP_NOT_MOVABLE', 'ILLEGAL_STATUS_TRANSITION'],
      rest: { method: 'DELETE', path: '/v1/client/routes/:route_id/stops/:order_id' },
      graphql: 'removeRouteStop',
      input: z.object({
        route_id: id,
        order_id: id,
        service_minutes: editOptions.service_minutes,
        expected_plan_version: expectedPlanVersion,
      }),
      output: editAnswer,
      handler: (ctx, input) => edits.removeStop(ctx, input),
    }),
    defineOperation({
      name: 'resequence_route',
      summary: "Put a route's stops in a given order, or the best order for its vehicle",
      description:
        '`stops` names each pending stop after those done, failed or arrived at, once, in the new order (`leg` only for a P2P order). ' +
        '`optimize: true` instead finds the order with the fewest broken rules and the least driving for this route alone.',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'resequence_route',
        guide:
          "Re-order one route's pending stops: give `stops` in the wanted order, or optimize=true for the shortest order that keeps windows, capacity and shift. Answers the re-timed route.",
      },
      access: WRITE,
      errors: [...EDIT_ERRORS, 'SEQUENCE_INVALID'],
      rest: { method: 'POST', path: '/v1/client/routes/:route_id/sequence' },
      graphql: 'resequenceRoute',
      input: z.object({
        route_id: id,
        stops: z
          .array(z.object({ order_id: id, leg: stopLegSchema.optional() }))
          .max(1000)
          .optional()
          .describe('The pending stops in their new order; either this or optimize'),
        optimize: z.boolean().optional().describe('true: the best order for this route alone'),
        ...editOptions,
      }),
      output: editAnswer,
      handler: (ctx, input) => edits.resequence(ctx, input),
    }),
    defineOperation({
      name: 'change_route_driver',
      summary: "Give a route another driver; its orders' driver follows",
      description:
        "The route is re-timed from the new driver's depot and shift (and capacity, when the route has no vehicle of its own).",
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...EDIT_ERRORS, 'DRIVER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/routes/:route_id/driver' },
      graphql: 'changeRouteDriver',
      input: z.object({ route_id: id, driver_id: id, ...editOptions }),
      output: editAnswer,
      handler: (ctx, input) => edits.changeDriver(ctx, input),
    }),
    defineOperation({
      name: 'change_route_vehicle',
      summary: 'Give a route a vehicle of the business, or its driver’s own again',
      description:
        "`vehicle_id: null`: the capacity of the driver's profile. The route's load is checked against the new capacity.",
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...EDIT_ERRORS, 'VEHICLE_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/routes/:route_id/vehicle' },
      graphql: 'changeRouteVehicle',
      input: z.object({ route_id: id, vehicle_id: id.nullable(), ...editOptions }),
      output: editAnswer,
      handler: (ctx, input) => edits.changeVehicle(ctx, input),
    }),
    defineOperation({
      name: 'lock_route',
      summary: 'Lock a route: a rebuild leaves it as it is',
      description:
        'Lock a route a dispatcher has arranged by hand: build_route then plans around it, while edits of its stops still apply.',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'low',
      tool: {
        user: 'lock_route',
        guide: 'Lock a route so that build_route leaves it as it is (edits still apply).',
      },
      access: WRITE,
      errors: ['ROUTE_NOT_FOUND', 'ROUTE_ON_BOARD', 'CONCURRENT_UPDATE'],
      rest: { method: 'POST', path: '/v1/client/routes/:route_id/lock' },
      graphql: 'lockRoute',
      input: z.object({ route_id: id, expected_plan_version: expectedPlanVersion }),
      output: editAnswer,
      handler: (ctx, input) => edits.setLocked(ctx, input.route_id, true, input.expected_plan_version),
    }),
    defineOperation({
      name: 'unlock_route',
      summary: 'Unlock a route: a rebuild may plan it anew',
      description: "Undo lock_route: the next build_route may replan the route's orders.",
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'low',
      tool: {
        user: 'unlock_route',
        guide:
          'Unlock a route so that the next build_route of its date may plan its orders anew, unless it has started.',
      },
      access: WRITE,
      errors: ['ROUTE_NOT_FOUND', 'ROUTE_ON_BOARD', 'CONCURRENT_UPDATE'],
      rest: { method: 'POST', path: '/v1/client/routes/:route_id/unlock' },
      graphql: 'unlockRoute',
      input: z.object({ route_id: id, expected_plan_version: expectedPlanVersion }),
      output: editAnswer,
      handler: (ctx, input) => edits.setLocked(ctx, input.route_id, false, input.expected_plan_version),
    }),
  ];
}
