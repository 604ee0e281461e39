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
  };
}
