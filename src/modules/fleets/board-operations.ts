import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { calendarDate, currencyCode, idParam as id } from '../../platform/schemas.ts';
import { DEFAULT_WITHDRAWAL_CUTOFF_MINUTES, HISTORY_LIMIT, type RouteBoard } from './board.ts';
import { BOARD_ACTIONS } from './tables.ts';

const TAG = 'Driver Route Board';
/** A fleet's board: its drivers, its captains and staff read it; what each may see is the service's rule. */
const SEE = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:read'] };
/** Staff and the fleet's captains run its board. */
const LEAD = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:write'] };
/** A driver's own board reads. */
const DRIVER_READ = { kinds: ['driver'] as const, scopes: ['fleets:read'] };
/** A driver's own claims, standby and withdrawals: driving work. */
const DRIVE = { kinds: ['driver'] as const, scopes: ['routes:drive'] };

const window = z.object({ start: z.string(), end: z.string() }).describe('Local time of the business, HH:MM');
const person = z.object({ id: z.int(), name: z.string() }).meta({ title: 'BoardPerson' });
const boardRoute = z
  .object({
    route_id: z.int(),
    fleet_id: z.int(),
    date: z.string(),
    state: z
      .enum(['open', 'claimed'])
      .meta({ title: 'BoardRouteState' })
      .describe('open: nobody holds it, any driver of the fleet may claim it'),
    window: window.describe(
      "Departure from and return to the depot as published (the built-for driver's timing)",
    ),
    stops: z.int(),
    distance_meters: z.int(),
    area: z
      .object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() })
      .meta({ title: 'BoundingBox' })
      .nullable()
      .describe('The box its stops lie in, rounded outwards to 0.01 degree; null when no stop is placed'),
    pay: z
      .object({
        amount: z.number().describe('Major units'),
        amount_minor: z.int(),
        currency: z.string(),
      })
      .meta({ title: 'BoardRoutePay' })
      .nullable()
      .describe('What the business pays for the route; null when it set nothing'),
    claimant: person.nullable().describe('The driver holding the route; null while open'),
    route_status: z.string().describe('The route itself: planned, started, finished'),
    standby: z.object({
      length: z.int(),
      my_position: z
        .int()
        .nullable()
        .describe("The calling driver's place in the queue (1 = next); null when not in it"),
    }),
    published_at: z.string(),
  })
  .meta({ title: 'BoardRoute' });
const driverAnswer = z.object({ result: z.literal(true), route: boardRoute });
const ledAnswer = z.object({
  result: z.literal(true),
  route: boardRoute
    .extend({
      queue: z.array(
        z
          .object({ position: z.int(), driver: person, joined_at: z.string() })
          .meta({ title: 'BoardStandbyEntry' }),
      ),
      history: z
        .array(
          z
            .object({
              action: z.enum(BOARD_ACTIONS).meta({ title: 'BoardRouteAction' }),
              driver: person.nullable().describe('The driver the step is about'),
              actor: person.nullable().describe('Who took the step'),
              details: z.record(z.string(), z.unknown()),
              at: z.string(),
            })
            .meta({ title: 'BoardRouteStep' }),
        )
        .describe(`In the order it happened; the latest ${HISTORY_LIMIT} steps`),
    })
    .meta({ title: 'FleetBoardRoute' }),
});
const settingsAnswer = z.object({
  result: z.literal(true),
  settings: z.object({ withdrawal_cutoff_minutes: z.int() }),
});

const FLEET_ERRORS = ['FLEET_NOT_FOUND', 'FLEET_CAPTAIN_REQUIRED', 'ROUTE_NOT_ON_BOARD'] as const;
const RULES = ['BOARD_WINDOW_OVERLAP', 'BOARD_OUTSIDE_SHIFT', 'DRIVER_WITHOUT_DEPOT'] as const;
/** What binds a driver asking for a route itself (claim, standby), and not staff or captains assigning it. */
const DRIVER_RULES = [...RULES, 'BOARD_WINDOW_PASSED', 'BOARD_OFF_SHIFT'] as const;
const onFleet = { fleet_id: id, route_id: id };

export function routeBoardOperations(board: RouteBoard): Operation[] {
  return [
    defineOperation({
      name: 'publish_board_route',
      summary: "Publish a built route to a fleet's route board for its date, optionally with pay",
      description:
        "A route still planned with every stop pending leaves its driver (and its orders theirs) and waits, open, on the fleet's board until a driver of the fleet claims it. The board shows its window, stops, distance and area as published; it stays locked against rebuilds while on the board. Staff, or a captain of the fleet.",
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: LEAD,
      errors: [...FLEET_ERRORS, 'ROUTE_NOT_FOUND', 'ROUTE_NOT_PUBLISHABLE'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/board/routes' },
      graphql: 'publishBoardRoute',
      input: z.object({
        fleet_id: id,
        route_id: id,
        pay: z
          .object({ amount_minor: z.int().min(0).max(100_000_000), currency: currencyCode })
          .optional()
          .describe('What the business pays the driver for the route, in minor units (cents)'),
      }),
      output: ledAnswer,
      handler: (ctx, input) => board.publish(ctx, input),
    }),
    defineOperation({
      name: 'get_route_board',
      summary: "A fleet's route board of a day: its routes, open or claimed, with their queues",
      description:
        "Drivers of the fleet, its captains and staff; anyone else is FLEET_NOT_FOUND. Each route shows its window, stops, distance, area, pay, who holds it, how long its standby queue is and the calling driver's place in it.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      errors: ['FLEET_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/fleets/:fleet_id/board' },
      graphql: 'routeBoard',
      input: z.object({ fleet_id: id, date: calendarDate }),
      output: z.object({
        result: z.literal(true),
        fleet_id: z.int(),
        date: z.string(),
        routes: z.array(boardRoute),
      }),
      handler: (ctx, input) => board.board(ctx, input.fleet_id, input.date),
    }),
    defineOperation({
      name: 'get_fleet_board_route',
      summary: "A route of a fleet's board with its standby queue in order and its history",
      description:
        'Every publication, claim, standby join and leave, withdrawal, promotion, pull-back and reassignment, with who took the step. Staff, or a captain of the fleet.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      errors: [...FLEET_ERRORS],
      rest: { method: 'GET', path: '/v1/client/fleets/:fleet_id/board/routes/:route_id' },
      graphql: 'fleetBoardRoute',
      input: z.object(onFleet),
      output: ledAnswer,
      handler: (ctx, input) => board.entry(ctx, input.fleet_id, input.route_id),
    }),
    defineOperation({
      name: 'release_board_route',
      summary: 'Take the claimant off a board route, at any time: its first standby driver is promoted',
      description:
        "What a claimant's withdrawal does, without the cutoff: the first driver of the queue who may still take the route gets it and is told (MQTT push, route_board.promoted webhook); with nobody waiting the route is open again. Staff, or a captain of the fleet.",
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: LEAD,
      errors: [...FLEET_ERRORS, 'BOARD_ROUTE_OPEN', 'ROUTE_NOT_PUBLISHABLE'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/board/routes/:route_id/release' },
      graphql: 'releaseBoardRoute',
      input: z.object(onFleet),
      output: ledAnswer,
      handler: (ctx, input) => board.release(ctx, input.fleet_id, input.route_id),
    }),
    defineOperation({
      name: 'pull_back_board_route',
      summary: 'Take a route off the board: back to the driver it was built for, or to a named driver',
      description:
        'The route gets the driver (timed for their profile) and the lock it had before publication; its standby queue is emptied and its board history kept. Staff, or a captain of the fleet.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: LEAD,
      errors: [...FLEET_ERRORS, 'DRIVER_NOT_FOUND', 'DRIVER_WITHOUT_DEPOT', 'ROUTE_FINISHED'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/board/routes/:route_id/pull-back' },
      graphql: 'pullBackBoardRoute',
      input: z.object({
        ...onFleet,
        driver_id: id
          .optional()
          .describe('A driver of the business; absent: the driver the route was built for'),
      }),
      output: z.object({
        result: z.literal(true),
        route: z.object({
          id: z.int(),
          driver: person.nullable(),
          status: z.string(),
          locked: z.boolean(),
          departure: z.string(),
          return_time: z.string(),
        }),
      }),
      handler: (ctx, input) => board.pullBack(ctx, input),
    }),
    defineOperation({
      name: 'reassign_board_route',
      summary: 'Give a board route to a driver of the fleet, ahead of its standby queue',
      description:
        'The driver must be a member of the fleet and have room for the route (no overlapping route that day, within their shift if they have one); they leave the queue if they were in it. Unlike a claim, it may give a route whose departure has passed, or a driver with no shift that day. Staff, or a captain of the fleet.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: LEAD,
      errors: [...FLEET_ERRORS, ...RULES, 'DRIVER_NOT_FOUND', 'BOARD_ROUTE_HELD'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/board/routes/:route_id/reassign' },
      graphql: 'reassignBoardRoute',
      input: z.object({ ...onFleet, driver_id: id }),
      output: ledAnswer,
      handler: (ctx, input) => board.reassign(ctx, input),
    }),
    defineOperation({
      name: 'clear_board_standby',
      summary: "Empty a board route's standby queue",
      description:
        'The drivers who were waiting are named in the history line. Staff, or a captain of the fleet.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: LEAD,
      errors: [...FLEET_ERRORS],
      rest: { method: 'DELETE', path: '/v1/client/fleets/:fleet_id/board/routes/:route_id/standby' },
      graphql: 'clearBoardStandby',
      input: z.object(onFleet),
      output: ledAnswer,
      handler: (ctx, input) => board.clearQueue(ctx, input.fleet_id, input.route_id),
    }),
    defineOperation({
      name: 'get_route_board_settings',
      summary: "The business's route board settings: the withdrawal cutoff",
      description: `How many minutes before a route's departure its claimant may still withdraw alone (default ${DEFAULT_WITHDRAWAL_CUTOFF_MINUTES}).`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['fleets:read'] },
      rest: { method: 'GET', path: '/v1/client/route-board/settings' },
      graphql: 'routeBoardSettings',
      input: z.object({}),
      output: settingsAnswer,
      handler: (ctx) => board.settings(ctx),
    }),
    defineOperation({
      name: 'update_route_board_settings',
      summary: "Set the business's withdrawal cutoff for its route boards",
      description:
        "Minutes before a route's departure after which its claimant cannot withdraw alone (0 to 1440); a captain or a dispatcher still can (release_board_route).",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['fleets:write'] },
      rest: { method: 'PUT', path: '/v1/client/route-board/settings' },
      graphql: 'updateRouteBoardSettings',
      input: z.object({ withdrawal_cutoff_minutes: z.int().min(0).max(1440) }),
      output: settingsAnswer,
      handler: (ctx, input) => board.updateSettings(ctx, input.withdrawal_cutoff_minutes),
    }),
    defineOperation({
      name: 'get_my_board_routes',
      summary: 'The board routes the calling driver holds or stands by for, on a date',
      description:
        "Today (the business's date) unless `date` says otherwise; each with the driver's place in its queue.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: DRIVER_READ,
      rest: { method: 'GET', path: '/v1/driver/board/routes' },
      graphql: 'myBoardRoutes',
      input: z.object({ date: calendarDate.optional() }),
      output: z.object({ result: z.literal(true), date: z.string(), routes: z.array(boardRoute) }),
      handler: (ctx, input) => board.mine(ctx, input.date),
    }),
    defineOperation({
      name: 'get_board_route',
      summary: "A route of one of the calling driver's boards, with its place in the queue",
      description:
        'A route on the board of a fleet the driver is not in is ROUTE_NOT_ON_BOARD, as if it did not exist.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: DRIVER_READ,
      errors: ['ROUTE_NOT_ON_BOARD'],
      rest: { method: 'GET', path: '/v1/driver/board/routes/:route_id' },
      graphql: 'boardRoute',
      input: z.object({ route_id: id }),
      output: driverAnswer,
      handler: (ctx, input) => board.driverEntry(ctx, input.route_id),
    }),
    defineOperation({
      name: 'claim_board_route',
      summary: 'Claim an open route of your board: first come, first served',
      description:
        "Exactly one of concurrent claims wins; the others get 409 ROUTE_ALREADY_CLAIMED and may join the standby queue. The route must not have left yet (its departure still ahead on the business's clock: BOARD_WINDOW_PASSED), must not overlap another route the driver holds that day, and must fit in their shift that day; in a fleet keeping a shift calendar, a driver with no shift that day may not claim (BOARD_OFF_SHIFT). A captain or staff may still assign it (reassign_board_route). The route becomes the driver's, timed for their profile.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: ['ROUTE_NOT_ON_BOARD', 'ROUTE_ALREADY_CLAIMED', 'BOARD_ROUTE_HELD', ...DRIVER_RULES],
      rest: { method: 'POST', path: '/v1/driver/board/routes/:route_id/claim' },
      graphql: 'claimBoardRoute',
      input: z.object({ route_id: id }),
      output: driverAnswer,
      handler: (ctx, input) => board.claim(ctx, input.route_id),
    }),
    defineOperation({
      name: 'join_board_standby',
      summary: "Join a claimed route's standby queue",
      description:
        'Queues are in joining order; joining again keeps the place. Only a driver who could claim the route were it open may join: before its departure, on a shift day, with room for it that day (the claim rules and their codes). When the claimant withdraws, the first driver of the queue who may take the route gets it.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: ['ROUTE_NOT_ON_BOARD', 'BOARD_ROUTE_OPEN', 'BOARD_ROUTE_HELD', ...DRIVER_RULES],
      rest: { method: 'POST', path: '/v1/driver/board/routes/:route_id/standby' },
      graphql: 'joinBoardStandby',
      input: z.object({ route_id: id }),
      output: driverAnswer,
      handler: (ctx, input) => board.joinStandby(ctx, input.route_id),
    }),
    defineOperation({
      name: 'leave_board_standby',
      summary: "Leave a route's standby queue",
      description: 'Leaving a queue one is not in changes nothing.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: ['ROUTE_NOT_ON_BOARD'],
      rest: { method: 'DELETE', path: '/v1/driver/board/routes/:route_id/standby' },
      graphql: 'leaveBoardStandby',
      input: z.object({ route_id: id }),
      output: driverAnswer,
      handler: (ctx, input) => board.leaveStandby(ctx, input.route_id),
    }),
    defineOperation({
      name: 'withdraw_board_route',
      summary: 'Give up a route you claimed, before the withdrawal cutoff',
      description:
        "Until the business's cutoff before the route's departure (get_route_board_settings) and before the route is started. The first standby driver who may take it is promoted and told; with nobody waiting the route is open on the board again.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: ['ROUTE_NOT_ON_BOARD', 'BOARD_ROUTE_OPEN', 'FORBIDDEN', 'WITHDRAWAL_CUTOFF_PASSED'],
      rest: { method: 'POST', path: '/v1/driver/board/routes/:route_id/withdraw' },
      graphql: 'withdrawBoardRoute',
      input: z.object({ route_id: id }),
      output: driverAnswer,
      handler: (ctx, input) => board.withdraw(ctx, input.route_id),
    }),
  ];
}
