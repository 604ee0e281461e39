import type { Queryable } from '../../platform/db/database.ts';

/** A driver's working window on a date from a calendar: local times HH:MM, and the depot its shift names. */
export interface WorkingWindow {
  start: string;
  end: string;
  depotId: number | null;
}

/**
 * Where route building learns the drivers' shifts of a date (the fleets' shift calendar
 * implements it; dispatch does not know fleets). A driver absent from the answer has no shift
 * that day and works its profile's hours.
 */
export interface ShiftCalendar {
  windowsOf(
    db: Queryable,
    businessId: number,
    date: string,
    driverIds: readonly number[],
  ): Promise<Map<number, WorkingWindow>>;
}

/** Where a driver's working window of the date comes from. */
export type ShiftSource = 'calendar' | 'profile';

interface PlannedProfile {
  depot_id: number | null;
  shift: { start: string; end: string };
}

/**
 * The drivers as a date's planning sees them: a driver with a calendar shift that day works its
 * window (and leaves from the shift's depot when it names one); the others keep their profile.
 */
export async function onTheirShifts<D extends { id: number; profile: PlannedProfile | null }>(
  calendar: ShiftCalendar | undefined,
  db: Queryable,
  businessId: number,
  date: string,
  drivers: readonly D[],
): Promise<Array<D & { shift_from: ShiftSource }>> {
  const windows = calendar
    ? await calendar.windowsOf(
        db,
        businessId,
        date,
        drivers.map((driver) => driver.id),
      )
    : new Map<number, WorkingWindow>();
  return drivers.map((driver) => {
    const window = windows.get(driver.id);
    if (!window || !driver.profile) return { ...driver, shift_from: 'profile' as const };
    return {
      ...driver,
      profile: {
        ...driver.profile,
        depot_id: window.depotId ?? driver.profile.depot_id,
        shift: { start: window.start, end: window.end },
      },
      shift_from: 'calendar' as const,
    };
  });
}
