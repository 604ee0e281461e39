import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam } from '../../platform/schemas.ts';
import type { AlliancesService } from './service.ts';
import { MEMBER_STATES } from './tables.ts';

/** Client admins speak for their business: they alone write. Employees read. */
const READ = { kinds: STAFF, scopes: ['alliance:read'] };
const WRITE = { kinds: ['client_admin'] as const, scopes: ['alliance:write'] };

const grantsSchema = z
  .object({
    track_packages: z.boolean().describe("The other members read this business's tracking numbers in full"),
    see_orders: z
      .boolean()
      .describe("The other members read this business's orders (read-only, prices hidden)"),
    hand_over_orders: z.boolean().describe('Stored for a later use; grants nothing yet'),
  })
  .meta({ title: 'AllianceGrants' });

const allianceRole = z.enum(['owner', 'member']).meta({ title: 'AllianceRole' });
const memberState = z.enum(MEMBER_STATES).meta({ title: 'AllianceMemberState' });

const allianceSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    owner: z.object({ business_code: z.string(), business_name: z.string() }),
    my_role: allianceRole,
    my_state: memberState.describe('invited: an invitation to accept or decline'),
    my_grants: grantsSchema.describe("What the caller's business grants the other members"),
    member_count: z.int().describe('Active members'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'Alliance' });
const allianceAnswer = z.object({ result: z.literal(true), alliance: allianceSchema });
const allianceId = z.object({ alliance_id: idParam });
const businessCode = z.string().trim().min(1).max(64).describe('A business (client) code');
const ended = (states: readonly [string, ...string[]]) =>
  z.object({ result: z.literal(true), alliance_id: z.int(), state: z.enum(states) });

export function alliancesOperations(alliances: AlliancesService): Operation[] {
  return [
    defineOperation({
      name: 'list_alliances',
      summary: "The caller's alliances and the invitations waiting for it, newest first",
      description:
        "Each with the caller's role and state in it, what the caller's business grants there, and its member count. Use it before get_alliance or list_alliance_members.",
      tag: 'Alliance',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_alliances',
        guide:
          "The alliances the caller's business belongs to or is invited to, with its role, state, member count and what it grants the others. Use it before get_alliance or list_alliance_members.",
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/alliances' },
      graphql: 'alliances',
      input: z.object({ ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, alliances: z.array(allianceSchema) }),
      handler: (ctx, input) => alliances.list(ctx, input),
    }),
    defineOperation({
      name: 'get_alliance',
      summary: 'One alliance the caller belongs to or is invited to',
      description:
        "Its name, owner, the caller's role, state and grants, and its member count. Any other business gets 404, whether the alliance exists or not.",
      tag: 'Alliance',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_alliance',
        guide: "One alliance by id: its name, owner, the caller's role, state and grants, its member count.",
        idempotent: true,
      },
      access: READ,
      errors: ['ALLIANCE_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/alliances/:alliance_id' },
      graphql: 'alliance',
      input: allianceId,
      output: allianceAnswer,
      handler: (ctx, input) => alliances.get(ctx, input.alliance_id),
    }),
    defineOperation({
      name: 'list_alliance_members',
      summary: "An alliance's members and invited businesses, with the grants each gives",
      description:
        'Members and invited businesses by code and name, each with its role, state and the grants it gives the others (track_packages, see_orders, hand_over_orders).',
      tag: 'Alliance',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_alliance_members',
        guide:
          'The members of one alliance (business code and name, owner or member, invited or active) and what each grants the others: track_packages, see_orders, hand_over_orders.',
        idempotent: true,
      },
      access: READ,
      errors: ['ALLIANCE_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/alliances/:alliance_id/members' },
      graphql: 'allianceMembers',
      input: allianceId.extend({ ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        members: z.array(
          z.object({
            business_code: z.string(),
            business_name: z.string(),
            role: allianceRole,
            state: memberState,
            grants: grantsSchema,
            invited_at: z.string(),
            joined_at: z.string().nullable(),
            is_me: z.boolean().describe("The caller's own business"),
          }),
        ),
      }),
      handler: (ctx, input) => alliances.members(ctx, input.alliance_id, input),
    }),
    defineOperation({
      name: 'list_accessible_clients',
      summary: 'The businesses whose data the caller may read through alliances, and what',
      description:
        "Each business that grants the caller's business something through an alliance where both are active, with the grants gathered over those alliances. Use its business_id to read an ally's orders or tracking.",
      tag: 'Alliance',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_accessible_clients',
        guide:
          "Businesses sharing data with the caller's through alliances, with the grants (track_packages: full tracking; see_orders: their orders via business_id). Use it before reading another business's orders or tracking.",
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/accessible-clients' },
      graphql: 'accessibleClients',
      input: z.object({ ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        clients: z.array(
          z.object({
            business_id: z.int().describe('Name it as business_id on order reads (see_orders)'),
            business_code: z.string(),
            business_name: z.string(),
            grants: grantsSchema.describe('What it grants the caller, over all shared alliances'),
            alliances: z.array(z.object({ id: z.int(), name: z.string() })),
          }),
        ),
      }),
      handler: (ctx, input) => alliances.accessibleClients(ctx, input),
    }),
    defineOperation({
      name: 'create_alliance',
      summary: "Create an alliance: the caller's business owns it and is its first member",
      description:
        'Invite other businesses next with invite_to_alliance; nothing is shared until members set their grants.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      rest: { method: 'POST', path: '/v1/client/alliances' },
      graphql: 'createAlliance',
      input: z.object({ name: z.string().trim().min(1).max(100) }),
      output: allianceAnswer,
      handler: (ctx, input) => alliances.create(ctx, input),
    }),
    defineOperation({
      name: 'rename_alliance',
      summary: 'Rename an alliance (owner)',
      description:
        "Only the owner's client admin renames it; members and invited businesses see the new name.",
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_OWNER_ONLY'],
      rest: { method: 'PATCH', path: '/v1/client/alliances/:alliance_id' },
      graphql: 'renameAlliance',
      input: allianceId.extend({ name: z.string().trim().min(1).max(100) }),
      output: allianceAnswer,
      handler: (ctx, input) => alliances.rename(ctx, input.alliance_id, input.name),
    }),
    defineOperation({
      name: 'invite_to_alliance',
      summary: 'Invite a business by its code (owner)',
      description:
        'The invited business sees the alliance and its members and accepts or declines; it grants nothing and is granted nothing until it accepts.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [
        'ALLIANCE_NOT_FOUND',
        'ALLIANCE_OWNER_ONLY',
        'BUSINESS_NOT_FOUND',
        'ALLIANCE_ALREADY_MEMBER',
        'ALLIANCE_ALREADY_INVITED',
      ],
      rest: { method: 'POST', path: '/v1/client/alliances/:alliance_id/invitations' },
      graphql: 'inviteToAlliance',
      input: allianceId.extend({ business_code: businessCode }),
      output: z.object({
        result: z.literal(true),
        invitation: z.object({
          alliance_id: z.int(),
          business_code: z.string(),
          state: z.literal('invited'),
        }),
      }),
      handler: (ctx, input) => alliances.invite(ctx, input.alliance_id, input.business_code),
    }),
    defineOperation({
      name: 'accept_alliance_invitation',
      summary: "Accept an invitation: the caller's business becomes an active member",
      description:
        'The business becomes an active member with every grant off: it sets what it shares with set_alliance_grants, and reads what the others grant it.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_ALREADY_MEMBER'],
      rest: { method: 'POST', path: '/v1/client/alliances/:alliance_id/accept' },
      graphql: 'acceptAllianceInvitation',
      input: allianceId,
      output: allianceAnswer,
      handler: (ctx, input) => alliances.accept(ctx, input.alliance_id),
    }),
    defineOperation({
      name: 'decline_alliance_invitation',
      summary: 'Decline an invitation',
      description:
        'The invitation ends, and the alliance no longer exists for the business; an active member leaves instead.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_NOT_INVITED'],
      rest: { method: 'POST', path: '/v1/client/alliances/:alliance_id/decline' },
      graphql: 'declineAllianceInvitation',
      input: allianceId,
      output: ended(['declined']),
      handler: (ctx, input) => alliances.decline(ctx, input.alliance_id),
    }),
    defineOperation({
      name: 'leave_alliance',
      summary: 'Leave an alliance: what the business granted ends at once',
      description: 'The owner may leave only when no one else is in the alliance, which dissolves it.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_INVITATION_PENDING', 'ALLIANCE_OWNER_CANNOT_LEAVE'],
      rest: { method: 'POST', path: '/v1/client/alliances/:alliance_id/leave' },
      graphql: 'leaveAlliance',
      input: allianceId,
      output: ended(['left', 'dissolved']),
      handler: (ctx, input) => alliances.leave(ctx, input.alliance_id),
    }),
    defineOperation({
      name: 'remove_alliance_member',
      summary: 'Remove a member or withdraw an invitation (owner)',
      description:
        'Only the owner removes; what the removed business granted ends at the next read, and a waiting invitation is withdrawn the same way.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [
        'ALLIANCE_NOT_FOUND',
        'ALLIANCE_OWNER_ONLY',
        'ALLIANCE_MEMBER_NOT_FOUND',
        'ALLIANCE_OWNER_CANNOT_LEAVE',
      ],
      rest: { method: 'DELETE', path: '/v1/client/alliances/:alliance_id/members/:business_code' },
      graphql: 'removeAllianceMember',
      input: allianceId.extend({ business_code: businessCode }),
      output: ended(['removed']).extend({ business_code: z.string() }),
      handler: (ctx, input) => alliances.removeMember(ctx, input.alliance_id, input.business_code),
    }),
    defineOperation({
      name: 'dissolve_alliance',
      summary: 'Dissolve an alliance (owner): every membership and grant in it ends',
      description:
        'Only the owner dissolves it; every grant ends at the next read and the alliance no longer exists for anyone.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_OWNER_ONLY'],
      rest: { method: 'DELETE', path: '/v1/client/alliances/:alliance_id' },
      graphql: 'dissolveAlliance',
      input: allianceId,
      output: ended(['dissolved']),
      handler: (ctx, input) => alliances.dissolve(ctx, input.alliance_id),
    }),
    defineOperation({
      name: 'set_alliance_grants',
      summary: "Set what the caller's business grants the alliance's other members",
      description: 'Only the grants sent change. A grant withdrawn counts at once, on the next read.',
      tag: 'Alliance',
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: ['ALLIANCE_NOT_FOUND', 'ALLIANCE_INVITATION_PENDING'],
      rest: { method: 'PATCH', path: '/v1/client/alliances/:alliance_id/grants' },
      graphql: 'setAllianceGrants',
      input: allianceId.extend(grantsSchema.partial().shape),
      output: allianceAnswer,
      handler: (ctx, { alliance_id, ...grants }) => alliances.setGrants(ctx, alliance_id, grants),
    }),
  ];
}
