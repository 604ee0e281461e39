import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import {
  actingBusinessParam,
  calendarDate,
  idParam as id,
  timeWindowSchema,
} from '../../platform/schemas.ts';
import {
  DEFAULT_DISPATCH_SETTINGS,
  DEFAULT_TIME_LIMIT_MS,
  JOB_TIME_LIMIT_MS,
  MAX_TIME_LIMIT_MS,
  OBJECTIVES,
} from './planning.ts';
import { capacityInput, capacitySchema, driverSchema, routeSchema } from './schemas.ts';
import type { DispatchService } from './service.ts';
import { LOCKER_RESERVATION_RULES } from './tables.ts';

/** Staff, and contractors within their own fleet and pool. */
const PLANNERS = [...STAFF, 'contractor'] as const;

const settingsSchema = z.object({
  preparation_minutes: z
    .int()
    .min(0)
    .max(720)
    .describe('Planning today, no route leaves earlier than now plus this many minutes'),
  circuity_factor: z
    .number()
    .min(1)
    .max(3)
    .describe('Without a routing engine: road distance over straight-line distance'),
  average_speed_kmh: z
    .number()
    .min(1)
    .max(150)
    .describe('Without a routing engine: the speed straight-line legs are driven at'),
  locker_reservation: z
    .enum(LOCKER_RESERVATION_RULES)
    .describe(
      'A locker compartment reserved for an order on a route: its open delivery stop becomes a drop at the locker site (drop_at_locker, re-timed there), or the order leaves the route for the planning pool (take_off_route)',
    ),
});

export function dispatchOperations(dispatch: DispatchService): Operation[] {
  return [
    defineOperation({
      name: 'create_depot',
      summary: 'Add a depot, where drivers start and end their routes',
      description:
        "Drivers' working profiles name a depot; route building starts and ends each driver's route there.",
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
      description:
        "Route building plans only drivers with a profile, a depot and available set. A contractor_company_id puts the driver in that company's fleet, which must work for the business.",
      tag: 'DriverInfo',
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
        capacity: capacityInput,
        shift: timeWindowSchema,
        skills: z
          .array(z.string().trim().min(1).max(40))
          .max(20)
          .optional()
          .describe(
            "Replaces the driver's skills; left out, a saved profile keeps its own. set_driver_skills checks them against the catalogue",
          ),
        available: z.boolean().optional(),
      }),
      output: z.object({ result: z.literal(true), driver: driverSchema }),
      handler: (ctx, input) => dispatch.setDriverProfile(ctx, input),
    }),
    defineOperation({
      name: 'get_drivers',
      summary: 'The drivers of the business with their working profiles (a contractor: its own)',
      description:
        "Each driver's working profile: depot, vehicle type and capacity, shift, skills and availability. Read it before planning.",
      tag: 'DriverInfo',
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
      description:
        "Driver accounts may ask for their own routes; the driver's app reads get_my_routes (GET /api/v1/driver/routes), which gives each stop's address, contact, window and parcels.",
      tag: 'DriverInfo',
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
      description:
        "Each route with its driver, status, lock, times, distance, load and stops in order. Filter by date or driver; a contractor sees its company's fleet's routes.",
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
      description:
        "The route's driver, status, distance, departure and return, load, and each stop with its order and planned arrival and departure.",
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
      summary: 'What route building would work with for a date: drivers, depots, pool, limits',
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
        drivers: z.array(
          driverSchema.extend({
            shift_from: z
              .enum(['calendar', 'profile'])
              .describe(
                "calendar: the driver's fleet shift that date is its working window (profile.shift, and profile.depot_id when the shift names a depot); profile: its profile's hours",
              ),
          }),
        ),
        depots: z.array(z.object({ id: z.int(), name: z.string(), lat: z.number(), lng: z.number() })),
        pool: z.object({ orders: z.int(), without_location: z.int() }),
        constraints: z.object({
          distance: z
            .enum(['osrm', 'straight_line'])
            .describe(
              "Where distances come from: a routing engine, or straight lines (a route's distance_source says what answered)",
            ),
          speed_kmh: z.number().describe('Straight-line legs are driven at this average speed'),
          circuity_factor: z.number().describe('Straight-line distance is multiplied by this'),
          preparation_minutes: z.int(),
          earliest_departure: z
            .string()
            .nullable()
            .describe('For today: the earliest a route may leave (now plus preparation), local HH:MM'),
          objectives: z.array(z.enum(OBJECTIVES)),
          default_objective: z.enum(OBJECTIVES),
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
        'between. Serves as many orders as it can, then minimises the objective: least_distance (default) the total ' +
        'distance; fewest_vehicles as few routes as the search finds (each vehicle used costs more than any distance); ' +
        'balanced the total distance plus 1 km for each minute between the longest and the shortest route over the ' +
        'drivers planned with (an idle one counts 0). Distances and times come from the routing engine (OSRM) when one ' +
        "is configured and answers, else straight lines times the business's circuity factor at its average speed. " +
        'Regret insertion, then a ruin-and-recreate search (SISR) ' +
        `that keeps improving for time_limit_ms (default ${DEFAULT_TIME_LIMIT_MS}, at most ${MAX_TIME_LIMIT_MS}) unless it ` +
        'settles first. A date before today (business time zone) is refused with DATE_IN_PAST; planning today, no ' +
        'route leaves before now plus the preparation time (dispatch settings). A rebuild of a date replans the ' +
        "date's routes of the drivers planned with that are unlocked, still planned, with every stop pending, together " +
        'with the unplanned pool: those routes are dissolved and their orders planned again. Locked, started and ' +
        'finished routes, and routes with a stop done or under way, stay as they are, and their drivers get no second ' +
        'route. Assigned orders become PLANNED. Answers the routes (each with duration, distance, load and ' +
        'distance_source), every order left out with its reason, totals, what the rebuild kept, and how long the ' +
        `search ran. Over REST, a time_limit_ms of ${JOB_TIME_LIMIT_MS} or more, or \`Prefer: respond-async\`, answers ` +
        '202 with a job to poll at its Location (get_job, docs/jobs.md) instead.',
      tag: 'Dispatch',
      kind: 'mutation',
      expensive: true,
      risk: 'high',
      tool: {
        developer: 'build_route',
        user: 'build_route',
        guide:
          "Plan a date's waiting orders onto the drivers' routes within capacity, windows, shifts and skills; answers routes and orders left out with reasons. Rebuilding keeps locked and started routes. Call get_build_route_options first.",
      },
      confirm: true,
      // A long search answers 202 with a job over REST (docs/jobs.md); the solver's budget and the
      // loading and saving around it are what one run may take.
      job: {
        when: (input) => input.time_limit_ms >= JOB_TIME_LIMIT_MS,
        budgetSeconds: (input) => Math.ceil(input.time_limit_ms / 1000) + 5,
      },
      access: { kinds: PLANNERS, scopes: ['routes:write'], business: 'acting' },
      // Its searches run on the solver threads, shared with packing and loading (docs/dispatch.md).
      errors: ['BUSINESS_REQUIRED', 'DATE_IN_PAST', 'SOLVER_BUSY'],
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
        objective: z
          .enum(OBJECTIVES)
          .default('least_distance')
          .describe(
            'least_distance: shortest total distance; fewest_vehicles: as few routes as possible; balanced: even route durations across drivers',
          ),
      }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        objective: z.enum(OBJECTIVES),
        distance_source: z
          .string()
          .describe(
            "'osrm' when the routing engine answered, 'straight_line' when it is not configured or failed",
          ),
        earliest_departure: z
          .string()
          .nullable()
          .describe('Planning today: the earliest a route could leave (now plus preparation), local HH:MM'),
        routes: z.array(routeSchema),
        unassigned: z.array(
          z.object({
            order_id: z.int(),
            order_ref: z.string(),
            reason: z.enum(['no_location', 'capacity', 'skills', 'time_window', 'fleet_full']),
            fix: z
              .object({ operation: z.string(), method: z.literal('PUT'), path: z.string() })
              .nullable()
              .describe(
                'What places the order so that it can be planned: set_order_location for no_location; null for the other reasons',
              ),
          }),
        ),
        totals: z.object({
          orders: z.int(),
          assigned: z.int(),
          unassigned: z.int(),
          routes: z.int(),
          distance_meters: z.int(),
          duration_minutes: z.int().describe('Sum of the routes’ durations'),
          longest_route_minutes: z.int(),
          shortest_route_minutes: z.int(),
          load: capacitySchema,
        }),
        rebuild: z
          .object({ replanned_routes: z.int(), kept_route_ids: z.array(z.int()) })
          .describe(
            "The date's earlier routes this build dissolved and planned again, and those it left as they are (locked, started, finished, or with a stop done)",
          ),
        search: z
          .object({ time_limit_ms: z.int(), elapsed_ms: z.int(), iterations: z.int() })
          .describe('How long the search ran (solver only) and how many ruin-and-recreate rounds it made'),
      }),
      handler: (ctx, input) => dispatch.buildRoutes(ctx, input),
    }),
    defineOperation({
      name: 'get_dispatch_settings',
      summary: 'How the business plans routes: preparation time, and the straight-line stand-in for roads',
      description:
        'The preparation time before a route leaves, the circuity factor and average speed that stand in for road distances when no routing engine answers, and what a locker reservation does to a routed order; defaults until the business saves its own.',
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['routes:read'] },
      rest: { method: 'GET', path: '/v1/client/dispatch-settings' },
      graphql: 'dispatchSettings',
      input: z.object({}),
      output: z.object({ result: z.literal(true), settings: settingsSchema }),
      handler: (ctx) => dispatch.dispatchSettings(ctx),
    }),
    defineOperation({
      name: 'update_dispatch_settings',
      summary: 'Change how the business plans routes; fields left out keep their value',
      description:
        `Defaults: preparation_minutes ${DEFAULT_DISPATCH_SETTINGS.preparation_minutes}, circuity_factor ` +
        `${DEFAULT_DISPATCH_SETTINGS.circuity_factor}, average_speed_kmh ${DEFAULT_DISPATCH_SETTINGS.average_speed_kmh}, ` +
        `locker_reservation ${DEFAULT_DISPATCH_SETTINGS.locker_reservation}. ` +
        'The circuity factor and the speed are used when no routing engine answers; locker_reservation says what a locker reservation does to a routed order.',
      tag: 'Dispatch',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      rest: { method: 'PUT', path: '/v1/client/dispatch-settings' },
      graphql: 'updateDispatchSettings',
      input: settingsSchema.partial(),
      output: z.object({ result: z.literal(true), settings: settingsSchema }),
      handler: (ctx, input) => dispatch.updateDispatchSettings(ctx, input),
    }),
  ];
}
