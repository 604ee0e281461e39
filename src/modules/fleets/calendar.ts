import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import { addDays, type Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueDriverPushes } from '../../platform/mqtt/driver-push.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { DispatchService } from '../dispatch/index.ts';
import type { LocalNow, PatternRow, ShiftRow, ShiftTerms, SignupRow } from './calendar-repository.ts';
import * as repo from './calendar-repository.ts';
import type { FleetsService } from './service.ts';
import type { SignupState } from './tables.ts';

/** Patterns generate shifts for the next 28 days, today included. */
export const SHIFT_HORIZON_DAYS = 28;
/** The longest range of dates one read of a calendar covers. */
export const MAX_SHIFT_RANGE_DAYS = 62;
/** A fleet keeps at most this many weekly patterns. */
export const MAX_PATTERNS = 50;

/**
 * Where a signup may go from each state: a driver checks in, then is done; a driver who never
 * came is a no-show, unless it turns up late after all (then it is checked in). Done is final.
 */
export const SIGNUP_TRANSITIONS: Readonly<Record<SignupState, readonly SignupState[]>> = {
  scheduled: ['checked_in', 'no_show'],
  checked_in: ['done'],
  no_show: ['checked_in'],
  done: [],
};

interface Hours {
  start?: string;
  end?: string;
}
interface WorkTerms extends Hours {
  depot_id?: number | null;
  vehicle_kind?: string;
  slots?: number;
}
export interface PatternInput extends WorkTerms {
  fleet_id: number;
  weekdays: number[];
  start: string;
  end: string;
  vehicle_kind: string;
  slots: number;
  valid_from: string;
  valid_to?: string | null;
}
export interface PatternChange extends WorkTerms {
  fleet_id: number;
  pattern_id: number;
  weekdays?: number[];
  valid_from?: string;
  valid_to?: string | null;
}
export interface ShiftInput extends WorkTerms {
  fleet_id: number;
  date: string;
  start: string;
  end: string;
  vehicle_kind: string;
  slots: number;
}
export interface ShiftChange extends WorkTerms {
  fleet_id: number;
  shift_id: number;
}
export interface SignupRef {
  fleet_id: number;
  shift_id: number;
  driver_id: number;
}

/**
 * A fleet's shift calendar: weekly patterns that generate shifts ahead, shifts made by hand, and
 * the drivers signed up for them. Times are the business's wall-clock times (its time zone).
 * Staff and the fleet's captains run the calendar; its drivers read it and sign themselves up.
 */
export class FleetCalendar {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly fleets: FleetsService,
    private readonly dispatch: DispatchService,
  ) {}

  // ----- patterns -----

  async patterns(ctx: OperationContext, fleetId: number) {
    const fleet = await this.fleets.access(ctx, fleetId, 'see');
    const rows = await repo.patternsOf(ctx.db, businessOf(ctx), fleet.id);
    return { result: true as const, patterns: rows.map(patternView) };
  }

  /** A new pattern, and the shifts it generates up to the horizon at once. */
  async createPattern(ctx: OperationContext, input: PatternInput) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    if ((await repo.patternsOf(ctx.db, businessId, fleet.id)).length >= MAX_PATTERNS) {
      throw new AppError('SHIFT_PATTERNS_FULL', { params: { limit: MAX_PATTERNS } });
    }
    await this.refuseUnknownDepot(ctx.db, businessId, input.depot_id);
    const pattern = await repo.insertPattern(
      ctx.db,
      {
        business_id: businessId,
        fleet_id: fleet.id,
        weekdays: weekdaysOf(input.weekdays),
        ...termsOf(input),
        valid_from: input.valid_from,
        valid_to: input.valid_to ?? null,
      },
      this.clock.now(),
    );
    const added = await this.topUp(ctx.db, businessId, fleet.id, pattern.id);
    return { result: true as const, pattern: patternView(pattern), shifts: { added } };
  }

  /**
   * Changes a pattern and brings its upcoming shifts in step, never touching a shift a driver is
   * signed up for: upcoming shifts without signups are rewritten (hours, depot, kind, slots) or
   * removed (a weekday or date the pattern no longer covers), new dates are generated, and the
   * upcoming shifts with signups that no longer match are kept exactly as they were and listed
   * in `kept_shifts`, for the captain to edit or cancel by hand. Past and started shifts, and
   * cancelled ones on dates the pattern still covers, stay as they are.
   */
  async updatePattern(ctx: OperationContext, input: PatternChange) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const old = await repo.lockPattern(ctx.db, businessId, fleet.id, input.pattern_id);
    if (!old) throw patternNotFound(input.pattern_id);
    const validFrom = input.valid_from ?? old.valid_from;
    const validTo = input.valid_to === undefined ? old.valid_to : input.valid_to;
    if (validTo !== null && validTo < validFrom) throw fieldRefused('valid_to', 'not_before');
    await this.refuseUnknownDepot(ctx.db, businessId, input.depot_id);
    const now = this.clock.now();
    const pattern = await repo.updatePattern(
      ctx.db,
      {
        id: old.id,
        business_id: businessId,
        fleet_id: fleet.id,
        weekdays: input.weekdays ? weekdaysOf(input.weekdays) : old.weekdays,
        ...termsOf(input, old),
        valid_from: validFrom,
        valid_to: validTo,
      },
      now,
    );
    const upcoming = await repo.upcomingShiftsOfPattern(
      ctx.db,
      businessId,
      pattern.id,
      await this.localNow(ctx.db, businessId),
    );
    const covered = (shift: ShiftRow) => covers(pattern, shift.shift_date);
    const outOfStep = upcoming.filter((shift) => !covered(shift) || !sameTerms(shift, pattern));
    const free = outOfStep.filter((shift) => Number(shift.signups) === 0);
    const removed = free.filter((shift) => !covered(shift));
    const rewritten = free.filter((shift) => covered(shift) && !shift.cancelled);
    await repo.deleteShifts(ctx.db, businessId, ids(removed));
    await repo.updateShifts(ctx.db, businessId, ids(rewritten), termsOf({}, pattern), now);
    const added = await this.topUp(ctx.db, businessId, fleet.id, pattern.id);
    return {
      result: true as const,
      pattern: patternView(pattern),
      shifts: { rewritten: rewritten.length, removed: removed.length, added },
      kept_shifts: keptView(outOfStep),
    };
  }

  /**
   * Deletes a pattern with its upcoming shifts that nobody signed up for. Its upcoming shifts
   * with signups stay, as made by hand (no pattern), listed in `kept_shifts`; past shifts stay.
   */
  async deletePattern(ctx: OperationContext, input: { fleet_id: number; pattern_id: number }) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const pattern = await repo.lockPattern(ctx.db, businessId, fleet.id, input.pattern_id);
    if (!pattern) throw patternNotFound(input.pattern_id);
    const upcoming = await repo.upcomingShiftsOfPattern(
      ctx.db,
      businessId,
      pattern.id,
      await this.localNow(ctx.db, businessId),
    );
    const removed = upcoming.filter((shift) => Number(shift.signups) === 0);
    await repo.deleteShifts(ctx.db, businessId, ids(removed));
    // The foreign key detaches the shifts left (pattern_id set to null).
    await repo.deletePattern(ctx.db, businessId, pattern.id);
    return {
      result: true as const,
      deleted: pattern.id,
      shifts: { removed: removed.length },
      kept_shifts: keptView(upcoming),
    };
  }

  // ----- shifts -----

  /** The fleet's shifts of a date range with their signups and free slots, its patterns first topped up. */
  async shifts(ctx: OperationContext, range: { fleet_id: number; from: string; to: string }) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, range.fleet_id, 'see');
    await this.topUp(ctx.db, businessId, fleet.id);
    const rows = await repo.shiftsOf(ctx.db, businessId, fleet.id, range);
    return { result: true as const, from: range.from, to: range.to, shifts: await this.views(ctx.db, rows) };
  }

  /** A one-off shift made by hand, on a date and time still ahead. */
  async createShift(ctx: OperationContext, input: ShiftInput) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const now = await this.localNow(ctx.db, businessId);
    if (hasStarted({ shift_date: input.date, start_time: `${input.start}:00` }, now)) {
      throw new AppError('SHIFT_IN_PAST', { params: { date: input.date, start: input.start } });
    }
    await this.refuseUnknownDepot(ctx.db, businessId, input.depot_id);
    const shift = await repo.insertShift(
      ctx.db,
      { business_id: businessId, fleet_id: fleet.id, shift_date: input.date, ...termsOf(input) },
      this.clock.now(),
    );
    return this.shiftAnswer(ctx.db, businessId, shift.id);
  }

  /**
   * Changes a shift that has not started; its signed-up drivers are told (a `shift_changed` push).
   * Slots cannot drop below the drivers signed up. A shift of a pattern stays the pattern's: a
   * later change of the pattern rewrites it again while nobody is signed up for it.
   */
  async updateShift(ctx: OperationContext, input: ShiftChange) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const { shift, signups } = await this.openShift(ctx.db, businessId, fleet.id, input.shift_id);
    if (input.slots !== undefined && input.slots < signups.length) {
      throw new AppError('SHIFT_SLOTS_TAKEN', { params: { shift: shift.id, signups: signups.length } });
    }
    await this.refuseUnknownDepot(ctx.db, businessId, input.depot_id);
    await repo.updateShifts(ctx.db, businessId, [shift.id], termsOf(input, shift), this.clock.now());
    return this.tellSignedUp(ctx.db, shift, signups, 'shift_changed');
  }

  /**
   * Cancels a shift that has not started. Its signups stay, so each driver's calendar shows the
   * shift cancelled, and each is told (a `shift_cancelled` push); a cancelled shift takes no
   * signups and is nobody's working window. Cancelling it again answers it as it is.
   */
  async cancelShift(ctx: OperationContext, input: { fleet_id: number; shift_id: number }) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const shift = await this.lockShift(ctx.db, businessId, fleet.id, input.shift_id);
    if (shift.cancelled) return this.shiftAnswer(ctx.db, businessId, shift.id);
    if (hasStarted(shift, await this.localNow(ctx.db, businessId))) throw shiftStarted(shift);
    const signups = await repo.signupsOf(ctx.db, businessId, [shift.id]);
    await repo.updateShifts(ctx.db, businessId, [shift.id], { cancelled: true }, this.clock.now());
    return this.tellSignedUp(ctx.db, shift, signups, 'shift_cancelled');
  }

  // ----- signups -----

  /**
   * Signs a driver up for a shift that has not started, while it has a free slot: a driver of
   * the fleet itself, staff and captains any driver of the fleet. The shift row is locked, so a
   * shift never takes more drivers than its slots whatever the concurrency. Signing up again
   * answers the shift as it is.
   */
  async signUp(ctx: OperationContext, input: SignupRef) {
    const businessId = businessOf(ctx);
    const { fleet } = await this.accessFor(ctx, input);
    const { shift, signups } = await this.openShift(ctx.db, businessId, fleet.id, input.shift_id);
    if (!(await this.fleets.isMember(ctx.db, businessId, shift.fleet_id, input.driver_id))) {
      throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    }
    if (!signups.some((signup) => signup.driver_user_id === input.driver_id)) {
      if (signups.length >= shift.slots) {
        throw new AppError('SHIFT_FULL', { params: { shift: shift.id, slots: shift.slots } });
      }
      await repo.insertSignup(
        ctx.db,
        { businessId, shiftId: shift.id, driverId: input.driver_id },
        this.clock.now(),
      );
    }
    return this.shiftAnswer(ctx.db, businessId, shift.id);
  }

  /**
   * Takes a driver off a shift. A driver withdraws its own signup while the shift has not started
   * and it is still scheduled; staff and captains take anyone off at any time.
   */
  async withdraw(ctx: OperationContext, input: SignupRef) {
    const businessId = businessOf(ctx);
    const { fleet, leads } = await this.accessFor(ctx, input);
    const shift = await this.lockShift(ctx.db, businessId, fleet.id, input.shift_id);
    const signup = await this.signupOf(ctx.db, shift, input.driver_id);
    if (!leads) {
      if (hasStarted(shift, await this.localNow(ctx.db, businessId))) throw shiftStarted(shift);
      if (signup.state !== 'scheduled') throw stateRefused(signup, 'withdrawn');
    }
    await repo.deleteSignup(ctx.db, businessId, shift.id, input.driver_id);
    return this.shiftAnswer(ctx.db, businessId, shift.id);
  }

  /** Moves a signup on (SIGNUP_TRANSITIONS); staff and captains only. The state it has already answers as is. */
  async setSignupState(ctx: OperationContext, input: SignupRef & { state: SignupState }) {
    const businessId = businessOf(ctx);
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'lead');
    const shift = await this.lockShift(ctx.db, businessId, fleet.id, input.shift_id);
    if (shift.cancelled) throw new AppError('SHIFT_CANCELLED', { params: { shift: shift.id } });
    const signup = await this.signupOf(ctx.db, shift, input.driver_id);
    if (signup.state !== input.state) {
      if (!SIGNUP_TRANSITIONS[signup.state].includes(input.state)) throw stateRefused(signup, input.state);
      await repo.setSignupState(
        ctx.db,
        { businessId, shiftId: shift.id, driverId: input.driver_id },
        input.state,
        this.clock.now(),
      );
    }
    return this.shiftAnswer(ctx.db, businessId, shift.id);
  }

  /** The calling driver's shifts of a date range across its fleets, with its state in each. */
  async myShifts(ctx: OperationContext, range: { from: string; to: string }) {
    const caller = callerOf(ctx);
    const rows = await repo.shiftsOfDriver(ctx.db, businessOf(ctx), caller.userId, range);
    return {
      result: true as const,
      from: range.from,
      to: range.to,
      shifts: rows.map((row) => {
        const { fleet_id: _fleet, pattern_id: _pattern, slots: _slots, ...shift } = shiftFields(row);
        return { ...shift, fleet: { id: row.fleet_id, name: row.fleet_name }, state: row.state };
      }),
    };
  }

  // ----- helpers -----

  /** Generates the fleet's (or one pattern's) shifts still missing up to the horizon; how many it added. */
  private async topUp(db: Queryable, businessId: number, fleetId: number, patternId?: number) {
    const today = (await this.localNow(db, businessId)).date;
    return repo.generateShifts(
      db,
      { businessId, fleetId, patternId },
      { today, through: addDays(today, SHIFT_HORIZON_DAYS - 1) },
      this.clock.now(),
    );
  }

  /** The fleet as the caller reaches it about this driver: itself (a member), or another (staff, a captain). */
  private async accessFor(ctx: OperationContext, input: SignupRef) {
    const caller = callerOf(ctx);
    if (caller.kind !== 'driver' || caller.userId !== input.driver_id) {
      return { fleet: await this.fleets.access(ctx, input.fleet_id, 'lead'), leads: true };
    }
    const fleet = await this.fleets.access(ctx, input.fleet_id, 'see');
    const memberships = await this.fleets.membershipsOf(ctx.db, businessOf(ctx), caller.userId);
    const leads = memberships.some((member) => member.fleet_id === fleet.id && member.role === 'captain');
    return { fleet, leads };
  }

  /** The shift, locked, not cancelled and not started, with its signups: what signing up and changing need. */
  private async openShift(db: Queryable, businessId: number, fleetId: number, shiftId: number) {
    const shift = await this.lockShift(db, businessId, fleetId, shiftId);
    if (shift.cancelled) throw new AppError('SHIFT_CANCELLED', { params: { shift: shift.id } });
    if (hasStarted(shift, await this.localNow(db, businessId))) throw shiftStarted(shift);
    return { shift, signups: await repo.signupsOf(db, businessId, [shift.id]) };
  }

  private async lockShift(db: Queryable, businessId: number, fleetId: number, shiftId: number) {
    const shift = await repo.lockShift(db, businessId, fleetId, shiftId);
    if (!shift) throw new AppError('SHIFT_NOT_FOUND', { params: { shift: shiftId } });
    return shift;
  }

  private async signupOf(db: Queryable, shift: ShiftRow, driverId: number) {
    const signups = await repo.signupsOf(db, shift.business_id, [shift.id]);
    const signup = signups.find((candidate) => candidate.driver_user_id === driverId);
    if (!signup) throw new AppError('SIGNUP_NOT_FOUND', { params: { shift: shift.id, driver: driverId } });
    return signup;
  }

  /** Tells the shift's signed-up drivers on their own MQTT topics, once the change commits; answers the shift as it now is. */
  private async tellSignedUp(
    db: Queryable,
    shift: ShiftRow,
    signups: readonly SignupRow[],
    type: 'shift_changed' | 'shift_cancelled',
  ) {
    const answer = await this.shiftAnswer(db, shift.business_id, shift.id);
    const { signups: _signups, free_slots: _free, ...told } = answer.shift;
    await enqueueDriverPushes(
      db,
      this.clock,
      signups.map((signup) => ({
        businessId: shift.business_id,
        driverUserId: signup.driver_user_id,
        body: { type, shift: told },
      })),
    );
    return answer;
  }

  private async shiftAnswer(db: Queryable, businessId: number, shiftId: number) {
    const shift = await repo.shiftById(db, businessId, shiftId);
    return { result: true as const, shift: (await this.views(db, [shift!]))[0]! };
  }

  /** Shifts as the calendar answers them: their terms, signups (driver, name, state) and free slots. */
  private async views(db: Queryable, shifts: readonly ShiftRow[]) {
    if (shifts.length === 0) return [];
    const signups = await repo.signupsOf(db, shifts[0]!.business_id, ids(shifts));
    const names = await this.accounts.namesOf(
      db,
      signups.map((signup) => signup.driver_user_id),
    );
    return shifts.map((shift) => {
      const own = signups.filter((signup) => signup.shift_id === shift.id);
      return {
        ...shiftFields(shift),
        free_slots: shift.cancelled ? 0 : Math.max(0, shift.slots - own.length),
        signups: own.map((signup) => ({
          driver_id: signup.driver_user_id,
          name: names.get(signup.driver_user_id) ?? null,
          state: signup.state,
          signed_up_at: signup.signed_up_at.toISOString(),
        })),
      };
    });
  }

  private async refuseUnknownDepot(db: Queryable, businessId: number, depotId: number | null | undefined) {
    if (!depotId) return;
    const depots = await this.dispatch.maps.depots(db, businessId);
    if (!depots.some((depot) => depot.id === depotId)) {
      throw new AppError('DEPOT_NOT_FOUND', { params: { depot: depotId } });
    }
  }

  private async localNow(db: Queryable, businessId: number): Promise<LocalNow> {
    const local = await this.accounts.localDateTimeOf(db, businessId, this.clock.now());
    return { date: local.slice(0, 10), time: local.slice(11) };
  }
}

/** The work terms of an input, over a row's where the input leaves them out (times `HH:MM` or `HH:MM:SS`). */
function termsOf(input: WorkTerms, base?: ShiftTerms): ShiftTerms {
  return {
    start_time: input.start ?? base!.start_time,
    end_time: input.end ?? base!.end_time,
    depot_id: input.depot_id === undefined ? (base?.depot_id ?? null) : input.depot_id,
    vehicle_kind: input.vehicle_kind ?? base!.vehicle_kind,
    slots: input.slots ?? base!.slots,
  };
}

/** ISO weekdays as a pattern keeps them: each once, Monday first. */
function weekdaysOf(days: readonly number[]): number[] {
  return [...new Set(days)].sort((x, y) => x - y);
}

function sameTerms(shift: ShiftTerms, pattern: ShiftTerms): boolean {
  return (
    shift.start_time === pattern.start_time &&
    shift.end_time === pattern.end_time &&
    shift.depot_id === pattern.depot_id &&
    shift.vehicle_kind === pattern.vehicle_kind &&
    shift.slots === pattern.slots
  );
}

/** Whether the pattern generates a shift on this date: one of its weekdays, within its validity. */
function covers(pattern: PatternRow, date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
  return (
    pattern.weekdays.includes(weekday) &&
    date >= pattern.valid_from &&
    (pattern.valid_to === null || date <= pattern.valid_to)
  );
}

function hasStarted(shift: { shift_date: string; start_time: string }, now: LocalNow): boolean {
  return shift.shift_date < now.date || (shift.shift_date === now.date && shift.start_time <= now.time);
}

function ids(rows: readonly { id: number }[]): number[] {
  return rows.map((row) => row.id);
}

/** The shifts with drivers a pattern change or deletion left as they were. */
function keptView(shifts: ReadonlyArray<ShiftRow & { signups: string | number | null }>) {
  return shifts
    .filter((shift) => Number(shift.signups) > 0 && !shift.cancelled)
    .map((shift) => ({
      id: shift.id,
      date: shift.shift_date,
      start: shift.start_time.slice(0, 5),
      end: shift.end_time.slice(0, 5),
      signups: Number(shift.signups),
    }));
}

function patternView(row: PatternRow) {
  return {
    id: row.id,
    fleet_id: row.fleet_id,
    weekdays: row.weekdays,
    start: row.start_time.slice(0, 5),
    end: row.end_time.slice(0, 5),
    depot_id: row.depot_id,
    vehicle_kind: row.vehicle_kind,
    slots: row.slots,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function shiftFields(row: ShiftRow) {
  return {
    id: row.id,
    fleet_id: row.fleet_id,
    pattern_id: row.pattern_id,
    date: row.shift_date,
    start: row.start_time.slice(0, 5),
    end: row.end_time.slice(0, 5),
    depot_id: row.depot_id,
    vehicle_kind: row.vehicle_kind,
    slots: row.slots,
    cancelled: row.cancelled,
  };
}

function patternNotFound(patternId: number): AppError {
  return new AppError('SHIFT_PATTERN_NOT_FOUND', { params: { pattern: patternId } });
}

function shiftStarted(shift: ShiftRow): AppError {
  return new AppError('SHIFT_STARTED', {
    params: { shift: shift.id, date: shift.shift_date, start: shift.start_time.slice(0, 5) },
  });
}

function stateRefused(signup: SignupRow, to: string): AppError {
  return new AppError('SIGNUP_STATE_INVALID', {
    params: { from: signup.state, to },
    details: { allowed: SIGNUP_TRANSITIONS[signup.state] },
  });
}

/** A field whose value only the stored row shows wrong (VALIDATION_FAILED, as zod would say it). */
function fieldRefused(field: string, code: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    params: { fields: field },
    details: { fields: [{ field, code, message: field }] },
  });
}
