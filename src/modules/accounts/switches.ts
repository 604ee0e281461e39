import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { idParam } from '../../platform/schemas.ts';
import { type AccountsService, BUSINESS_MODULES } from './service.ts';

const PLATFORM = { kinds: ['platform_admin'] as const, scopes: ['platform:write'] };

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
