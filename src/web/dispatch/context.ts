import type { Api, paths } from '../shared/api.ts';
import type { PageData } from '../shared/page-data.ts';
import type { Translate } from '../shared/texts.ts';
import type { LiveBoard } from './board.ts';
import type { Point } from './pick-point.ts';
import type { PlanEdit, planEdits } from './plan.ts';
import type { ConsoleKey } from './texts/index.ts';

type FleetBoardRoute =
  paths['/v1/client/fleets/{fleet_id}/board']['get']['responses'][200]['content']['application/json']['routes'][number];

/** A route on a fleet's route board, as get_route_board tells it, with its fleet's name. */
export type FleetBoardEntry = FleetBoardRoute & { fleet: string };

/** What every part of the console is handed: the API as the person, the words, the live board. */
export interface ConsoleContext {
  data: PageData<ConsoleKey>;
  api: Api;
  t: Translate<ConsoleKey>;
  live: LiveBoard;
  /** The plan edits, through the API's operations. */
  edits: ReturnType<typeof planEdits>;
  /** Opens an order in the order panel. */
  openOrder(orderId: number): void;
  selectRoute(routeId: number | null): void;
  /** Makes a plan edit: a dry run first, the rules it breaks confirmed in a dialog, then undoable. */
  edit(edit: PlanEdit): Promise<boolean>;
  /** A line in the console's status area (role=status). */
  say(text: string): void;
  /** The route's number in the day (1 = the board's first) and its colour. */
  routeNumber(routeId: number): number;
  routeColour(routeId: number): string;
  /** Waits for one click on the map: where it fell, or null when the person gave up (Escape). */
  pickPoint(): Promise<Point | null>;
  /** The fleet's route board the route is on, if any (get_route_board). */
  boardEntry(routeId: number): FleetBoardEntry | undefined;
}
