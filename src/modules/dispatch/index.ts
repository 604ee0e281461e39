// The dispatch module (depots, driver profiles, routes, route building, plan edits, the driver's work and the dispatch board): what other modules, the doors and the composition root may use.

export { DispatchBoard, EXCEPTION_KINDS, type ExceptionKind } from './board.ts';
export { BoardFeed } from './board-feed.ts';
export { boardOperations } from './board-operations.ts';
export { type DriverVocabulary, driverOperations } from './driver-operations.ts';
export { DriverWork } from './driver-work.ts';
export { planEditOperations } from './edit-operations.ts';
export { LockerStops, ROUTE_CHANGED_PUSH } from './locker-stops.ts';
export type { MapRoute, MapStop } from './map-reads.ts';
export { type OpenedRoute, OpenRoutes, type RouteWindow } from './open-routes.ts';
export { dispatchOperations } from './operations.ts';
export { PlanEdits } from './plan-edits.ts';
export type { RoadNetwork, TravelMatrix } from './roads.ts';
export { roadNetwork } from './roads.ts';
export { type RouteSearch, routeSearch } from './route-search.ts';
export type { RouteStopsChange, RouteStopsListener } from './route-stops.ts';
export type { RouteUnderWay } from './routes-under-way.ts';
export { DispatchService } from './service.ts';
export type { ShiftCalendar, WorkingWindow } from './shift-calendar.ts';
export { solveByDeadline } from './solver/portfolio.ts';
export { suggestionOperations } from './suggestion-operations.ts';
export { DispatchSuggestions, type SuggestionProposals } from './suggestion-reader.ts';
export { ROUTE_STATUSES, type RouteStatus, STOP_STATUSES, type StopStatus } from './tables.ts';
