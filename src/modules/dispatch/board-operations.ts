import { z } from 'zod';
import { defineOperation, type Operation, Representation, STAFF } from '../../platform/catalog/operation.ts';
import { EVENT_STREAM } from '../../platform/http/event-stream.ts';
import { calendarDate, idParam } from '../../platform/schemas.ts';
import {
  DEFAULT_SILENT_MINUTES,
  type DispatchBoard,
  EXCEPTION_KINDS,
  MAX_SILENT_MINUTES,
  MAX_WAITING_ORDERS,
} from './board.ts';
import type { BoardFeed } from './board-feed.ts';
import { MAX_BOARD_ROUTES } from './board-repository.ts';
import { planVersionSchema, routeStatusSchema, stopLegSchema, stopStatusSchema } from './schemas.ts';
import { STOP_KINDS } from './tables.ts';

const windowSchema = z
  .object({ start: z.string(), end: z.string() })
  .nullable()
  .describe("The customer's time window (local HH:MM): the delivery's, or a pickup order's pickup");

const waitingOrderSchema = z.object({
  order_id: z.int(),
  order_ref: z.string(),
  status: z.string(),
  window: windowSchema,
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});

export const boardSchema = z.object({
  result: z.literal(true),
  date: z.string(),
  depot_id: z.int().nullable(),
  version: z
    .number()
    .describe(
      "The count of the business's board changes the read saw: it never goes back, a board (or a live message) " +
        "with a greater version was read later, and no other business's writes move it (docs/dispatch-board.md). " +
        'A number, not a 32-bit integer: every position a driver reports counts',
    ),
  observed_at: z.string().describe('When the exceptions and ages were judged'),
  silent_after_minutes: z.int(),
  totals: z.object({
    routes: z.int(),
    stops_done: z.int(),
    stops_failed: z.int(),
    stops_remaining: z.int(),
    unplanned: z.int().describe('Orders of the day on no route that dispatch still has to plan, all of them'),
    held: z.int(),
    exceptions: z.int(),
  }),
  routes: z.array(
    z.object({
      id: z.int(),
      driver: z.object({ id: z.int(), name: z.string() }),
      vehicle_type: z.string().nullable().describe("The route's vehicle, else its driver's profile"),
      vehicle_id: z
        .int()
        .nullable()
        .describe("The business's vehicle it drives (get_vehicles); null: its driver's own"),
      depot_id: z
        .int()
        .nullable()
        .describe(
          "The route's own depot, where it leaves from: its driver's shift depot of the day, else the profile's, fixed when built",
        ),
      status: routeStatusSchema,
      locked: z.boolean(),
      plan_version: planVersionSchema,
      departure: z.string().describe('When the route was planned to leave, local HH:MM'),
      started_at: z.string().nullable(),
      finished_at: z.string().nullable(),
      stops_done: z.int(),
      stops_failed: z.int(),
      stops_remaining: z.int().describe('Pending or arrived'),
      position: z
        .object({
          route_id: z.int().describe('The route it was reported along'),
          lat: z.number(),
          lng: z.number(),
          accuracy_meters: z.number().nullable(),
          at: z.string().describe("The phone's time of the position"),
          age_seconds: z.int().describe('From `at` to observed_at'),
        })
        .nullable()
        .describe("The driver's last reported position; null when they never reported one"),
      stops: z.array(
        z.object({
          order_id: z.int(),
          order_ref: z.string(),
          sequence: z.int(),
          leg: stopLegSchema,
          state: stopStatusSchema,
          order_status: z.string(),
          window: windowSchema,
          kind: z
            .enum(STOP_KINDS)
            .describe("door: at the order's address; locker: a drop at a locker site, placed there"),
          lat: z.number().nullable(),
          lng: z.number().nullable(),
          arrived_at: z.string().nullable(),
          completed_at: z.string().nullable(),
        }),
      ),
    }),
  ),
  exceptions: z.array(
    z.object({
      key: z
        .string()
        .describe('Stable while the exception holds: `stop_late:12:delivery`, `driver_silent:7`'),
      kind: z.enum(EXCEPTION_KINDS),
      route_id: z.int().nullable(),
      order_id: z.int().nullable(),
      driver_id: z.int().nullable(),
      leg: stopLegSchema.nullable(),
      since: z
        .string()
        .nullable()
        .describe(
          'When it began to hold: the window end, the failure, the departure time, the last word from the driver',
        ),
      order: waitingOrderSchema.nullable().describe('The waiting order, for order_unplanned and order_held'),
    }),
  ),
});

export function boardOperations(board: DispatchBoard, feed: BoardFeed): Operation[] {
  return [
    defineOperation({
      name: 'get_dispatch_board',
      summary: "A day's dispatch board: routes, stops, drivers' last positions and the exceptions observed",
      description:
        "Every route of the date (default today in the business's time zone; depot_id: the routes leaving from " +
        'that depot) with its driver, vehicle type, depot, status, stops done, failed and remaining, its stops with state, ' +
        "window and coordinates, and the driver's last reported position with its age; then the exceptions " +
        "observed: stops past their window's end and not done, failed attempts, planned routes past their " +
        `departure, drivers of started routes silent for more than silent_minutes (default ${DEFAULT_SILENT_MINUTES}), ` +
        `and orders of the day unplanned or held (at most ${MAX_WAITING_ORDERS} listed; totals count all). ` +
        'Observed state only: no arrival forecast or ETA. One consistent read at `version`. With ' +
        '`Accept: text/event-stream` the same call is a live board: this answer first, then small changes as ' +
        `they commit (docs/dispatch-board.md). At most ${MAX_BOARD_ROUTES} routes.`,
      tag: 'Dispatch',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_dispatch_board',
        guide:
          "A day as observed now: each route's driver, status, stops done/failed/remaining, last position, and what needs attention (late stops, failures, routes not started, silent drivers, unplanned or held orders).",
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['routes:read'] },
      errors: ['DEPOT_NOT_FOUND', 'TOO_MANY_STREAMS'],
      rest: { method: 'GET', path: '/v1/client/dispatch/board' },
      graphql: 'dispatchBoard',
      representations: [EVENT_STREAM],
      input: z.object({
        date: calendarDate.optional().describe("Default: today in the business's time zone"),
        depot_id: idParam.optional().describe('Only the routes leaving from this depot'),
        silent_minutes: z
          .int()
          .min(1)
          .max(MAX_SILENT_MINUTES)
          .default(DEFAULT_SILENT_MINUTES)
          .describe('A started route whose driver reported nothing for longer is an exception'),
      }),
      output: boardSchema,
      handler: async (ctx, input) => {
        const query = await board.query(ctx, input);
        if (ctx.representation === EVENT_STREAM) {
          return new Representation(EVENT_STREAM, await feed.open(ctx, query));
        }
        return { result: true as const, ...(await board.answer(ctx.db, query)) };
      },
    }),
  ];
}
