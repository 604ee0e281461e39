import { LRUCache } from 'lru-cache';
import { type OutboundRules, safeDelivery } from '../../platform/http/outbound.ts';
import { haversineMeters } from './solver/distance.ts';
import type { Point } from './solver/types.ts';

/**
 * Distances and driving times between places, for planning and for checking an edited plan:
 * `meters[i][j]` and `seconds[i][j]` from `points[i]` to `points[j]`, and where they came from.
 */
export interface TravelMatrix {
  points: readonly Point[];
  meters: number[][];
  seconds: number[][];
  /** 'straight_line', or the routing engine that answered ('osrm'). */
  source: string;
}

/** The routing-engine port: a business's travel matrix for a day (a day: road speeds differ by date). */
export interface RoadNetwork {
  /** 'osrm' when a routing engine is configured, else 'straight_line' (what a matrix says when all goes well). */
  readonly source?: string;
  matrix(request: {
    businessId: number;
    date: string;
    points: readonly Point[];
    /** The business's stand-in for roads when no engine answers; DEFAULT_STRAIGHT_LINE when absent. */
    straightLine?: StraightLineSettings;
  }): Promise<TravelMatrix>;
}

/** How straight lines stand in for roads: how much longer a road is, and how fast one drives it. */
export interface StraightLineSettings {
  /** Road distance over straight-line distance (1.3 is typical of a city grid). */
  circuity: number;
  speedMetersPerSecond: number;
}

/** A city grid's circuity at a city average of 30 km/h. */
export const DEFAULT_STRAIGHT_LINE: StraightLineSettings = { circuity: 1.3, speedMetersPerSecond: 30 / 3.6 };

/** Straight-line distance times the circuity factor, driven at the average speed; whole seconds. */
export function straightLineMatrix(points: readonly Point[], settings: StraightLineSettings): TravelMatrix {
  const meters = points.map((a) =>
    points.map((b) => (a === b ? 0 : haversineMeters(a, b) * settings.circuity)),
  );
  return {
    points,
    meters,
    seconds: meters.map((row) => row.map((m) => Math.ceil(m / settings.speedMetersPerSecond))),
    source: 'straight_line',
  };
}

/** No routing engine: straight lines, with the business's circuity and speed. */
export class StraightLines implements RoadNetwork {
  readonly source = 'straight_line';

  async matrix(request: Parameters<RoadNetwork['matrix']>[0]): Promise<TravelMatrix> {
    return straightLineMatrix(request.points, request.straightLine ?? DEFAULT_STRAIGHT_LINE);
  }
}

/** Where an OSRM server is, which addresses it may be at, and how long a table request may take. */
export interface OsrmSettings extends OutboundRules {
  /** Its base URL, e.g. http://osrm.internal:5000 (the table service is under /table/v1/driving/). */
  url: string;
}

/** OSRM's default --max-table-size: sources times destinations of one request stay within its square. */
export const OSRM_TABLE_SIZE = 100;
/** Matrices kept, counted in cells (about 16 bytes each): some 64 MB at most. */
const CACHE_CELLS = 4_000_000;
/** A day's matrices kept per business and date; a new point set beyond them pushes out the oldest. */
const MATRICES_PER_DAY = 4;
const RESPONSE_BYTES = 8 * 1024 * 1024;

const pointKey = (point: Point): string => `${point.lng},${point.lat}`;

/** One cached answer of the engine, with each point's row. */
interface CachedMatrix {
  rows: Map<string, number>;
  meters: number[][];
  seconds: number[][];
}

/**
 * Road distances and times from an OSRM server's table service
 * (`GET {url}/table/v1/driving/{lng,lat;...}?annotations=duration,distance`), through the guarded
 * outbound client. More points than OSRM_TABLE_SIZE are asked in blocks of sources by
 * destinations and assembled. Answers are kept in memory per business and day (least recently
 * used go first): the same points, or some of them, answer from the cache without a call. When the
 * engine fails (refused address, timeout, error status, unreadable answer) the matrix is straight
 * lines instead, and says so (`source: 'straight_line'`); a pair the engine cannot route is too.
 */
export class OsrmRoadNetwork implements RoadNetwork {
  readonly source = 'osrm';
  private readonly cache = new LRUCache<string, CachedMatrix[]>({
    maxSize: CACHE_CELLS,
    sizeCalculation: (matrices) =>
      Math.max(
        1,
        matrices.reduce((sum, m) => sum + m.rows.size ** 2, 0),
      ),
  });

  constructor(private readonly settings: OsrmSettings) {}

  async matrix(request: Parameters<RoadNetwork['matrix']>[0]): Promise<TravelMatrix> {
    const { points } = request;
    const straight = straightLineMatrix(points, request.straightLine ?? DEFAULT_STRAIGHT_LINE);
    if (points.length < 2) return { ...straight, source: this.source };
    const day = `${request.businessId}|${request.date}`;
    const cached = this.cache.get(day) ?? [];
    const keys = points.map(pointKey);
    const hit = cached.find((matrix) => keys.every((key) => matrix.rows.has(key)));
    if (hit) return this.extract(hit, points, keys, straight);
    // Ask once for every point not repeated, so that doubles cost nothing.
    const unique = [...new Map(points.map((point) => [pointKey(point), point])).values()];
    let fetched: CachedMatrix;
    try {
      fetched = await this.table(unique);
    } catch {
      return straight;
    }
    this.cache.set(day, [fetched, ...cached].slice(0, MATRICES_PER_DAY));
    return this.extract(fetched, points, keys, straight);
  }

  /** The requested points' rows of a cached matrix; a pair the engine could not route, by straight line. */
  private extract(
    matrix: CachedMatrix,
    points: readonly Point[],
    keys: string[],
    straight: TravelMatrix,
  ): TravelMatrix {
    const rows = keys.map((key) => matrix.rows.get(key)!);
    const cell = (table: number[][], fallback: number[][]) =>
      rows.map((from, i) => rows.map((to, j) => (i === j ? 0 : (table[from]![to] ?? fallback[i]![j]!))));
    return {
      points,
      meters: cell(matrix.meters, straight.meters),
      seconds: cell(matrix.seconds, straight.seconds),
      source: this.source,
    };
  }

  /** The full table over the points, block by block; NaN marks a pair the engine could not route. */
  private async table(points: Point[]): Promise<CachedMatrix> {
    const n = points.length;
    const meters = points.map(() => new Array<number>(n).fill(Number.NaN));
    const seconds = points.map(() => new Array<number>(n).fill(Number.NaN));
    for (let from = 0; from < n; from += OSRM_TABLE_SIZE) {
      for (let to = 0; to < n; to += OSRM_TABLE_SIZE) {
        const sources = range(from, Math.min(n, from + OSRM_TABLE_SIZE));
        const destinations = range(to, Math.min(n, to + OSRM_TABLE_SIZE));
        const block = await this.block(points, sources, destinations);
        sources.forEach((i, a) => {
          destinations.forEach((j, b) => {
            meters[i]![j] = block.distances[a]?.[b] ?? Number.NaN;
            seconds[i]![j] = block.durations[a]?.[b] ?? Number.NaN;
          });
        });
      }
    }
    const clean = (table: number[][]) =>
      table.map((row) => row.map((v) => (Number.isFinite(v) ? v : undefined)));
    return {
      rows: new Map(points.map((point, index) => [pointKey(point), index])),
      meters: clean(meters) as number[][],
      seconds: clean(seconds).map((row) =>
        row.map((v) => (v === undefined ? v : Math.ceil(v))),
      ) as number[][],
    };
  }

  /** One table request: these sources to these destinations (indices into points). */
  private async block(points: Point[], sources: number[], destinations: number[]) {
    const same = sources[0] === destinations[0];
    const coordinates = same ? sources : [...sources, ...destinations];
    const path = coordinates.map((index) => pointKey(points[index]!)).join(';');
    const query = new URLSearchParams({ annotations: 'duration,distance' });
    if (!same) {
      query.set('sources', sources.map((_, a) => a).join(';'));
      query.set('destinations', destinations.map((_, b) => sources.length + b).join(';'));
    }
    const url = `${this.settings.url.replace(/\/+$/, '')}/table/v1/driving/${path}?${query.toString().replaceAll('%3B', ';').replaceAll('%2C', ',')}`;
    const answer = await safeDelivery(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: this.settings.timeoutMs,
      maxResponseBytes: RESPONSE_BYTES,
      allow: this.settings.allow,
    });
    if (answer.status !== 200 || answer.truncated) throw new Error(`OSRM answered ${answer.status}`);
    const body = JSON.parse(answer.bodyExcerpt) as {
      code?: string;
      durations?: Array<Array<number | null>>;
      distances?: Array<Array<number | null>>;
    };
    if (body.code !== 'Ok' || !Array.isArray(body.durations) || !Array.isArray(body.distances)) {
      throw new Error(`OSRM answered ${body.code ?? 'without a table'}`);
    }
    return body as { durations: Array<Array<number | null>>; distances: Array<Array<number | null>> };
  }
}

/** The routing engine when one is configured, else straight lines. */
export function roadNetwork(osrm: OsrmSettings | undefined): RoadNetwork {
  return osrm ? new OsrmRoadNetwork(osrm) : new StraightLines();
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
