import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { type FleetsService, MAX_FLEETS } from './service.ts';
import { FLEET_ROLES } from './tables.ts';

const TAG = 'Fleets';
/** Drivers read their own fleets; what they may see of one is the service's rule. */
const SEE = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:read'] };
/** Staff of the business make fleets and say who is in them; captains never do. */
const ORGANISE = { kinds: STAFF, scopes: ['fleets:write'] };
const LEAD = { kinds: [...STAFF, 'driver'] as const, scopes: ['fleets:write'] };

const fleetName = z.string().trim().min(1).max(100);
const fleetFields = {
  id: z.int(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
};
/** captain: leads the fleet (its board and calendar, nothing else of the business). */
const fleetRole = z.enum(FLEET_ROLES).meta({ title: 'FleetRole' });
const memberSchema = z
  .object({
    driver_id: z.int(),
    name: z.string().nullable(),
    role: fleetRole.describe(
      'captain: leads the fleet (its board and calendar, nothing else of the business)',
    ),
    joined_at: z.string(),
  })
  .meta({ title: 'FleetMember' });
const fleetAnswer = z.object({
  result: z.literal(true),
  fleet: z.object({ ...fleetFields, members: z.array(memberSchema) }).meta({ title: 'Fleet' }),
});
const FLEET_ERRORS = ['FLEET_NOT_FOUND'] as const;

export function fleetsOperations(fleets: FleetsService): Operation[] {
  return [
    defineOperation({
      name: 'create_fleet',
      summary: 'Create a fleet: a group of drivers with captains, a shift calendar and a route board',
      description: `A business keeps at most ${MAX_FLEETS} fleets; names are unique in the business (case aside).`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: ORGANISE,
      errors: ['FLEET_NAME_TAKEN', 'FLEETS_FULL'],
      rest: { method: 'POST', path: '/v1/client/fleets' },
      graphql: 'createFleet',
      input: z.object({ name: fleetName }),
      output: fleetAnswer,
      handler: (ctx, input) => fleets.create(ctx, input.name),
    }),
    defineOperation({
      name: 'get_fleets',
      summary: "The business's fleets; for a driver, the fleets it belongs to and its role in each",
      description:
        'Staff see every fleet of the business with its size; a driver sees only its own fleets, with `my_role`.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      rest: { method: 'GET', path: '/v1/client/fleets' },
      graphql: 'fleets',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        fleets: z.array(
          z.object({
            ...fleetFields,
            members: z.int().describe('How many drivers the fleet has'),
            my_role: fleetRole.nullable().describe("The calling driver's role in the fleet; null for staff"),
          }),
        ),
      }),
      handler: (ctx) => fleets.list(ctx),
    }),
    defineOperation({
      name: 'get_fleet',
      summary: 'A fleet with its drivers and captains',
      description:
        'Staff see every fleet of the business, a driver the fleets it belongs to; any other fleet is FLEET_NOT_FOUND.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: SEE,
      errors: [...FLEET_ERRORS],
      rest: { method: 'GET', path: '/v1/client/fleets/:fleet_id' },
      graphql: 'fleet',
      input: z.object({ fleet_id: id }),
      output: fleetAnswer,
      handler: (ctx, input) => fleets.get(ctx, input.fleet_id),
    }),
    defineOperation({
      name: 'rename_fleet',
      summary: 'Rename a fleet (staff, or one of its captains)',
      description:
        'A driver of the fleet who is not a captain is refused with FLEET_CAPTAIN_REQUIRED; names stay unique in the business.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: LEAD,
      errors: [...FLEET_ERRORS, 'FLEET_CAPTAIN_REQUIRED', 'FLEET_NAME_TAKEN'],
      rest: { method: 'PATCH', path: '/v1/client/fleets/:fleet_id' },
      graphql: 'renameFleet',
      input: z.object({ fleet_id: id, name: fleetName }),
      output: fleetAnswer,
      handler: (ctx, input) => fleets.rename(ctx, input.fleet_id, input.name),
    }),
    defineOperation({
      name: 'delete_fleet',
      summary: 'Delete a fleet with its memberships, shift calendar and board',
      description:
        'The drivers stay drivers of the business; their routes stay theirs. Routes open on its route boards go back to the drivers they were built for (docs/route-board.md).',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: ORGANISE,
      errors: [...FLEET_ERRORS],
      rest: { method: 'DELETE', path: '/v1/client/fleets/:fleet_id' },
      graphql: 'deleteFleet',
      input: z.object({ fleet_id: id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => fleets.delete(ctx, input.fleet_id),
    }),
    defineOperation({
      name: 'set_fleet_member',
      summary: 'Add a driver of the business to a fleet, or change its role there (driver or captain)',
      description: 'A driver may be in several fleets of the business, and captain of some of them.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: ORGANISE,
      errors: [...FLEET_ERRORS, 'DRIVER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/fleets/:fleet_id/members/:driver_id' },
      graphql: 'setFleetMember',
      input: z.object({ fleet_id: id, driver_id: id, role: fleetRole.default('driver') }),
      output: fleetAnswer,
      handler: (ctx, input) => fleets.setMember(ctx, input),
    }),
    defineOperation({
      name: 'remove_fleet_member',
      summary: 'Take a driver out of a fleet',
      description:
        'The driver stays a driver of the business and keeps the routes it holds; it no longer sees the fleet, its calendar or its board.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: ORGANISE,
      errors: [...FLEET_ERRORS, 'DRIVER_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/fleets/:fleet_id/members/:driver_id' },
      graphql: 'removeFleetMember',
      input: z.object({ fleet_id: id, driver_id: id }),
      output: fleetAnswer,
      handler: (ctx, input) => fleets.removeMember(ctx, input),
    }),
  ];
}
