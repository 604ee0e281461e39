import { AppError } from '../../platform/errors.ts';

// The route board's rules, pure: the area a route covers, and whether a driver may hold it.

/** A window of a day, `HH:MM` business time. */
export interface Window {
  start: string;
  end: string;
}

/** The box a route's stops lie in, rounded outwards to 0.01 degree (about a kilometre): where, not whose door. */
export function areaOf(points: ReadonlyArray<{ lat: number; lng: number }>) {
  if (points.length === 0) return null;
  const down = (value: number) => Math.floor(value * 100) / 100;
  const up = (value: number) => Math.ceil(value * 100) / 100;
  return {
    south: down(Math.min(...points.map((point) => point.lat))),
    west: down(Math.min(...points.map((point) => point.lng))),
    north: up(Math.max(...points.map((point) => point.lat))),
    east: up(Math.max(...points.map((point) => point.lng))),
  };
}

const text = (window: Window) => `${window.start}-${window.end}`;

/**
 * BOARD_WINDOW_OVERLAP when the window overlaps one of the driver's other routes that day (one
 * ending as the other starts does not), else null.
 */
export function windowRefusal(
  routeId: number,
  window: Window,
  others: ReadonlyArray<{ id: number; departure: string; returnTime: string }>,
): AppError | null {
  const clash = others.find((other) => window.start < other.returnTime && other.departure < window.end);
  if (!clash) return null;
  const otherWindow = { start: clash.departure, end: clash.returnTime };
  return new AppError('BOARD_WINDOW_OVERLAP', {
    params: { route: routeId, window: text(window), other: clash.id, other_window: text(otherWindow) },
    details: { route_id: routeId, window, other_route_id: clash.id, other_window: otherWindow },
  });
}

/**
 * BOARD_OUTSIDE_SHIFT when the driver has shifts that day (`HH:MM:SS`) and the window fits in none
 * of them, else null: a driver without a shift that day is not bound by one.
 */
export function shiftRefusal(
  routeId: number,
  window: Window,
  shifts: ReadonlyArray<{ start_time: string; end_time: string }>,
): AppError | null {
  const windows = shifts.map((shift) => ({
    start: shift.start_time.slice(0, 5),
    end: shift.end_time.slice(0, 5),
  }));
  if (
    windows.length === 0 ||
    windows.some((shift) => shift.start <= window.start && window.end <= shift.end)
  ) {
    return null;
  }
  return new AppError('BOARD_OUTSIDE_SHIFT', {
    params: { route: routeId, window: text(window), shifts: windows.map(text).join(', ') },
    details: { route_id: routeId, window, shifts: windows },
  });
}

/**
 * BOARD_WINDOW_PASSED once the route's departure (its date and window start, business time) is at
 * or before `localNow` (`YYYY-MM-DD HH:MM[:SS]`, the business's wall clock), else null: a driver
 * taking it then could not leave on time, so only a captain or staff may still hand it over.
 */
export function windowPassedRefusal(
  routeId: number,
  date: string,
  window: Window,
  localNow: string,
): AppError | null {
  const departure = `${date} ${window.start}`;
  const now = localNow.slice(0, 16);
  if (now < departure) return null;
  return new AppError('BOARD_WINDOW_PASSED', {
    params: { route: routeId, departure },
    details: { route_id: routeId, date, window, now },
  });
}

/**
 * BOARD_OFF_SHIFT when the driver is bound to its shift days (it asks for the route itself, and
 * the board's fleet keeps a shift calendar) and has no shift that day (`workingShifts`: scheduled
 * or checked in, not cancelled), else null.
 */
export function offShiftRefusal(
  routeId: number,
  date: string,
  boundToShiftDays: boolean,
  workingShifts: number,
): AppError | null {
  if (!boundToShiftDays || workingShifts > 0) return null;
  return new AppError('BOARD_OFF_SHIFT', {
    params: { route: routeId, date },
    details: { route_id: routeId, date },
  });
}
