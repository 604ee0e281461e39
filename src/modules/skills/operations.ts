import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { CATALOGUE_LIMIT, type SkillsService } from './service.ts';

const TAG = 'Skills';

const skillCode = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, fieldMessage('slug', { max: 40 }))
  .describe('Up to 40 lower-case letters, digits, - and _ (refrigerated, hazmat, forklift)');
const skillSchema = z.object({ code: z.string(), label: z.string() });
const heldSkillSchema = z.object({
  code: z.string(),
  label: z.string().nullable().describe('null: the code is not (or no longer) in the catalogue'),
});
const codesInput = (max: number) =>
  z.array(skillCode).max(max).describe(`The whole set, at most ${max} catalogue codes; [] clears it`);

/** The business's skill catalogue, its drivers' skills and its orders' required skills (docs/skills.md). */
export function skillsOperations(skills: SkillsService): Operation[] {
  return [
    defineOperation({
      name: 'list_skills',
      summary: "The business's skill catalogue",
      description:
        'Every skill the business has defined, by code, with its label: the codes drivers may hold and orders may require. Read it before setting skills on a driver or an order.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_skills',
        guide:
          "The business's skill catalogue (code and label). Use its codes with set_order_required_skills; route building gives an order only to a driver holding every skill it requires.",
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['drivers:read'] },
      rest: { method: 'GET', path: '/v1/client/skills' },
      graphql: 'skills',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        skills: z.array(skillSchema).describe(`The whole catalogue, by code: at most ${CATALOGUE_LIMIT}`),
      }),
      handler: (ctx) => skills.list(ctx),
    }),
    defineOperation({
      name: 'save_skill',
      summary: 'Add a skill to the catalogue, or relabel one',
      description: `Creates the skill with this code, or changes the label of the one that has it (the code itself never changes: drivers and orders store it). A business keeps at most ${CATALOGUE_LIMIT} skills.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      errors: ['SKILL_CATALOGUE_FULL'],
      rest: { method: 'PUT', path: '/v1/client/skills/:code' },
      graphql: 'saveSkill',
      input: z.object({ code: skillCode, label: z.string().trim().min(1).max(100) }),
      output: z.object({
        result: z.literal(true),
        created: z.boolean().describe('false: an existing skill was relabelled'),
        skill: skillSchema,
      }),
      handler: (ctx, input) => skills.save(ctx, input),
    }),
    defineOperation({
      name: 'delete_skill',
      summary: 'Remove a skill from the catalogue',
      description:
        'Removes a skill that no driver holds and no open order requires; otherwise refused with SKILL_IN_USE, which names them. Take it off those drivers and orders first.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      errors: ['SKILL_NOT_FOUND', 'SKILL_IN_USE'],
      rest: { method: 'DELETE', path: '/v1/client/skills/:code' },
      graphql: 'deleteSkill',
      input: z.object({ code: z.string().max(40) }),
      output: z.object({ result: z.literal(true), deleted: z.string() }),
      handler: (ctx, input) => skills.remove(ctx, input.code),
    }),
    defineOperation({
      name: 'get_driver_skills',
      summary: 'The skills a driver holds',
      description:
        "A driver's skills with their catalogue labels; empty for a driver without a working profile. Route building gives the driver only orders whose required skills they all hold.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_driver_skills',
        guide:
          'The skills a driver holds, with their labels: which orders route building may give the driver.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['drivers:read'] },
      errors: ['DRIVER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/drivers/:driver_id/skills' },
      graphql: 'driverSkills',
      input: z.object({ driver_id: id }),
      output: z.object({ result: z.literal(true), driver_id: z.int(), skills: z.array(heldSkillSchema) }),
      handler: (ctx, input) => skills.driverSkills(ctx, input.driver_id),
    }),
    defineOperation({
      name: 'set_driver_skills',
      summary: "Replace a driver's skills",
      description:
        'Sets the whole set of skills a driver holds, each a code of the catalogue; the driver needs a working profile first. Routes already planned stay as they are; the next route build plans by the new set.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      errors: ['DRIVER_NOT_FOUND', 'DRIVER_PROFILE_REQUIRED', 'SKILLS_NOT_IN_CATALOGUE'],
      rest: { method: 'PUT', path: '/v1/client/drivers/:driver_id/skills' },
      graphql: 'setDriverSkills',
      input: z.object({ driver_id: id, skills: codesInput(20) }),
      output: z.object({ result: z.literal(true), driver_id: z.int(), skills: z.array(heldSkillSchema) }),
      handler: (ctx, input) => skills.setDriverSkills(ctx, input.driver_id, input.skills),
    }),
    defineOperation({
      name: 'get_order_required_skills',
      summary: 'The skills an order requires of its driver',
      description:
        'The skills a driver must hold to be given this order by route building, with their catalogue labels.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_order_required_skills',
        guide: 'The skills an order requires of its driver, with their labels.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:read'] },
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/orders/:order_id/required-skills' },
      graphql: 'orderRequiredSkills',
      input: z.object({ order_id: id }),
      output: z.object({ result: z.literal(true), order_id: z.int(), skills: z.array(heldSkillSchema) }),
      handler: (ctx, input) => skills.orderSkills(ctx, input.order_id),
    }),
    defineOperation({
      name: 'set_order_required_skills',
      summary: 'Replace the skills an order requires of its driver',
      description:
        "Sets the whole set of skills an order requires, each a code of the catalogue, before it is planned. An order already on a route changes only if the route's driver holds every skill (ROUTE_DRIVER_LACKS_SKILLS otherwise); a delivered, returned or cancelled order keeps its skills.",
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      tool: {
        user: 'set_order_required_skills',
        guide:
          'Replace the skills an order requires of its driver with codes from list_skills ([] clears them). Refused for an order on a route whose driver lacks one of them.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:write'] },
      errors: [
        'ORDER_NOT_FOUND',
        'SKILLS_NOT_IN_CATALOGUE',
        'ROUTE_DRIVER_LACKS_SKILLS',
        'ORDER_SKILLS_LOCKED',
      ],
      rest: { method: 'PUT', path: '/v1/client/orders/:order_id/required-skills' },
      graphql: 'setOrderRequiredSkills',
      input: z.object({ order_id: id, skills: codesInput(10) }),
      output: z.object({ result: z.literal(true), order_id: z.int(), skills: z.array(heldSkillSchema) }),
      handler: (ctx, input) => skills.setOrderSkills(ctx, input.order_id, input.skills),
    }),
  ];
}
