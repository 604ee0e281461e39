import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { calendarDate, idParam as id } from '../../platform/schemas.ts';
import { orderSchema, orderStatusSchema } from '../orders/index.ts';
import { type DriverWork, MAX_POSITIONS } from './driver-work.ts';
import { routeSchema, stopLegSchema, stopStatusSchema } from './schemas.ts';

/** The incident reasons a failed stop may give: the tracking codebook's, handed over by the composition root. */
export interface DriverVocabulary {
  incidentReasons: readonly [string, ...string[]];
}

const DRIVER = ['driver'] as const;
const READ = { kinds: DRIVER, scopes: ['routes:read'] };
const DRIVE = { kinds: DRIVER, scopes: ['routes:drive'] };

/** A stop as its driver sees it: the shared stop, with the order's leg address, contact, window and parcels. */
const driverStopSchema = routeSchema.shape.stops.element
  .extend({
    order_ref: z.string(),
    order_type: orderSchema.shape.type,
    order_status: orderStatusSchema,
    address: z
      .object({
        line1: z.string(),
        line2: z.string().optional(),
        city: z.string().optional(),
        postal_code: z.string().optional(),
        country: z.string().optional(),
        lat: z.number().optional(),
        lng: z.number().optional(),
      })
      .describe(
        'Where the leg happens: the pickup address of a pickup leg, the drop-off of a delivery, the locker site of a locker drop',
      ),
    contact: z
      .object({ name: z.string().nullable(), phone: z.string().nullable() })
      .describe(
        'Whom to meet there: the sender at a pickup, the recipient at a delivery; at a locker drop, the site by name and no one',
      ),
    time_window: orderSchema.shape.time_window,
    delivery_instruction: z.string().nullable(),
    note: z.string().nullable(),
    packages: orderSchema.shape.packages,
  })
  .meta({ title: 'DriverStop' });
const driverRouteSchema = routeSchema
  .extend({ stops: z.array(driverStopSchema) })
  .meta({ title: 'DriverRoute' });

const clientId = z
  .string()
  .min(1)
  .max(64)
  .describe(
    "The phone's own id for this write: sent again with the same id, the write answers its first answer and changes nothing",
  );
const deviceTime = z.iso
  .datetime({ offset: true })
  .describe(
    "When it happened on the phone, ISO 8601 with offset; kept as the stop's and the tracking event's time. At most 5 minutes ahead of the server, at most 7 days old",
  );
const write = { route_id: id, client_id: clientId, device_time: deviceTime };
const stopTarget = {
  order_id: id,
  leg: stopLegSchema
    .optional()
    .describe("Which of the order's stops on the route; default: its first one not completed yet"),
};
const proofId = z.int().positive();

const ROUTE_ERRORS = ['ROUTE_NOT_FOUND', 'ROUTE_NOT_STARTED', 'ROUTE_FINISHED'] as const;
const WRITE_ERRORS = ['CLIENT_ID_REUSED', 'DEVICE_TIME_OUT_OF_RANGE'] as const;
/** A write on a started route stamped before it started (driver-work.ts, requireStarted). */
const ROUTE_WRITE_ERRORS = [...ROUTE_ERRORS, ...WRITE_ERRORS, 'DEVICE_TIME_BEFORE_ROUTE_START'] as const;

export function driverOperations(work: DriverWork, vocabulary: DriverVocabulary): Operation[] {
  return [
    defineOperation({
      name: 'get_my_routes',
      summary:
        "The calling driver's routes of a date, each stop with its address, contact, window and parcels",
      description:
        "Routes assigned to the caller now, for a date (default today in the business's time zone), stops in order.",
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/driver/routes' },
      graphql: 'myRoutes',
      input: z.object({ date: calendarDate.optional() }),
      output: z.object({ result: z.literal(true), date: z.string(), routes: z.array(driverRouteSchema) }),
      handler: (ctx, input) => work.myRoutes(ctx, input.date),
    }),
    defineOperation({
      name: 'start_route',
      summary: 'Start one of my routes: its delivery orders loaded at the depot go out for delivery',
      description:
        'The route becomes started; each order delivered on it without a pickup leg on it, still PLANNED, PICKED_UP or AT_WAREHOUSE, becomes OUT_FOR_DELIVERY. Starting a started route changes nothing.',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: DRIVE,
      errors: ['ROUTE_NOT_FOUND', 'ROUTE_FINISHED', 'ILLEGAL_STATUS_TRANSITION', ...WRITE_ERRORS],
      rest: { method: 'POST', path: '/v1/driver/routes/:route_id/start' },
      graphql: 'startRoute',
      input: z.object(write),
      output: z.object({
        result: z.literal(true),
        route: driverRouteSchema,
        out_for_delivery: z.array(z.int()).describe('The orders that went out for delivery'),
      }),
      handler: (ctx, input) => work.start(ctx, input),
    }),
    defineOperation({
      name: 'arrive_at_stop',
      summary: 'I am at a stop of my started route',
      description:
        "Send it when the driver reaches the stop; the stop's arrival time is the device time. The same client_id sent again changes nothing, so an offline phone can replay it.",
      tag: 'Driver',
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: [...ROUTE_WRITE_ERRORS, 'STOP_NOT_FOUND', 'STOP_ALREADY_COMPLETED'],
      rest: { method: 'POST', path: '/v1/driver/routes/:route_id/stops/:order_id/arrive' },
      graphql: 'arriveAtStop',
      input: z.object({ ...write, ...stopTarget }),
      output: z.object({ result: z.literal(true), route_id: z.int(), stop: driverStopSchema }),
      handler: (ctx, input) => work.arrive(ctx, input),
    }),
    defineOperation({
      name: 'complete_stop',
      summary: 'Complete a stop of my started route: delivered, picked up, or failed with a reason',
      description:
        "delivered (a delivery leg) makes the order DELIVERED with its proof; picked_up (a pickup leg) PICKED_UP; failed (either leg, with an incident reason) FAILED_ATTEMPT, and a failed pickup fails the order's delivery leg on the route too. A locker drop (kind locker) is completed by the deposit at the locker, not here: only failed is taken there. The tracking event is at device_time. Proof files are uploaded first (POST /api/v1/driver/orders/{order_id}/proofs) and named by id.",
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: DRIVE,
      errors: [
        ...ROUTE_WRITE_ERRORS,
        'STOP_NOT_FOUND',
        'STOP_ALREADY_COMPLETED',
        'STOP_IS_LOCKER_DROP',
        'OUTCOME_NOT_FOR_LEG',
        'ILLEGAL_STATUS_TRANSITION',
      ],
      rest: { method: 'POST', path: '/v1/driver/routes/:route_id/stops/:order_id/complete' },
      graphql: 'completeStop',
      input: z
        .object({
          ...write,
          ...stopTarget,
          outcome: z.enum(['delivered', 'failed', 'picked_up']),
          recipient: z.string().trim().max(200).optional().describe('Who took the parcels (delivered)'),
          note: z.string().max(500).optional(),
          signature_proof_id: proofId.optional().describe('An uploaded signature (proof file id)'),
          photo_proof_ids: z.array(proofId).max(10).optional().describe('Uploaded photos (proof file ids)'),
          reason: z
            .object({
              code: z.enum(vocabulary.incidentReasons),
              message: z.string().max(500).optional(),
            })
            .optional()
            .describe("With failed (required): why, one of the tracking codebook's incident reasons"),
          position: z
            .object({
              lat: z.number().min(-90).max(90),
              lng: z.number().min(-180).max(180),
              accuracy_meters: z.number().min(0).max(100_000).optional(),
            })
            .optional()
            .describe("Where the phone was; stored with the route's positions"),
        })
        .superRefine((input, ctx) => {
          if (input.outcome === 'failed' && !input.reason) {
            ctx.addIssue({ code: 'invalid_type', expected: 'object', input: undefined, path: ['reason'] });
          }
        }),
      output: z.object({
        result: z.literal(true),
        route_id: z.int(),
        stop: driverStopSchema,
        order: z.object({ id: z.int(), status: orderStatusSchema }),
      }),
      handler: (ctx, input) => work.complete(ctx, input),
    }),
    defineOperation({
      name: 'scan_pickup_package',
      summary: 'Which pickup stop of my started route a scanned package belongs to',
      description:
        "Scan a package at a pickup: the answer is its stop and order on the caller's started route. It records nothing.",
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: [...ROUTE_ERRORS, 'PACKAGE_NOT_ON_ROUTE'],
      rest: { method: 'GET', path: '/v1/driver/routes/:route_id/packages/:tracking_number' },
      graphql: 'scanPickupPackage',
      input: z.object({ route_id: id, tracking_number: z.string().trim().min(1).max(64) }),
      output: z.object({
        result: z.literal(true),
        route_id: z.int(),
        package: z.object({ id: z.int(), tracking_number: z.string() }),
        stop: driverStopSchema,
      }),
      handler: (ctx, input) => work.scanAtPickup(ctx, input.route_id, input.tracking_number),
    }),
    defineOperation({
      name: 'report_positions',
      summary: "Report my phone's positions along one of my routes",
      description: `At most ${MAX_POSITIONS} positions a call, each with its own device time; stored for the dispatch board.`,
      tag: 'Driver',
      kind: 'mutation',
      risk: 'low',
      access: DRIVE,
      errors: ['ROUTE_NOT_FOUND', ...WRITE_ERRORS],
      rest: { method: 'POST', path: '/v1/driver/routes/:route_id/positions' },
      graphql: 'reportPositions',
      input: z.object({
        route_id: id,
        client_id: clientId,
        positions: z
          .array(
            z.object({
              lat: z.number().min(-90).max(90),
              lng: z.number().min(-180).max(180),
              accuracy_meters: z.number().min(0).max(100_000).optional(),
              device_time: deviceTime,
            }),
          )
          .min(1)
          .max(MAX_POSITIONS),
      }),
      output: z.object({ result: z.literal(true), route_id: z.int(), stored: z.int() }),
      handler: (ctx, input) => work.reportPositions(ctx, input),
    }),
    defineOperation({
      name: 'finish_route',
      summary: 'Finish my started route; stops still open are reported and left as they are',
      description:
        'Send it at the end of the day: the route is finished, and stops still open are listed and left for a dispatcher to decide. The same client_id sent again changes nothing.',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: DRIVE,
      errors: [...ROUTE_WRITE_ERRORS],
      rest: { method: 'POST', path: '/v1/driver/routes/:route_id/finish' },
      graphql: 'finishRoute',
      input: z.object(write),
      output: z.object({
        result: z.literal(true),
        route: driverRouteSchema,
        open_stops: z
          .array(
            z.object({
              sequence: z.int(),
              order_id: z.int(),
              leg: stopLegSchema,
              status: stopStatusSchema,
            }),
          )
          .describe('Stops neither done nor failed: a dispatcher decides what becomes of their orders'),
      }),
      handler: (ctx, input) => work.finish(ctx, input),
    }),
  ];
}
