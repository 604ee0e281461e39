import type { Generated } from 'kysely';

export const SPACE_KINDS = ['container', 'uld', 'van', 'truck', 'breakbulk', 'custom'] as const;
export type SpaceKind = (typeof SPACE_KINDS)[number];

export interface PackingTables {
  /** A carton type of the business's packaging catalog (millimetres, grams, minor units). */
  packaging_types: {
    id: Generated<number>;
    business_id: number;
    name: string;
    inner_length_mm: number;
    inner_width_mm: number;
    inner_height_mm: number;
    outer_length_mm: number;
    outer_width_mm: number;
    outer_height_mm: number;
    tare_grams: number;
    max_gross_grams: number;
    cost_minor: number;
    currency: string;
    active: Generated<boolean>;
    created_at: Date;
    updated_at: Date;
  };
  /** A packing plan: what was asked and what the solver answered (jsonb, as the wire has them). */
  packing_plans: {
    id: Generated<number>;
    business_id: number;
    order_id: number | null;
    request: unknown;
    answer: unknown;
    created_by: number | null;
    created_at: Date;
    updated_at: Date;
    applied_at: Date | null;
  };
  /** A loading space the business defines. */
  loading_spaces: {
    id: Generated<number>;
    business_id: number;
    name: string;
    kind: SpaceKind;
    length_mm: number;
    width_mm: number;
    height_mm: number;
    payload_kg: number | null;
    cross_section: Array<[number, number]> | null;
    /** Two supports along the length, for the load each carries. */
    axles: Array<{ name: string; position_mm: number; max_load_kg: number }> | null;
    /** Loaded by hand: the reach limit, the stack ratio, the load pushed to the door (0070). */
    reach_limit_mm: number | null;
    max_stack_ratio: number | null;
    load_at_door: Generated<boolean>;
    created_at: Date;
  };
  /** A load plan: the space as planned, what was loaded, the answer. */
  load_plans: {
    id: Generated<number>;
    business_id: number;
    route_id: number | null;
    space: unknown;
    request: unknown;
    answer: unknown;
    created_by: number | null;
    created_at: Date;
    /** The route's deliveries the answer loaded, in unloading order; null: no route to follow. */
    basis: PlannedStop[] | null;
    /** What differs on the route since the answer (empty: it holds); stale_since the earliest. */
    changes: Generated<StaleChange[]>;
    stale_since: Date | null;
    /** When the answer was made, by whom and with which token: a job plans it again as them. */
    planned_at: Date;
    planned_by: number | null;
    planned_token_id: number | null;
    /** The job queued to plan it again (loading_settings), until a planning clears it. */
    replan_job_id: string | null;
  };
  loading_settings: {
    business_id: number;
    replan_automatically: boolean;
    updated_at: Date;
  };
}

/** A delivery a route's load plan loaded: its order, and its stop (1 is unloaded first). */
export interface PlannedStop {
  order_id: number;
  stop: number;
}

export const STALE_CHANGE_KINDS = [
  'stop_added',
  'stop_removed',
  'stop_moved',
  'stop_completed',
  'route_dissolved',
] as const;

/** What differs on a route from what its load plan loaded (staleness.ts). */
export interface StaleChange {
  kind: (typeof STALE_CHANGE_KINDS)[number];
  order_id: number | null;
  /** Its stop in the plan; null when the plan has it not. */
  planned_stop: number | null;
  /** Its stop on the route now, among the deliveries still to make; null when it is not one. */
  stop: number | null;
  /** When the change was first seen (ISO 8601). */
  at: string;
}
