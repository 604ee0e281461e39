import type { Queryable } from '../../platform/db/database.ts';
import type { ShiftCalendar, WorkingWindow } from '../dispatch/index.ts';
import { workingShiftsOn } from './calendar-repository.ts';

/**
 * The shift calendar as route building reads it: a driver's working window on a date is its
 * shift that day (not cancelled, the driver scheduled or checked in); with several shifts that
 * day, from the earliest start to the latest end, at the depot of the earliest shift naming one.
 */
export class FleetShiftWindows implements ShiftCalendar {
  async windowsOf(
    db: Queryable,
    businessId: number,
    date: string,
    driverIds: readonly number[],
  ): Promise<Map<number, WorkingWindow>> {
    const windows = new Map<number, WorkingWindow>();
    // By start time: the first shift of a driver opens its window, the later ones stretch it.
    for (const shift of await workingShiftsOn(db, businessId, date, driverIds)) {
      const start = shift.start_time.slice(0, 5);
      const end = shift.end_time.slice(0, 5);
      const window = windows.get(shift.driver_user_id);
      if (!window) {
        windows.set(shift.driver_user_id, { start, end, depotId: shift.depot_id });
        continue;
      }
      if (end > window.end) window.end = end;
      window.depotId ??= shift.depot_id;
    }
    return windows;
  }
}
