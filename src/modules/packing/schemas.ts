import { z } from 'zod';
import { fieldIssue } from '../../platform/i18n/field-messages.ts';
import { currencyCode } from '../../platform/schemas.ts';
import { SPACE_KINDS, STALE_CHANGE_KINDS } from './tables.ts';

/** A plan packs or loads at most this many pieces (the quantities added up). */
export const MAX_PLAN_PIECES = 500;
/** A load plan loads at most this many pieces. */
export const MAX_LOAD_PIECES = 2000;
export const MAX_ITEM_LINES = 500;
export const MAX_CUSTOM_CARTONS = 20;
/** The solvers' budget: a plan answers within about this, plus the time to read and write it. */
export const TIME_LIMIT_MS = { default: 1000, max: 5000 } as const;
export const MAX_PACKAGING_TYPES = 200;
export const MAX_LOADING_SPACES = 100;

const millimetres = z.int().min(1).max(20_000).describe('Millimetres');
const smallMillimetres = z.int().min(1).max(5000).describe('Millimetres');
const grams = z.int().min(0).max(100_000_000).describe('Grams');

export const dimensionsSchema = z
  .object({
    length_mm: smallMillimetres,
    width_mm: smallMillimetres,
    height_mm: smallMillimetres,
  })
  .meta({ title: 'CartonDimensions' });

const cost = z
  .number()
  .min(0)
  .max(1_000_000)
  .describe('Major units of the currency, rounded to its minor unit');

export const packagingInput = {
  name: z.string().trim().min(1).max(100),
  inner: dimensionsSchema,
  outer: dimensionsSchema.describe('Outside sizes; each at least the inner one'),
  tare_grams: grams.describe('The empty carton'),
  max_gross_grams: grams.describe('Carton and contents together'),
  cost,
  currency: currencyCode,
  active: z.boolean().default(true),
};

export const packagingSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    inner: dimensionsSchema,
    outer: dimensionsSchema,
    tare_grams: z.int(),
    max_gross_grams: z.int(),
    cost: z.number(),
    currency: z.string(),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'Packaging' });

/** Outer at least inner on every side, gross above tare: said at the field that breaks it. */
export function checkCarton(
  carton: { inner?: z.infer<typeof dimensionsSchema>; outer?: z.infer<typeof dimensionsSchema> } & {
    tare_grams?: number;
    max_gross_grams?: number;
  },
  ctx: z.RefinementCtx,
): void {
  const { inner, outer } = carton;
  if (inner && outer) {
    for (const side of ['length_mm', 'width_mm', 'height_mm'] as const) {
      if (outer[side] < inner[side]) {
        ctx.addIssue({
          code: 'custom',
          path: ['outer', side],
          ...fieldIssue('at_least_field', { field: `inner.${side}` }),
        });
      }
    }
  }
  if (
    carton.tare_grams !== undefined &&
    carton.max_gross_grams !== undefined &&
    carton.max_gross_grams <= carton.tare_grams
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['max_gross_grams'],
      ...fieldIssue('above_field', { field: 'tare_grams' }),
    });
  }
}

export const itemSchema = z.object({
  ref: z.string().trim().max(64).optional().describe('Your name for the item (a SKU), echoed in the answer'),
  length_mm: smallMillimetres,
  width_mm: smallMillimetres,
  height_mm: smallMillimetres.describe('The side that stays up when this_side_up'),
  weight_grams: grams.describe('One piece'),
  quantity: z.int().min(1).max(MAX_PLAN_PIECES).default(1),
  may_rotate: z.boolean().default(true).describe('Any of the six orientations'),
  this_side_up: z.boolean().default(false).describe('Only turned about the vertical axis'),
  no_stack: z.boolean().default(false).describe('Nothing may rest on it'),
});
export type ItemInput = z.infer<typeof itemSchema>;

/** The quantities of a list of items added up stay within `max`: said at the list. */
export function checkPieces(max: number) {
  return (items: ReadonlyArray<{ quantity: number }>, ctx: z.RefinementCtx) => {
    const pieces = items.reduce((sum, item) => sum + item.quantity, 0);
    if (pieces > max) ctx.addIssue({ code: 'custom', path: [], ...fieldIssue('at_most_pieces', { max }) });
  };
}

/** A usable outline is convex, counter-clockwise and within the space's width and height. */
export function isConvexOutline(points: ReadonlyArray<ReadonlyArray<number>>, width: number, height: number) {
  if (points.some(([y = 0, z = 0]) => y > width || z > height)) return false;
  let twiceArea = 0;
  for (let i = 0; i < points.length; i++) {
    const [ay = 0, az = 0] = points[i]!;
    const [by = 0, bz = 0] = points[(i + 1) % points.length]!;
    const [cy = 0, cz = 0] = points[(i + 2) % points.length]!;
    if ((by - ay) * (cz - bz) - (bz - az) * (cy - by) < 0) return false;
    twiceArea += ay * bz - by * az;
  }
  return twiceArea > 0;
}

export const customCartonSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    inner: dimensionsSchema,
    outer: dimensionsSchema.optional().describe('Defaults to the inner sizes'),
    tare_grams: grams.default(0),
    max_gross_grams: grams.describe('Carton and contents together'),
    cost: cost.default(0),
  })
  .superRefine(checkCarton);

export const placedSchema = z.object({
  x_mm: z.int(),
  y_mm: z.int(),
  z_mm: z.int(),
  length_mm: z.int().describe('Extent along x in the orientation placed'),
  width_mm: z.int(),
  height_mm: z.int(),
});

export const packingPlanSchema = z
  .object({
    id: z.int(),
    order_id: z.int().nullable(),
    target_utilization_percent: z.number(),
    packages: z.array(
      z.object({
        packaging_id: z.int().nullable().describe('The catalog carton; null for a custom size'),
        custom_index: z.int().nullable().describe("The custom size's place in custom_cartons"),
        name: z.string(),
        inner: dimensionsSchema,
        outer: dimensionsSchema,
        fill_percent: z.number().describe("The items' volume over the inner volume"),
        gross_weight_grams: z.int(),
        cost: z.number(),
        currency: z.string().nullable(),
        items: z.array(
          placedSchema.extend({
            item_index: z.int().describe('The line of items it comes from'),
            ref: z.string().nullable(),
            orientation: z.string().describe("Which of the item's sides lie along x, y, z: lwh as given"),
          }),
        ),
      }),
    ),
    unfit: z.array(
      z.object({
        item_index: z.int(),
        ref: z.string().nullable(),
        quantity: z.int(),
        reason: z.enum(['too_large', 'too_heavy', 'fill_cap_too_low']),
      }),
    ),
    totals: z.object({
      outer_volume_mm3: z.number(),
      package_count: z.int(),
      cost: z.array(z.object({ currency: z.string(), amount: z.number() })),
    }),
    search: z.object({ iterations: z.int(), elapsed_ms: z.int(), timed_out: z.boolean() }),
    created_at: z.string(),
    updated_at: z.string(),
    applied_at: z.string().nullable(),
  })
  .meta({ title: 'PackingPlan' });

/** What a loading space is: a sea container, an air ULD, a van, a truck, ... */
export const spaceKindSchema = z.enum(SPACE_KINDS).meta({ title: 'LoadingSpaceKind' });

export const crossSectionSchema = z
  .array(z.array(z.number().min(0).max(20_000)).length(2))
  .min(3)
  .max(32)
  .describe('The usable outline across the space, [y, z] points in millimetres, counter-clockwise, convex');

/** How a space loaded by hand is loaded (docs/loading.md, "Loads a person handles"). */
const handling = {
  reach_limit_mm: z
    .int()
    .min(100)
    .max(20_000)
    .optional()
    .describe("No box's top above this height from the floor: what a person loading by hand reaches"),
  max_stack_ratio: z
    .number()
    .min(0.5)
    .max(20)
    .optional()
    .describe(
      "Stability as a rule: each box's centre of gravity over the boxes it rests on, and no stack taller than this many times the narrowest side of the floor it stands on",
    ),
  load_at_door: z
    .boolean()
    .default(false)
    .describe('Unloaded from the rear door by hand: the load is pushed to the door end, not the front wall'),
};

export const spaceInput = {
  name: z.string().trim().min(1).max(100),
  kind: spaceKindSchema.default('custom'),
  length_mm: millimetres,
  width_mm: millimetres,
  height_mm: millimetres,
  payload_kg: z.int().min(1).max(1_000_000).optional(),
  cross_section: crossSectionSchema.optional(),
  axles: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(40),
        position_mm: z.int().min(-20_000).max(40_000).describe('From the front wall, along the length'),
        max_load_kg: z
          .int()
          .min(1)
          .max(1_000_000)
          .describe('The most cargo weight this axle (group) may carry'),
      }),
    )
    .length(2)
    .superRefine((axles, ctx) => {
      const [front, rear] = axles;
      if (front && rear && rear.position_mm <= front.position_mm) {
        ctx.addIssue({
          code: 'custom',
          path: [1, 'position_mm'],
          ...fieldIssue('above_field', { field: 'axles.0.position_mm' }),
        });
      }
    })
    .optional()
    .describe(
      'Two supports, front first (front axle or kingpin, rear axle group): the load is slid or ' +
        'thinned until neither carries more than its max_load_kg, and the load each carries is reported',
    ),
  ...handling,
};

export const spaceSchema = z
  .object({
    code: z.string().nullable().describe('A standard space; null for a business space'),
    id: z.int().nullable().describe("A business space's id"),
    name: z.string(),
    kind: spaceKindSchema,
    length_mm: z.int(),
    width_mm: z.int(),
    height_mm: z.int(),
    payload_kg: z.int().nullable(),
    door: z.object({ width_mm: z.int(), height_mm: z.int() }).nullable(),
    cross_section: z.array(z.array(z.number()).length(2)).nullable(),
    axles: z.array(z.object({ name: z.string(), position_mm: z.int(), max_load_kg: z.int() })).nullable(),
    reach_limit_mm: z.int().nullable().describe("No box's top above this; null: the space's height"),
    max_stack_ratio: z
      .number()
      .nullable()
      .describe(
        "Each box's centre over its support, and stacks within this ratio of their floor; null: neither rule",
      ),
    load_at_door: z.boolean().describe('The load is pushed to the door end'),
    source: z.string().nullable(),
  })
  .meta({ title: 'LoadingSpace' });
export type SpaceView = z.infer<typeof spaceSchema>;

export const loadItemSchema = z.object({
  ref: z.string().trim().max(64).optional(),
  length_mm: millimetres,
  width_mm: millimetres,
  height_mm: millimetres,
  weight_grams: grams.default(0),
  quantity: z.int().min(1).max(MAX_LOAD_PIECES).default(1),
  this_side_up: z.boolean().default(false),
  fragile: z.boolean().default(false).describe('Nothing may rest on it'),
  max_load_on_top_grams: grams.optional(),
  stop: z.int().min(0).max(1000).default(0).describe('Unloaded at this stop: 1 first; 0 one stop'),
});
export type LoadItemInput = z.infer<typeof loadItemSchema>;

const vector = z.object({ x_mm: z.number(), y_mm: z.number(), z_mm: z.number() });

const staleChangeSchema = z
  .object({
    kind: z
      .enum(STALE_CHANGE_KINDS)
      .describe(
        'stop_added: a delivery now on the route the plan does not load; stop_removed: a delivery it loads is no longer on the route; stop_moved: out of the order it is unloaded in; stop_completed: delivered, its packages are off; route_dissolved: a rebuild dissolved the route',
      ),
    order_id: z.int().nullable(),
    planned_stop: z
      .int()
      .nullable()
      .describe('Its stop in the plan (1 is unloaded first); null when the plan does not load it'),
    stop: z
      .int()
      .nullable()
      .describe(
        'Its stop on the route now, among the deliveries still to make; null when it is no longer one',
      ),
    at: z.string().describe('When the change was first seen'),
  })
  .meta({ title: 'LoadPlanChange' });

export const loadPlanSchema = z
  .object({
    id: z.int(),
    route_id: z.int().nullable(),
    space: spaceSchema,
    support_percent: z.number(),
    placements: z.array(
      placedSchema.extend({
        step: z.int().describe('Loading order: 1 goes in first'),
        item_index: z.int(),
        ref: z.string().nullable(),
        stop: z.int(),
        orientation: z.string(),
      }),
    ),
    unplaced: z.array(
      z.object({
        item_index: z.int(),
        ref: z.string().nullable(),
        quantity: z.int(),
        reason: z.enum([
          'too_large',
          'outside_contour',
          'too_heavy',
          'payload_reached',
          'axle_limit',
          'no_room',
          'door_too_small',
        ]),
      }),
    ),
    unmeasured: z
      .array(z.object({ order_id: z.int(), tracking_number: z.string() }))
      .describe("A route's packages without dimensions: not loaded, measure them first"),
    volume_percent: z.number(),
    weight_percent: z.number().nullable(),
    total_weight_grams: z.int(),
    centre_of_gravity: vector.nullable(),
    centre_of_gravity_offset: vector.nullable().describe("From the space's centre"),
    axle_loads: z
      .array(
        z.object({ name: z.string(), load_kg: z.number(), max_load_kg: z.int(), within_limit: z.boolean() }),
      )
      .nullable(),
    stops: z
      .array(
        z.object({
          stop: z.int(),
          boxes: z.int(),
          boxes_to_move: z
            .int()
            .describe(
              "Boxes of later stops in the way of this stop's once the earlier stops are off: 0 is the rule",
            ),
        }),
      )
      .describe('Each stop in unloading order, with its boxes; empty for plans made before it was told'),
    search: z.object({ iterations: z.int(), elapsed_ms: z.int() }),
    created_at: z.string(),
    planned_at: z.string().describe('When this answer was planned: at creation, or when last planned again'),
    stale: z
      .boolean()
      .describe(
        "A route's plan no longer holds: its route's deliveries changed since it was planned (`changes`). Always false for a plan of given items",
      ),
    stale_since: z
      .string()
      .nullable()
      .describe('When the earliest change still listed was seen; null while it holds'),
    changes: z
      .array(staleChangeSchema)
      .describe(
        'What differs on the route now from what the plan loaded, earliest first; empty while it holds',
      ),
    replan_job_id: z
      .string()
      .nullable()
      .describe(
        'The job queued to plan it again (get_job) when it went stale and the business plans stale plans again automatically (loading settings); null once planned again',
      ),
  })
  .meta({ title: 'LoadPlan' });

export const loadingSettingsSchema = z
  .object({
    replan_automatically: z
      .boolean()
      .describe(
        'A route’s load plan that goes stale is planned again by a job, as whoever planned it last (default false: it says so and waits to be planned again on request)',
      ),
  })
  .meta({ title: 'LoadingSettings' });
