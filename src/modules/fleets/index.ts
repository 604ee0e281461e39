// The fleets module (fleets and their captains, the shift calendar, the driver route board): what the composition root may use.

export { RouteBoard } from './board.ts';
export { routeBoardOperations } from './board-operations.ts';
export { FleetCalendar } from './calendar.ts';
export { calendarOperations } from './calendar-operations.ts';
export { FleetShiftWindows } from './calendar-windows.ts';
export { fleetsOperations } from './operations.ts';
export { FleetsService } from './service.ts';
