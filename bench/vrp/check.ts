/**
 * An independent checker of benchmark plans: it reads nothing of the solver but the routes (lists
 * of row ids) and recomputes everything from the instance's rows. Tolerance 1e-6 on times.
 */
import type { Instance } from './instances.ts';

const EPSILON = 1e-6;

export interface Verdict {
  ok: boolean;
  errors: string[];
  distance: number;
  routes: number;
  /** Customers on no route: a plan that leaves some out is valid but does not serve them all. */
  missing: number;
}

export function checkPlan(instance: Instance, routes: number[][]): Verdict {
  const errors: string[] = [];
  const rows = new Map(instance.rows.map((row) => [row.id, row]));
  const depot = instance.rows[0]!;
  const seen = new Map<number, number>();
  const leg = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  let distance = 0;
  const used = routes.filter((route) => route.length > 0);
  if (used.length > instance.vehicles) errors.push(`${used.length} routes for ${instance.vehicles} vehicles`);
  used.forEach((route, r) => {
    let at = depot;
    let clock = depot.ready;
    // Solomon: every demand is loaded at the depot; Li and Lim: signed demands along the route.
    let load =
      instance.kind === 'solomon' ? route.reduce((sum, id) => sum + (rows.get(id)?.demand ?? 0), 0) : 0;
    if (load > instance.capacity) errors.push(`route ${r}: loads ${load} > ${instance.capacity}`);
    const position = new Map<number, number>();
    route.forEach((id, index) => {
      const row = rows.get(id);
      if (!row || id === depot.id) {
        errors.push(`route ${r}: unknown stop ${id}`);
        return;
      }
      seen.set(id, (seen.get(id) ?? 0) + 1);
      position.set(id, index);
      const d = leg(at, row);
      distance += d;
      const arrival = clock + d;
      if (arrival > row.due + EPSILON)
        errors.push(`route ${r}: stop ${id} reached at ${arrival} > due ${row.due}`);
      clock = Math.max(arrival, row.ready) + row.service;
      load += instance.kind === 'solomon' ? -row.demand : row.demand;
      if (load > instance.capacity + EPSILON) errors.push(`route ${r}: load ${load} after stop ${id}`);
      if (load < -EPSILON) errors.push(`route ${r}: negative load after stop ${id}`);
      at = row;
    });
    distance += leg(at, depot);
    const back = clock + leg(at, depot);
    if (back > depot.due + EPSILON) errors.push(`route ${r}: back at ${back} > ${depot.due}`);
    if (instance.kind === 'li_lim') {
      for (const id of route) {
        const row = rows.get(id)!;
        if (row.deliverySibling > 0) {
          const delivery = position.get(row.deliverySibling);
          if (delivery === undefined) errors.push(`route ${r}: pickup ${id} without its delivery`);
          else if (delivery < position.get(id)!)
            errors.push(`route ${r}: delivery ${row.deliverySibling} before pickup ${id}`);
        }
      }
    }
  });
  let missing = 0;
  for (const row of instance.rows.slice(1)) {
    const count = seen.get(row.id) ?? 0;
    if (count === 0) missing++;
    else if (count > 1) errors.push(`stop ${row.id} visited ${count} times`);
  }
  return { ok: errors.length === 0, errors, distance, routes: used.length, missing };
}
