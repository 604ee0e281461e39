import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { daysBetween } from '../../platform/clock.ts';
import { fieldIssue, fieldMessage } from '../../platform/i18n/field-messages.ts';
import { calendarDate, idParam as id } from '../../platform/schemas.ts';
import {
  type FleetCalendar,
  MAX_PATTERNS,
  MAX_SHIFT_RANGE_DAYS,
  SHIFT_HORIZON_DAYS,
  SIGNUP_TRANSITIONS,
} from './calendar.ts';
import { SIGNUP_STATES } from './tables.ts';

const TAG = 'Fleets';
/** Staff and the fleet's drivers read its calendar (the service tells a fleet's drivers from others). */
const SEE = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:read'] };
/** Staff and the fleet's captains run it; its drivers sign themselves up and withdraw. */
const WRITE = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:write'] };
const FLEET_ERRORS = ['FLEET_NOT_FOUND'] as const;
const LEAD_ERRORS = ['FLEET_NOT_FOUND', 'FLEET_CAPTAIN_REQUIRED'] as const;

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const clockTime = z.string().regex(CLOCK_TIME, fieldMessage('clock_time'));
const startTime = clockTime.describe("Start, HH:MM in the business's time zone");
const endTime = clockTime.describe('End, HH:MM the same day, after the start');
const depotId = id
  .nullable()
  .describe('A depot of the business where the shift starts and ends; null: the drivers’ own depots');
const vehicleKind = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .describe('What the shift is driven with (van, cargo_bike, ...): a label for drivers and captains');
const slots = z.int().min(1).max(500).describe('How many drivers the shift takes');
const weekdays = z
  .array(z.int().min(1).max(7))
  .min(1)
  .max(7)
  .describe('ISO weekdays the pattern works: 1 Monday .. 7 Sunday');

/** Start and end both given, the end after the start; or neither (a change leaving the hours as they are). */
function hoursInOrder(input: { start?: string; end?: string }, ctx: z.RefinementCtx): void {
  if ((input.start === undefined) !== (input.end === undefined)) {
    const path = [input.start === undefined ? 'start' : 'end'];
    ctx.addIssue({ code: 'custom', path, ...fieldIssue('both_or_neither', { fields: 'start, end' }) });
  } else if (input.start !== undefined && input.end !== undefined && input.start >= input.end) {
    ctx.addIssue({ code: 'custom', path: ['end'], ...fieldIssue('window_end_after_start') });
  }
}

/** A date range of at most MAX_SHIFT_RANGE_DAYS days. */
function rangeInOrder(input: { from: string; to: string }, ctx: z.RefinementCtx): void {
  if (input.to < input.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], ...fieldIssue('not_before', { field: 'from' }) });
  } else if (daysBetween(input.from, input.to) > MAX_SHIFT_RANGE_DAYS) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      ...fieldIssue('at_most_days', { max: MAX_SHIFT_RANGE_DAYS }),
    });
  }
}
const range = {
  from: calendarDate.describe('First date, business time'),
  to: calendarDate.describe(`Last date, included (at most ${MAX_SHIFT_RANGE_DAYS} days from the first)`),
};

/** How a fleet driver's signup for a shift stands. */
const signupState = z.enum(SIGNUP_STATES).meta({ title: 'FleetShiftSignupState' });

const patternSchema = z
  .object({
    id: z.int(),
    fleet_id: z.int(),
    weekdays: z.array(z.int()),
    start: z.string(),
    end: z.string(),
    depot_id: z.int().nullable(),
    vehicle_kind: z.string(),
    slots: z.int(),
    valid_from: z.string(),
    valid_to: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'ShiftPattern' });
const shiftFields = {
  id: z.int(),
  date: z.string(),
  start: z.string(),
  end: z.string(),
  depot_id: z.int().nullable(),
  vehicle_kind: z.string(),
  cancelled: z
    .boolean()
    .describe('A cancelled shift takes no signups and is nobody’s working window; its signups stay listed'),
};
const shiftSchema = z
  .object({
    ...shiftFields,
    fleet_id: z.int(),
    pattern_id: z
      .int()
      .nullable()
      .describe('The pattern that generated it; null: made by hand, or its pattern deleted'),
    slots: z.int(),
    free_slots: z.int(),
    signups: z.array(
      z
        .object({
          driver_id: z.int(),
          name: z.string().nullable(),
          state: signupState.describe(
            'scheduled, then checked_in, then done; no_show when the driver did not come',
          ),
          signed_up_at: z.string(),
        })
        .meta({ title: 'FleetShiftSignup' }),
    ),
  })
  .meta({ title: 'FleetShift' });
const shiftAnswer = z.object({ result: z.literal(true), shift: shiftSchema });
const keptShifts = z
  .array(z.object({ id: z.int(), date: z.string(), start: z.string(), end: z.string(), signups: z.int() }))
  .describe(
    'Upcoming shifts with drivers signed up that the change left exactly as they were: edit or cancel them by hand',
  );
const signupRef = { fleet_id: id, shift_id: id, driver_id: id };
const transitions = Object.entries(SIGNUP_TRANSITIONS)
  .filter(([, next]) => next.length > 0)
  .map(([from, next]) => `${from} → ${next.join(' or ')}`)
  .join('; ');

export function calendarOperations(calendar: FleetCalendar): Operation[] {
  return [
    defineOperation({
      name: 'create_shift_pattern',
      summary: 'Add a weekly shift pattern to a fleet; it generates the shifts ahead',
      description: `Staff or the fleet's captains. On each of its weekdays from max(valid_from, today) to valid_to (if set), the pattern generates one shift for the next ${SHIFT_HORIZON_DAYS} days, today included, topped up whenever the calendar is read or changed. Times are the business's local time. A fleet keeps at most ${MAX_PATTERNS} patterns.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [...LEAD_ERRORS, 'SHIFT_PATTERNS_FULL', 'DEPOT_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/shift-patterns' },
      graphql: 'createShiftPattern',
      input: z
        .object({
          fleet_id: id,
          weekdays,
          start: startTime,
          end: endTime,
          depot_id: depotId.optional(),
          vehicle_kind: vehicleKind,
          slots,
          valid_from: calendarDate.describe('First date the pattern works'),
          valid_to: calendarDate
            .nullable()
            .optional()
            .describe('Last date it works, included; none: open-ended'),
        })
        .superRefine(hoursInOrder)
        .superRefine((input, ctx) => {
          if (input.valid_to && input.valid_to < input.valid_from) {
            ctx.addIssue({
              code: 'custom',
              path: ['valid_to'],
              ...fieldIssue('not_before', { field: 'valid_from' }),
            });
          }
        }),
      output: z.object({
        result: z.literal(true),
        pattern: patternSchema,
        shifts: z.object({ added: z.int().describe('Shifts generated at once, up to the horizon') }),
      }),
      handler: (ctx, input) => calendar.createPattern(ctx, input),
    }),
    defineOperation({
      name: 'get_shift_patterns',
      summary: "A fleet's weekly shift patterns",
      description: 'Staff and the fleet’s drivers; the shifts they generate are read with get_fleet_shifts.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      errors: [...FLEET_ERRORS],
      rest: { method: 'GET', path: '/v1/client/fleets/:fleet_id/shift-patterns' },
      graphql: 'shiftPatterns',
      input: z.object({ fleet_id: id }),
      output: z.object({ result: z.literal(true), patterns: z.array(patternSchema) }),
      handler: (ctx, input) => calendar.patterns(ctx, input.fleet_id),
    }),
    defineOperation({
      name: 'update_shift_pattern',
      summary: 'Change a shift pattern; shifts drivers signed up for are kept and listed, never rewritten',
      description:
        'Staff or captains; fields left out stay. Upcoming shifts of the pattern without signups are rewritten to the new hours, depot, kind and slots, or removed when the pattern no longer covers their date, and new dates are generated. Upcoming shifts with signups that no longer match stay exactly as they were and are listed in `kept_shifts` for the captain to edit or cancel by hand. Past and started shifts never change; cancelled ones stay cancelled.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...LEAD_ERRORS, 'SHIFT_PATTERN_NOT_FOUND', 'DEPOT_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/fleets/:fleet_id/shift-patterns/:pattern_id' },
      graphql: 'updateShiftPattern',
      input: z
        .object({
          fleet_id: id,
          pattern_id: id,
          weekdays: weekdays.optional(),
          start: startTime.optional(),
          end: endTime.optional(),
          depot_id: depotId.optional(),
          vehicle_kind: vehicleKind.optional(),
          slots: slots.optional(),
          valid_from: calendarDate.optional(),
          valid_to: calendarDate.nullable().optional().describe('null: open-ended'),
        })
        .superRefine(hoursInOrder),
      output: z.object({
        result: z.literal(true),
        pattern: patternSchema,
        shifts: z.object({
          rewritten: z.int().describe('Upcoming shifts without signups brought in step'),
          removed: z.int().describe('Upcoming shifts without signups on dates the pattern no longer covers'),
          added: z.int().describe('Shifts generated on dates newly covered'),
        }),
        kept_shifts: keptShifts,
      }),
      handler: (ctx, input) => calendar.updatePattern(ctx, input),
    }),
    defineOperation({
      name: 'delete_shift_pattern',
      summary: 'Delete a shift pattern and its upcoming shifts nobody signed up for',
      description:
        'Staff or captains. Upcoming shifts with signups stay as they are, now without a pattern, listed in `kept_shifts`; past shifts stay.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...LEAD_ERRORS, 'SHIFT_PATTERN_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/fleets/:fleet_id/shift-patterns/:pattern_id' },
      graphql: 'deleteShiftPattern',
      input: z.object({ fleet_id: id, pattern_id: id }),
      output: z.object({
        result: z.literal(true),
        deleted: z.int(),
        shifts: z.object({ removed: z.int() }),
        kept_shifts: keptShifts,
      }),
      handler: (ctx, input) => calendar.deletePattern(ctx, input),
    }),
    defineOperation({
      name: 'get_fleet_shifts',
      summary: "A fleet's shifts of a date range with their signed-up drivers and free slots",
      description: `Staff and the fleet's drivers (a driver looks here for open shifts). At most ${MAX_SHIFT_RANGE_DAYS} days; the patterns' shifts are topped up to ${SHIFT_HORIZON_DAYS} days ahead first.`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      errors: [...FLEET_ERRORS],
      rest: { method: 'GET', path: '/v1/client/fleets/:fleet_id/shifts' },
      graphql: 'fleetShifts',
      input: z.object({ fleet_id: id, ...range }).superRefine(rangeInOrder),
      output: z.object({
        result: z.literal(true),
        from: z.string(),
        to: z.string(),
        shifts: z.array(shiftSchema),
      }),
      handler: (ctx, input) => calendar.shifts(ctx, input),
    }),
    defineOperation({
      name: 'create_fleet_shift',
      summary: 'Add a one-off shift to a fleet by hand',
      description: "Staff or captains; on a date and start still ahead in the business's time zone.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [...LEAD_ERRORS, 'SHIFT_IN_PAST', 'DEPOT_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/shifts' },
      graphql: 'createFleetShift',
      input: z
        .object({
          fleet_id: id,
          date: calendarDate,
          start: startTime,
          end: endTime,
          depot_id: depotId.optional(),
          vehicle_kind: vehicleKind,
          slots,
        })
        .superRefine(hoursInOrder),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.createShift(ctx, input),
    }),
    defineOperation({
      name: 'update_fleet_shift',
      summary: 'Change a shift that has not started; its signed-up drivers are told',
      description:
        'Staff or captains; fields left out stay. Slots cannot drop below the drivers signed up. Each signed-up driver gets a `shift_changed` push on its MQTT topic. A pattern’s shift stays the pattern’s: a later change of the pattern rewrites it again while nobody is signed up.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [
        ...LEAD_ERRORS,
        'SHIFT_NOT_FOUND',
        'SHIFT_STARTED',
        'SHIFT_CANCELLED',
        'SHIFT_SLOTS_TAKEN',
        'DEPOT_NOT_FOUND',
      ],
      rest: { method: 'PATCH', path: '/v1/client/fleets/:fleet_id/shifts/:shift_id' },
      graphql: 'updateFleetShift',
      input: z
        .object({
          fleet_id: id,
          shift_id: id,
          start: startTime.optional(),
          end: endTime.optional(),
          depot_id: depotId.optional(),
          vehicle_kind: vehicleKind.optional(),
          slots: slots.optional(),
        })
        .superRefine(hoursInOrder),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.updateShift(ctx, input),
    }),
    defineOperation({
      name: 'cancel_fleet_shift',
      summary: 'Cancel a shift that has not started; its signed-up drivers are told',
      description:
        'Staff or captains. The signups stay, so each driver’s calendar shows the shift cancelled, and each driver gets a `shift_cancelled` push; the shift takes no more signups and is nobody’s working window in route building. Cancelling again answers it as it is.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [...LEAD_ERRORS, 'SHIFT_NOT_FOUND', 'SHIFT_STARTED'],
      rest: { method: 'POST', path: '/v1/client/fleets/:fleet_id/shifts/:shift_id/cancel' },
      graphql: 'cancelFleetShift',
      input: z.object({ fleet_id: id, shift_id: id }),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.cancelShift(ctx, input),
    }),
    defineOperation({
      name: 'sign_up_for_shift',
      summary: 'Sign a driver of the fleet up for a shift with a free slot',
      description:
        'A driver of the fleet signs itself up (its own id in the path); staff and captains sign up any driver of the fleet. Only before the shift starts, never on a cancelled shift, and never beyond its slots whatever the concurrency (SHIFT_FULL). Signing up again answers the shift as it is.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [
        ...LEAD_ERRORS,
        'SHIFT_NOT_FOUND',
        'SHIFT_FULL',
        'SHIFT_STARTED',
        'SHIFT_CANCELLED',
        'DRIVER_NOT_FOUND',
      ],
      rest: { method: 'PUT', path: '/v1/client/fleets/:fleet_id/shifts/:shift_id/signups/:driver_id' },
      graphql: 'signUpForShift',
      input: z.object(signupRef),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.signUp(ctx, input),
    }),
    defineOperation({
      name: 'withdraw_shift_signup',
      summary: 'Take a driver off a shift',
      description:
        'A driver withdraws its own signup while the shift has not started and it is still scheduled; staff and captains take any driver off at any time.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [
        ...LEAD_ERRORS,
        'SHIFT_NOT_FOUND',
        'SIGNUP_NOT_FOUND',
        'SHIFT_STARTED',
        'SIGNUP_STATE_INVALID',
      ],
      rest: { method: 'DELETE', path: '/v1/client/fleets/:fleet_id/shifts/:shift_id/signups/:driver_id' },
      graphql: 'withdrawShiftSignup',
      input: z.object(signupRef),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.withdraw(ctx, input),
    }),
    defineOperation({
      name: 'set_shift_signup_state',
      summary: "Record how a driver's shift went: checked in, done, or no-show",
      description: `Staff or captains. Allowed moves: ${transitions}; setting the state it has changes nothing. A signup scheduled or checked in makes the shift the driver's working window in route building.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: [
        ...LEAD_ERRORS,
        'SHIFT_NOT_FOUND',
        'SHIFT_CANCELLED',
        'SIGNUP_NOT_FOUND',
        'SIGNUP_STATE_INVALID',
      ],
      rest: { method: 'PATCH', path: '/v1/client/fleets/:fleet_id/shifts/:shift_id/signups/:driver_id' },
      graphql: 'setShiftSignupState',
      input: z.object({ ...signupRef, state: signupState }),
      output: shiftAnswer,
      handler: (ctx, input) => calendar.setSignupState(ctx, input),
    }),
    defineOperation({
      name: 'get_my_shifts',
      summary: "The calling driver's shifts of a date range across its fleets",
      description: `Every shift the driver is signed up for, with its fleet and the driver's state; a cancelled shift stays listed as cancelled. At most ${MAX_SHIFT_RANGE_DAYS} days.`,
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      access: { kinds: ['driver'], scopes: ['fleets:read'] },
      rest: { method: 'GET', path: '/v1/driver/shifts' },
      graphql: 'myShifts',
      input: z.object(range).superRefine(rangeInOrder),
      output: z.object({
        result: z.literal(true),
        from: z.string(),
        to: z.string(),
        shifts: z.array(
          z.object({
            ...shiftFields,
            fleet: z.object({ id: z.int(), name: z.string() }),
            state: signupState,
          }),
        ),
      }),
      handler: (ctx, input) => calendar.myShifts(ctx, input),
    }),
  ];
}
