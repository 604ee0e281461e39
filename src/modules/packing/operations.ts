import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { PackagingCatalog } from './packaging.ts';
import type { PackingPlans } from './packing-plans.ts';
import {
  checkCarton,
  checkPieces,
  customCartonSchema,
  itemSchema,
  MAX_CUSTOM_CARTONS,
  MAX_ITEM_LINES,
  MAX_PACKAGING_TYPES,
  MAX_PLAN_PIECES,
  packagingInput,
  packagingSchema,
  packingPlanSchema,
  TIME_LIMIT_MS,
} from './schemas.ts';

const TAG = 'Packing Plans';
const READ = { kinds: STAFF, scopes: ['packing:read'] };
const WRITE = { kinds: STAFF, scopes: ['packing:write'] };

const packagingBody = z.object(packagingInput).superRefine(checkCarton);
const packagingAnswer = z.object({ result: z.literal(true), packaging: packagingSchema });
const planAnswer = z.object({ result: z.literal(true), plan: packingPlanSchema });
const PLAN_ERRORS = ['PACKING_PLAN_NOT_FOUND'] as const;

export function packingOperations(packaging: PackagingCatalog, plans: PackingPlans): Operation[] {
  return [
    defineOperation({
      name: 'create_packaging',
      summary: 'Add a carton type to the packaging catalog',
      description: `Inner and outer sizes in millimetres (outer at least inner), tare and maximum gross weight in grams, the cost of one carton. A catalog holds at most ${MAX_PACKAGING_TYPES} types.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['PACKAGING_CATALOG_FULL'],
      rest: { method: 'POST', path: '/v1/client/packaging' },
      graphql: 'createPackaging',
      input: packagingBody,
      output: packagingAnswer,
      handler: (ctx, input) => packaging.create(ctx, input),
    }),
    defineOperation({
      name: 'list_packaging',
      summary: "The business's carton types",
      description:
        'Every carton type with its sizes, weights and cost; `active` filters. Plans use the active ones.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_packaging',
        guide:
          'Carton types of the packaging catalog: inner and outer mm, tare and max gross g, cost, active.',
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/packaging' },
      graphql: 'packaging',
      input: z.object({
        active: z.boolean().optional().describe('Only the active (true) or inactive (false) types'),
      }),
      output: z.object({ result: z.literal(true), packaging: z.array(packagingSchema) }),
      handler: (ctx, input) => packaging.list(ctx, input),
    }),
    defineOperation({
      name: 'replace_packaging',
      summary: 'Change a carton type of the packaging catalog (its whole description)',
      description:
        'Plans already answered keep the sizes they were answered with; a re-run uses the new ones. Set `active: false` to stop plans choosing it.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['PACKAGING_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/packaging/:packaging_id' },
      graphql: 'replacePackaging',
      input: z.object({ packaging_id: id, ...packagingInput }).superRefine(checkCarton),
      output: packagingAnswer,
      handler: (ctx, { packaging_id, ...input }) => packaging.replace(ctx, packaging_id, input),
    }),
    defineOperation({
      name: 'delete_packaging',
      summary: 'Delete a carton type from the packaging catalog',
      description: 'Plans already answered keep what they were answered with.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['PACKAGING_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/packaging/:packaging_id' },
      graphql: 'deletePackaging',
      input: z.object({ packaging_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => packaging.delete(ctx, input.packaging_id),
    }),
    defineOperation({
      name: 'create_packing_plan',
      summary:
        'Pack items into cartons: the smallest total outer volume, then the fewest packages, then the lowest cost',
      description:
        'Cartons come from the packaging catalog (its active types, or the ones `packaging_ids` names) plus `custom_cartons` for this plan. ' +
        '`target_utilization_percent` is a hard cap: no package is filled beyond that share of its inner volume; weights and orientations are hard too. ' +
        `Items no carton can take are listed in \`unfit\` with the reason. At most ${MAX_PLAN_PIECES} pieces; the search runs up to \`time_limit_ms\` ` +
        `(default ${TIME_LIMIT_MS.default}, at most ${TIME_LIMIT_MS.max}) on a solver thread. With \`order_id\` the plan is kept against that order (apply_packing_plan makes its packages the order's).`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      expensive: true,
      access: WRITE,
      errors: ['PACKAGING_NOT_FOUND', 'ORDER_NOT_FOUND', 'SOLVER_BUSY'],
      rest: { method: 'POST', path: '/v1/client/packing-plans' },
      graphql: 'createPackingPlan',
      input: z.object({
        items: z.array(itemSchema).min(1).max(MAX_ITEM_LINES).superRefine(checkPieces(MAX_PLAN_PIECES)),
        custom_cartons: z.array(customCartonSchema).max(MAX_CUSTOM_CARTONS).optional(),
        packaging_ids: z.array(id).max(MAX_PACKAGING_TYPES).optional().describe('Default: every active type'),
        target_utilization_percent: z.number().min(1).max(100).default(100),
        time_limit_ms: z.int().min(50).max(TIME_LIMIT_MS.max).default(TIME_LIMIT_MS.default),
        order_id: id.optional(),
      }),
      output: planAnswer,
      handler: (ctx, input) => plans.create(ctx, input),
    }),
    defineOperation({
      name: 'get_packing_plan',
      summary: 'A packing plan by id',
      description:
        'Its packages (carton, sizes, fill, gross weight, cost) with the items in each and their positions, the pieces that fit no carton with the reason, and the totals.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_packing_plan',
        guide:
          'A packing plan: packages with their items and positions, fill %, weights, cost; unfit pieces with the reason.',
        idempotent: true,
      },
      access: READ,
      errors: [...PLAN_ERRORS],
      rest: { method: 'GET', path: '/v1/client/packing-plans/:plan_id' },
      graphql: 'packingPlan',
      input: z.object({ plan_id: id }),
      output: planAnswer,
      handler: (ctx, input) => plans.get(ctx, input.plan_id),
    }),
    defineOperation({
      name: 'list_packing_plans',
      summary: "The business's packing plans, newest first",
      description: 'With `order_id`, the plans kept against that order. Paged.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/client/packing-plans' },
      graphql: 'packingPlans',
      input: z.object({ order_id: id.optional(), ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, plans: z.array(packingPlanSchema) }),
      handler: (ctx, input) => plans.list(ctx, input),
    }),
    defineOperation({
      name: 'rerun_packing_plan',
      summary: 'Solve a packing plan again against the packaging catalog as it is now',
      description:
        'The same items, custom sizes and cap; the new answer replaces the old, and an applied plan is no longer applied.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      expensive: true,
      access: WRITE,
      errors: [...PLAN_ERRORS, 'PACKAGING_NOT_FOUND', 'SOLVER_BUSY'],
      rest: { method: 'POST', path: '/v1/client/packing-plans/:plan_id/rerun' },
      graphql: 'rerunPackingPlan',
      input: z.object({ plan_id: id }),
      output: planAnswer,
      handler: (ctx, input) => plans.rerun(ctx, input.plan_id),
    }),
    defineOperation({
      name: 'apply_packing_plan',
      summary: "Make a packing plan's packages the order's packages, with their sizes and weights",
      description:
        "The order's first packages keep their tracking numbers with the new sizes, extra packages get new numbers, surplus ones are removed. " +
        'Only before pickup (NEW_ORDER, HOLD, PLANNED), never for a label-service order, and only when every piece fit a carton.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: STAFF, scopes: ['packing:write', 'orders:write'] },
      errors: [
        ...PLAN_ERRORS,
        'ORDER_NOT_FOUND',
        'PACKING_PLAN_INCOMPLETE',
        'ORDER_PACKAGES_LOCKED',
        'ORDER_TOO_MANY_PACKAGES',
      ],
      rest: { method: 'POST', path: '/v1/client/packing-plans/:plan_id/apply' },
      graphql: 'applyPackingPlan',
      input: z.object({ plan_id: id, order_id: id }),
      output: z.object({
        result: z.literal(true),
        plan: packingPlanSchema,
        packages: z.array(
          z.object({
            tracking_number: z.string(),
            weight_grams: z.int().nullable(),
            length_mm: z.int().nullable(),
            width_mm: z.int().nullable(),
            height_mm: z.int().nullable(),
            description: z.string().nullable(),
          }),
        ),
      }),
      handler: (ctx, input) => plans.apply(ctx, input.plan_id, input.order_id),
    }),
  ];
}
