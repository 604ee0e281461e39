/**
 * Readers for the public VRPTW (Solomon) and PDPTW (Li and Lim) benchmark files, and their
 * translation into the solver's input: coordinates as points, Euclidean distances, travel time
 * equal to distance, unrounded, one load dimension.
 */
import { readFileSync } from 'node:fs';
import type { Point, SolverInput, SolverStop, TravelTable } from '../../src/modules/dispatch/solver/types.ts';

export const DATA_DIR = process.env.VRP_DATA ?? '/work/shared/data/vrp';

/** One row of either format: row 0 is the depot. */
export interface Row {
  id: number;
  x: number;
  y: number;
  demand: number;
  ready: number;
  due: number;
  service: number;
  /** Li and Lim: on a delivery row its pickup's id; on a pickup row 0. */
  pickupSibling: number;
  /** Li and Lim: on a pickup row its delivery's id; on a delivery row 0. */
  deliverySibling: number;
}

export interface Instance {
  name: string;
  kind: 'solomon' | 'li_lim';
  vehicles: number;
  capacity: number;
  rows: Row[]; // rows[0] is the depot
}

export function readSolomon(path: string, name: string): Instance {
  const lines = readFileSync(path, 'utf8').split('\n');
  const numbers = (line: string) => line.trim().split(/\s+/).filter(Boolean).map(Number);
  const vehicleLine = lines.findIndex((line) => /NUMBER\s+CAPACITY/.test(line));
  const [vehicles = 0, capacity = 0] = numbers(lines[vehicleLine + 1]!);
  const rows: Row[] = [];
  for (const line of lines.slice(vehicleLine + 2)) {
    const values = numbers(line);
    if (values.length !== 7 || values.some(Number.isNaN)) continue;
    const [id, x, y, demand, ready, due, service] = values as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    rows.push({ id, x, y, demand, ready, due, service, pickupSibling: 0, deliverySibling: 0 });
  }
  return { name, kind: 'solomon', vehicles, capacity, rows };
}

export function readLiLim(path: string, name: string): Instance {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const numbers = (line: string) => line.trim().split(/\s+/).map(Number);
  const [vehicles = 0, capacity = 0] = numbers(lines[0]!);
  const rows = lines.slice(1).map((line): Row => {
    const [id, x, y, demand, ready, due, service, pickupSibling, deliverySibling] = numbers(line) as number[];
    return {
      id: id!,
      x: x!,
      y: y!,
      demand: demand!,
      ready: ready!,
      due: due!,
      service: service!,
      pickupSibling: pickupSibling!,
      deliverySibling: deliverySibling!,
    };
  });
  return { name, kind: 'li_lim', vehicles, capacity, rows };
}

export const euclidean = (a: Point, b: Point): number => Math.hypot(a.lat - b.lat, a.lng - b.lng);

/** The instance as solver input: stop ids are row ids (a P2P stop takes its pickup row's id). */
export function toSolverInput(instance: Instance): SolverInput {
  const [depot, ...customers] = instance.rows;
  const point = (row: Row): Point => ({ lat: row.x, lng: row.y });
  const byId = new Map(instance.rows.map((row) => [row.id, row]));
  const load = (amount: number) => ({ weightGrams: amount, volumeCm3: 0, count: 0 });
  const stops: SolverStop[] = [];
  for (const row of customers) {
    if (instance.kind === 'solomon') {
      stops.push({
        id: row.id,
        location: point(row),
        demand: load(row.demand),
        serviceSeconds: row.service,
        window: { start: row.ready, end: row.due },
      });
    } else if (row.deliverySibling > 0) {
      const delivery = byId.get(row.deliverySibling)!;
      stops.push({
        id: row.id,
        pickup: {
          location: point(row),
          serviceSeconds: row.service,
          window: { start: row.ready, end: row.due },
        },
        location: point(delivery),
        demand: load(row.demand),
        serviceSeconds: delivery.service,
        window: { start: delivery.ready, end: delivery.due },
      });
    }
  }
  return {
    stops,
    vehicles: Array.from({ length: instance.vehicles }, (_, index) => ({
      id: index + 1,
      start: point(depot!),
      capacity: load(instance.capacity),
      shift: { start: depot!.ready, end: depot!.due },
      skills: [],
    })),
    // A table rather than a function, so the input crosses to the solver threads as plain data.
    travel: euclideanTable(instance.rows.map(point)),
  };
}

/** Euclidean distances between the distinct points, a leg's time equal to its length (no rounding). */
function euclideanTable(all: Point[]): TravelTable {
  const points = [...new Map(all.map((p) => [`${p.lat},${p.lng}`, p])).values()];
  const meters = points.map((a) => points.map((b) => euclidean(a, b)));
  return { points, meters, seconds: meters };
}
