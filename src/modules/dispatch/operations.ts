import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import {
  actingBusinessParam,
  calendarDate,
  idParam as id,
  timeWindowSchema,
} from '../../platform/schemas.ts';
import { driverSchema, routeSchema } from './schemas.ts';
import { DEFAULT_TIME_LIMIT_MS, type DispatchService, MAX_TIME_LIMIT_MS } from './service.ts';

const STAFF = ['client_admin', 'employee'] as const;
/** Staff, and contractors within their own fleet and pool. */
const PLANNERS = ['client_admin', 'employee', 'contractor'] as const;

export function dispatchOperations(dispatch: DispatchService): Operation[] {
  return [
    defineOperation({
      name: 'create_depot',
      summary: 'Add a depot, where drivers start and end their routes',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      rest: { method: 'POST', path: '/v1/client/depots' },
      graphql: 'createDepot',
      input: z.object({
        name: z.string().trim().min(1).max(200),
        lat: z.number().min(-90).max(90),
        lng: z.number().min(-180).max(180),
      }),
      output: z.object({
        result: z.literal(true),
        depot: z.object({ id: z.int(), name: z.string(), lat: z.number(), lng: z.number() }),
      }),
      handler: (ctx, input) => dispatch.createDepot(ctx, input),
    }),
    defineOperation({
      name: 'set_driver_profile',
      summary: "Set a driver's vehicle, capacity, working hours, skills and availability",
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      rest: { method: 'PUT', path: '/v1/client/drivers/:driver_id/profile' },
      graphql: 'setDriverProfile',
      errors: ['DRIVER_NOT_FOUND', 'DEPOT_NOT_FOUND', 'CONTRACTOR_NOT_ENGAGED'],
      input: z.object({
        driver_id: id,
        contractor_company_id: z
          .int()
          .positive()
          .nullable()
          .optional()
          .describe('A contractor company the driver drives for; absent or null: the business itself'),
        depot_id: z.int().positive().nullable().optional(),
        vehicle_type: z.string().trim().min(1).max(40).optional(),
        capacity: z.object({
          weight_grams: z.int().positive().max(100_000_000),
          volume_cm3: z.int().positive().max(1_000_000_000),
          count: z.int().positive().max(10_000),
        }),
        shift: timeWindowSchema,
        skills: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
        available: z.boolean().optional(),
      }),
      output: z.object({ result: z.literal(true), driver: driverSchema }),
      handler: (ctx, input) => dispatch.setDriverProfile(ctx, input),
    }),
    defineOperation({
      name: 'get_drivers',
      summary:
        "The drivers of the business with their working profiles; a contractor's own fleet for contractors",
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_drivers',
        guide:
          "The business's drivers with their working profile (depot, vehicle capacity, shift, skills, availability). Use it before planning.",
        idempotent: true,
      },
      access: { kinds: PLANNERS, scopes: ['drivers:read'], business: 'acting' },
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v1/client/drivers' },
      graphql: 'drivers',
      input: z.object({ business_id: actingBusinessParam }),
      output: z.object({ result: z.literal(true), drivers: z.array(driverSchema) }),
      handler: async (ctx) => ({
        result: true as const,
        drivers: await dispatch.visibleDrivers(ctx),
      }),
    }),
    defineOperation({
      name: 'get_driver_routes_today',
      summary: "A driver's routes for today, in the business's time zone",
      description: 'Driver accounts may ask for their own routes.',
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_driver_routes_today',
        guide: "A driver's routes for today in the business's time zone, with their stops.",
        idempotent: true,
      },
      access: { kinds: [...STAFF, 'driver'], scopes: ['routes:read', 'drivers:read'] },
      errors: ['DRIVER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/drivers/:driver_id/routes/today' },
      graphql: 'driverRoutesToday',
      input: z.object({ driver_id: id }),
      output: z.object({ result: z.literal(true), date: z.string(), routes: z.array(routeSchema) }),
      handler: async (ctx, input) => ({
        result: true as const,
        ...(await dispatch.driverRoutesToday(ctx, input.driver_id)),
      }),
    }),
    defineOperation({
      name: 'get_routes',
      summary: "Routes of a date or a driver, newest first; a contractor's fleet's for contractors",
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_routes',
        guide:
          "Routes of the business (or a contractor's fleet), newest date first, optionally for one date or driver, with their stops in order.",
        idempotent: true,
      },
      access: { kinds: PLANNERS, scopes: ['routes:read'], business: 'acting' },
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v1/client/routes' },
      graphql: 'routes',
      input: z.object({
        date: calendarDate.optional(),
        driver_id: id.optional(),
        business_id: actingBusinessParam,
      }),
      output: z.object({ result: z.literal(true), routes: z.array(routeSchema) }),
      handler: async (ctx, input) => ({ result: true as const, routes: await dispatch.routes(ctx, input) }),
    }),
    defineOperation({
      name: 'get_route_detail',
      summary: 'One route with its stops in order',
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_route_detail',
        guide:
          "One route by id: driver, distance, departure and return, and each stop's order and planned times.",
        idempotent: true,
      },
      access: { kinds: PLANNERS, scopes: ['routes:read'], business: 'acting' },
      errors: ['ROUTE_NOT_FOUND', 'BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v1/client/routes/:route_id' },
      graphql: 'route',
      input: z.object({ route_id: id, business_id: actingBusinessParam }),
      output: z.object({ result: z.literal(true), route: routeSchema }),
      handler: async (ctx, input) => ({
        result: true as const,
        route: await dispatch.route(ctx, input.route_id),
      }),
    }),
    defineOperation({
      name: 'get_build_route_options',
      summary:
        'What route building would work with for a date: drivers, depots, the planning pool, constraints',
      description: 'Call before build_route. For a contractor: its pool and its fleet.',
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_build_route_options',
        user: 'get_build_route_options',
        guide:
          "What build_route would work with for a date: available drivers with capacity and shift, depots, how many orders wait to be planned (and how many lack coordinates), and the solver's limits. Call it before build_route.",
        idempotent: true,
      },
      access: { kinds: PLANNERS, scopes: ['routes:read'], business: 'acting' },
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v3/client/build-route/options' },
      graphql: 'buildRouteOptions',
      input: z.object({ date: calendarDate, business_id: actingBusinessParam }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        drivers: z.array(driverSchema),
        depots: z.array(z.object({ id: z.int(), name: z.string(), lat: z.number(), lng: z.number() })),
        pool: z.object({ orders: z.int(), without_location: z.int() }),
        constraints: z.object({
          distance: z.literal('straight_line'),
          speed_kmh: z.number(),
          default_service_minutes: z.int(),
          default_time_limit_ms: z.int(),
          max_time_limit_ms: z.int(),
          respects: z.array(z.string()),
        }),
      }),
      handler: (ctx, input) => dispatch.buildRouteOptions(ctx, input.date),
    }),
    defineOperation({
      name: 'build_route',
      summary: "Build routes for a date from the caller's planning pool",
      description:
        "Plans the caller's pool (the business's staff: every unplanned self-delivery order of the date, with the " +
        "business's own drivers; a contractor: the orders its rules give it, with its company's drivers) onto the " +
        'available drivers (each with a profile and a depot): ' +
        'respects vehicle capacity (weight, volume, parcel count) along the route, delivery time windows, driver shifts ' +
        'and skills; a P2P order is two stops of one route, its pickup before its delivery, its load on board in ' +
        'between. Minimises total straight-line distance: regret insertion, then a ruin-and-recreate search (SISR) ' +
        `that keeps improving for time_limit_ms (default ${DEFAULT_TIME_LIMIT_MS}, at most ${MAX_TIME_LIMIT_MS}) unless it ` +
        'settles first. Assigned orders become PLANNED. Answers the routes, every order left out with its reason, ' +
        'totals, and how long the search ran.',
      tag: 'Dispatch',
      kind: 'mutation',
      expensive: true,
      risk: 'high',
      tool: {
        developer: 'build_route',
        user: 'build_route',
        guide:
          "Plan a date's waiting orders onto the available drivers' routes (capacity, time windows, shifts, skills; a P2P order's pickup before its delivery on one route), replacing nothing already planned; answers routes and unassigned orders with reasons. time_limit_ms (default 2000, at most 10000) is how long the search may shorten the plan. Call get_build_route_options first. High risk: confirm=true executes; without it you get the plan as a preview.",
      },
      confirm: true,
      access: { kinds: PLANNERS, scopes: ['routes:write'], business: 'acting' },
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'POST', path: '/v3/client/build-route' },
      graphql: 'clientBuildRoute',
      input: z.object({
        date: calendarDate,
        business_id: actingBusinessParam,
        driver_ids: z
          .array(z.int().positive())
          .max(500)
          .optional()
          .describe('Only these drivers; default all available'),
        service_minutes: z.int().min(0).max(240).default(5),
        time_limit_ms: z
          .int()
          .min(0)
          .max(MAX_TIME_LIMIT_MS)
          .default(DEFAULT_TIME_LIMIT_MS)
          .describe(
            'How long the search may improve the plan, in milliseconds; more time, a plan as short or shorter',
          ),
      }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        routes: z.array(routeSchema),
        unassigned: z.array(
          z.object({
            order_id: z.int(),
            order_ref: z.string(),
            reason: z.enum(['no_location', 'capacity', 'skills', 'time_window', 'fleet_full']),
          }),
        ),
        totals: z.object({
          orders: z.int(),
          assigned: z.int(),
          unassigned: z.int(),
          routes: z.int(),
          distance_meters: z.int(),
        }),
        search: z
          .object({ time_limit_ms: z.int(), elapsed_ms: z.int(), iterations: z.int() })
          .describe('How long the search ran (solver only) and how many ruin-and-recreate rounds it made'),
      }),
      handler: (ctx, input) => dispatch.buildRoutes(ctx, input),
    }),
  ];
}
