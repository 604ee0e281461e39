import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam } from '../../platform/schemas.ts';
import { type AccountsService, BUSINESS_MODULES, OPT_IN_FAMILIES } from './service.ts';

const PLATFORM = { kinds: ['platform_admin'] as const, scopes: ['platform:write'] };

// One named type each in the contract, for the three family operations.
const familySchema = z.enum(OPT_IN_FAMILIES).meta({ title: 'FeatureFamily' });

const familyStatus = {
  family: familySchema,
  enabled: z.boolean().describe('Whether the business has turned the family on'),
  revoked: z.boolean().describe('Whether the platform admin has revoked it (whatever the business says)'),
  state: z
    .enum(['on', 'off', 'revoked', 'not_migrated'])
    .meta({ title: 'FeatureFamilyState' })
    .describe(
      "on: its operations answer; otherwise they answer 409 (not_migrated: the business's data is not set up yet)",
    ),
};
const familyAnswer = z.object({ result: z.literal(true), business_id: z.int(), ...familyStatus });

/** The opt-in families (order chat, the operations AI agent, SMS marketing): the business's switch and the platform's revocation. */
export function familySwitchOperations(accounts: AccountsService): Operation[] {
  return [
    defineOperation({
      name: 'get_feature_families',
      summary: "The opt-in families and their state in the caller's business",
      description:
        "Each opt-in family (order chat, the operations AI agent, SMS marketing) with whether the business turned it on, whether the platform revoked it, and its resulting state. Read it to tell why a family's operations answer 409 FEATURE_DISABLED.",
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['orders:read'] },
      rest: { method: 'GET', path: '/v1/client/feature-families' },
      graphql: 'featureFamilies',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        business_id: z.int(),
        families: z.array(z.object(familyStatus).meta({ title: 'FeatureFamilyStatus' })),
      }),
      handler: (ctx) => accounts.families(ctx),
    }),
    defineOperation({
      name: 'set_feature_family',
      summary: 'Turn an opt-in family on or off for your business',
      description:
        'A family the platform admin revoked stays refused (409) until the revocation is lifted. Order chat also ' +
        'needs its settings (PUT /v1/client/order-chat/settings) before its other operations answer, and the ' +
        'operations AI agent its own (PUT /v1/client/agent/settings).',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      rest: { method: 'PUT', path: '/v1/client/feature-families/:family' },
      graphql: 'setFeatureFamily',
      input: z.object({ family: familySchema, enabled: z.boolean() }),
      output: familyAnswer,
      handler: (ctx, input) => accounts.setFamily(ctx, input.family, input.enabled),
    }),
    defineOperation({
      name: 'set_feature_family_revoked',
      summary: 'Revoke an opt-in family for one business, or lift the revocation',
      description:
        "Platform admins revoke a family for a business whatever the business switches, until the revocation is lifted; while revoked, the family's operations answer 409 FEATURE_DISABLED. High risk: an agent token must confirm it.",
      tag: 'Platform',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: PLATFORM,
      errors: ['BUSINESS_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/platform/businesses/:business_id/feature-families/:family' },
      graphql: 'setFeatureFamilyRevoked',
      input: z.object({ business_id: idParam, family: familySchema, revoked: z.boolean() }),
      output: familyAnswer,
      handler: (ctx, input) => accounts.setFamilyRevoked(ctx, input.business_id, input.family, input.revoked),
    }),
  ];
}

/** The platform's switches for optional modules: offered on this system, and on per business. */
export function moduleSwitchOperations(accounts: AccountsService): Operation[] {
  return [
    defineOperation({
      name: 'set_platform_module',
      summary: 'Offer an optional module on this system, or withdraw it',
      description:
        'While a module is not available on the system, no business can use it whatever its own switch says ' +
        '(the contractor assignment list answers 503, its other operations 403).',
      tag: 'Platform',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: PLATFORM,
      rest: { method: 'PUT', path: '/v1/platform/modules/:module' },
      graphql: 'setPlatformModule',
      input: z.object({ module: z.enum(BUSINESS_MODULES), available: z.boolean() }),
      output: z.object({ result: z.literal(true), module: z.enum(BUSINESS_MODULES), available: z.boolean() }),
      handler: (ctx, input) => accounts.setPlatformModule(ctx, input.module, input.available),
    }),
    defineOperation({
      name: 'set_business_module',
      summary: 'Turn an optional module on or off for one business',
      description:
        'Platform admins switch an optional module (such as contractor_assignment) for one business; it only works there while the system offers it (set_platform_module). High risk: an agent token must confirm it.',
      tag: 'Platform',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: PLATFORM,
      errors: ['BUSINESS_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/platform/businesses/:business_id/modules/:module' },
      graphql: 'setBusinessModule',
      input: z.object({ business_id: idParam, module: z.enum(BUSINESS_MODULES), enabled: z.boolean() }),
      output: z.object({
        result: z.literal(true),
        business_id: z.int(),
        module: z.enum(BUSINESS_MODULES),
        enabled: z.boolean(),
        available: z.boolean().describe('Whether the platform offers the module at all'),
      }),
      handler: (ctx, input) =>
        accounts.setBusinessModule(ctx, input.business_id, input.module, input.enabled),
    }),
  ];
}
