import { z } from 'zod';
import { defineOperation, type Operation, Representation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldIssue } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { type LoadPlans, REPLAN_OPERATION } from './load-plans.ts';
import {
  checkPieces,
  isConvexOutline,
  loadItemSchema,
  loadingSettingsSchema,
  loadPlanSchema,
  MAX_ITEM_LINES,
  MAX_LOAD_PIECES,
  MAX_LOADING_SPACES,
  spaceInput,
  spaceSchema,
  TIME_LIMIT_MS,
} from './schemas.ts';

const TAG = 'Loading Planner';
const READ = { kinds: STAFF, scopes: ['packing:read'] };
const WRITE = { kinds: STAFF, scopes: ['packing:write'] };
const SVG = 'image/svg+xml';
const PDF = 'application/pdf';
const planAnswer = z.object({ result: z.literal(true), plan: loadPlanSchema });

export function loadingOperations(plans: LoadPlans): Operation[] {
  return [
    defineOperation({
      name: 'list_loading_spaces',
      summary:
        'The spaces load plans fill: standard containers, air ULDs, vans and trucks, and the business’s own',
      description:
        'Standard spaces have a `code` (iso-40-hc, uld-ld3, van-3t5 ...) with their sources; the business’s own have an `id`. Contoured spaces (air ULDs) give their usable cross-section.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/client/loading-spaces' },
      graphql: 'loadingSpaces',
      input: z.object({}),
      output: z.object({ result: z.literal(true), spaces: z.array(spaceSchema) }),
      handler: (ctx) => plans.spaces(ctx),
    }),
    defineOperation({
      name: 'create_loading_space',
      summary: 'Define a loading space of the business (its own van, trailer or envelope)',
      description: `Inside sizes in millimetres, payload in kilograms, optionally a convex cross-section (an envelope) and two supports whose share of the load is reported. At most ${MAX_LOADING_SPACES} spaces.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['LOADING_SPACES_FULL'],
      rest: { method: 'POST', path: '/v1/client/loading-spaces' },
      graphql: 'createLoadingSpace',
      input: z.object(spaceInput).superRefine((space, ctx) => {
        if (space.cross_section && !isConvexOutline(space.cross_section, space.width_mm, space.height_mm)) {
          ctx.addIssue({ code: 'custom', path: ['cross_section'], ...fieldIssue('convex_outline') });
        }
      }),
      output: z.object({ result: z.literal(true), space: spaceSchema }),
      handler: (ctx, input) => plans.createSpace(ctx, input),
    }),
    defineOperation({
      name: 'delete_loading_space',
      summary: 'Delete a loading space of the business',
      description: 'Load plans made in it keep the space as it was.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['LOADING_SPACE_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/loading-spaces/:space_id' },
      graphql: 'deleteLoadingSpace',
      input: z.object({ space_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => plans.deleteSpace(ctx, input.space_id),
    }),
    defineOperation({
      name: 'create_load_plan',
      summary:
        'Plan a load: which box goes where, in which order, with weight, balance and unloading order kept',
      description:
        'The boxes are `items`, or a built route’s measured packages (`route_id`), unloaded in the order of its deliveries: a box of a later stop never blocks one of an earlier stop. ' +
        'Each box rests on the floor or on boxes below for at least `support_percent` of its base (default 75). Fragile boxes carry nothing; boxes cross the door only where they fit it. ' +
        `At most ${MAX_LOAD_PIECES} pieces; the search runs up to \`time_limit_ms\` (default ${TIME_LIMIT_MS.default}, at most ${TIME_LIMIT_MS.max}) on a solver thread.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      expensive: true,
      access: { kinds: STAFF, scopes: ['packing:write'] },
      errors: ['LOADING_SPACE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'SOLVER_BUSY'],
      rest: { method: 'POST', path: '/v1/client/load-plans' },
      graphql: 'createLoadPlan',
      input: z
        .object({
          space: z
            .string()
            .trim()
            .min(1)
            .max(40)
            .describe('A standard space’s code or a business space’s id'),
          items: z
            .array(loadItemSchema)
            .min(1)
            .max(MAX_ITEM_LINES)
            .superRefine(checkPieces(MAX_LOAD_PIECES))
            .optional(),
          route_id: id.optional(),
          support_percent: z.number().min(0).max(100).default(75),
          time_limit_ms: z.int().min(50).max(TIME_LIMIT_MS.max).default(TIME_LIMIT_MS.default),
        })
        .superRefine((input, ctx) => {
          if ((input.items === undefined) === (input.route_id === undefined)) {
            ctx.addIssue({
              code: 'custom',
              path: [],
              ...fieldIssue('exactly_one_of', { fields: 'items, route_id' }),
            });
          }
        }),
      output: planAnswer,
      handler: (ctx, input) => plans.create(ctx, input),
    }),
    defineOperation({
      name: 'get_load_plan',
      summary: 'A load plan by id, or its picture',
      description: `Placements in loading order, what could not be loaded and why, volume and weight used, centre of gravity and its offset, axle loads where known; for a route's plan, whether it still holds (\`stale\`, \`stale_since\`, the \`changes\` on the route since it was planned). With \`Accept: ${SVG}\` the answer is the plan's picture: an isometric view, boxes coloured and numbered by stop, the door marked; with \`Accept: ${PDF}\` a printable loading sheet: the load, each stop's boxes to move, and the loading in four to six numbered pictures of its steps.`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_load_plan',
        guide:
          'A load plan: each box with position, loading step and stop; unloaded boxes with the reason; volume and weight used; centre of gravity; for a route’s plan, whether it is stale and what changed on the route since.',
        idempotent: true,
      },
      access: READ,
      errors: ['LOAD_PLAN_NOT_FOUND'],
      representations: [SVG, PDF],
      rest: { method: 'GET', path: '/v1/client/load-plans/:plan_id' },
      graphql: 'loadPlan',
      input: z.object({ plan_id: id }),
      output: planAnswer,
      handler: async (ctx, input) => {
        if (ctx.representation === SVG)
          return new Representation(SVG, Buffer.from(await plans.picture(ctx, input.plan_id)));
        if (ctx.representation === PDF) return new Representation(PDF, await plans.sheet(ctx, input.plan_id));
        return plans.get(ctx, input.plan_id);
      },
    }),
    defineOperation({
      name: REPLAN_OPERATION,
      summary: 'Plan a load again: a route’s plan from its route as it is now',
      description:
        'A plan made from a route (`route_id`) loads the route’s deliveries still to make, in the order they are on it now; a plan of items loads the same items again. ' +
        'Either way in the space as it was planned. The new answer replaces the old, and the plan holds again (`stale: false`, no `changes`). ' +
        'With `if_stale: true`, a plan that holds is answered as it is. A plan whose route a rebuild dissolved cannot be planned again (LOAD_PLAN_ROUTE_GONE). ' +
        'Runs as a job with `Prefer: respond-async`; a business that plans stale plans again automatically (loading settings) has it queued as one.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      expensive: true,
      access: WRITE,
      errors: ['LOAD_PLAN_NOT_FOUND', 'LOAD_PLAN_ROUTE_GONE', 'ROUTE_NOT_FOUND', 'SOLVER_BUSY'],
      // A search of at most TIME_LIMIT_MS, and the route's orders read around it.
      job: { when: () => false, budgetSeconds: () => TIME_LIMIT_MS.max / 1000 + 25 },
      rest: { method: 'POST', path: '/v1/client/load-plans/:plan_id/replan' },
      graphql: 'replanLoadPlan',
      input: z.object({
        plan_id: id,
        if_stale: z
          .boolean()
          .default(false)
          .describe('Only when the plan is stale; a plan that holds is answered as it is'),
      }),
      output: planAnswer,
      handler: (ctx, input) => plans.replan(ctx, input.plan_id, input),
    }),
    defineOperation({
      name: 'get_loading_settings',
      summary: 'How the business keeps its load plans',
      description:
        '`replan_automatically`: a route’s load plan that goes stale (its route’s deliveries changed) is planned again by a job. Defaults until the business saves its own.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['packing:read'] },
      rest: { method: 'GET', path: '/v1/client/loading-settings' },
      graphql: 'loadingSettings',
      input: z.object({}),
      output: z.object({ result: z.literal(true), settings: loadingSettingsSchema }),
      handler: (ctx) => plans.settings(ctx),
    }),
    defineOperation({
      name: 'update_loading_settings',
      summary: 'Change how the business keeps its load plans; fields left out keep their value',
      description:
        'With `replan_automatically: true`, a route’s load plan that goes stale is queued as a job (replan_load_plan) in the transaction that changed its route, and runs as whoever planned it last; one job at a time per plan. Plans already stale wait for their next change, or a request.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['packing:write'] },
      rest: { method: 'PUT', path: '/v1/client/loading-settings' },
      graphql: 'updateLoadingSettings',
      input: loadingSettingsSchema.partial(),
      output: z.object({ result: z.literal(true), settings: loadingSettingsSchema }),
      handler: (ctx, input) => plans.updateSettings(ctx, input),
    }),
    defineOperation({
      name: 'list_load_plans',
      summary: "The business's load plans, newest first",
      description: 'With `route_id`, the plans of that route. Paged.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/client/load-plans' },
      graphql: 'loadPlans',
      input: z.object({ route_id: id.optional(), ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, plans: z.array(loadPlanSchema) }),
      handler: (ctx, input) => plans.list(ctx, input),
    }),
  ];
}
