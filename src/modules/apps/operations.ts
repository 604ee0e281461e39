import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { localDateTime } from '../accounts/index.ts';
import {
  APP_ROLES,
  appRoleSchema,
  appTypeSchema,
  assignmentConfigSchema,
  idpCode,
  platformSchema,
  quickActionSchema,
  semanticVersion,
} from './config.ts';
import { PRESETS } from './identity.ts';
import type { AppsService } from './service.ts';

const PLATFORM_WRITE = { kinds: ['platform_admin'], scopes: ['platform:write'] } as const;
const PLATFORM_READ = { kinds: ['platform_admin'], scopes: ['platform:read'] } as const;
const code = z.string().regex(/^[a-z0-9][a-z0-9_-]{1,62}$/, fieldMessage('app_code'));

const providerSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    issuer: z.string(),
    issuer_aliases: z.array(z.string()),
    jwks_uri: z.string(),
    preset: z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS]).nullable(),
  })
  .meta({ title: 'IdentityProvider' });

const appSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    type: appTypeSchema,
    schema_version: z.int(),
    enabled: z.boolean(),
    allowed_roles: z.array(appRoleSchema),
  })
  .meta({ title: 'App' });

const assignmentSchema = z.object({
  result: z.literal(true),
  assignment: z
    .object({
      app_code: z.string(),
      client_code: z.string(),
      enabled: z.boolean(),
      configuration_version: z.int(),
      config: assignmentConfigSchema,
      updated_at: z.string().describe('ISO 8601, UTC'),
    })
    .meta({ title: 'AppAssignment' }),
});

const capabilities = z.record(z.string(), z.boolean());

/** A partial configuration: each section merges field by field into the stored one. */
const configPatch = z.object({
  display_name: assignmentConfigSchema.shape.display_name.optional(),
  capabilities: capabilities.optional().describe('Merged name by name'),
  authentication: z
    .object({
      methods: z.record(z.string(), z.boolean()).optional(),
      providers: z
        .record(idpCode, z.object({ server_client_id: z.string().min(1).max(500) }).nullable())
        .optional()
        .describe('null removes a provider'),
    })
    .optional(),
  registration: assignmentConfigSchema.shape.registration.partial().optional(),
  services: z
    .object({
      identity: assignmentConfigSchema.shape.services.shape.identity.partial().optional(),
      wallet: assignmentConfigSchema.shape.services.shape.wallet.partial().optional(),
    })
    .optional(),
  branding: assignmentConfigSchema.shape.branding.optional(),
  version_policy: assignmentConfigSchema.shape.version_policy.optional(),
  quick_actions: assignmentConfigSchema.shape.quick_actions.partial().optional(),
});

const bootstrapSchema = z
  .object({
    app: z.object({ code: z.string(), name: z.string(), type: appTypeSchema, schema_version: z.int() }),
    client: z.object({ code: z.string(), display_name: z.string() }),
    configuration_version: z.int(),
    capabilities: capabilities.describe('Effective: auth.<idp> only while that sign-in works'),
    authentication: z
      .object({
        methods: z.record(z.string(), z.boolean()).describe('<idp>, email, registration'),
        registration: assignmentConfigSchema.shape.registration,
      })
      .catchall(z.unknown())
      .describe('Also one object per enabled identity provider: { server_client_id }'),
    services: assignmentConfigSchema.shape.services,
    branding: assignmentConfigSchema.shape.branding,
    version_policy: z.object({
      platforms: assignmentConfigSchema.shape.version_policy,
      platform: platformSchema.nullable(),
      app_version: z.string().nullable(),
      status: z
        .enum(['supported', 'update_available', 'update_required', 'unknown'])
        .meta({ title: 'AppVersionStatus' })
        .describe('update_required: the app_version is below the minimum supported for its platform'),
    }),
    settings: z.object({ home: z.object({ quick_actions: z.array(quickActionSchema) }) }),
  })
  .meta({ title: 'AppBootstrap' });

export function appsOperations(apps: AppsService): Operation[] {
  return [
    defineOperation({
      name: 'get_app_bootstrap',
      summary: 'The public configuration a standalone app starts from, for one client',
      description:
        'No credentials: the client code selects configuration, it grants nothing. Send `If-None-Match` with the ' +
        'last ETag to poll cheaply (304). An app_version below the minimum of its platform is answered 200 with ' +
        '`version_policy.status: update_required`, so the app can still show its branding and the update screen.',
      tag: 'Platform Apps',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['APP_NOT_FOUND', 'APP_UNAVAILABLE'],
      rest: { method: 'GET', path: '/v1/apps/:appCode/clients/:clientCode/bootstrap', etag: true },
      graphql: 'appBootstrap',
      input: z.object({
        appCode: z.string().max(63),
        clientCode: z.string().max(63),
        platform: platformSchema.optional(),
        app_version: semanticVersion.optional(),
      }),
      output: z.object({ result: z.literal(true), data: bootstrapSchema }),
      handler: (ctx, input) =>
        apps.bootstrap(ctx, {
          app_code: input.appCode,
          client_code: input.clientCode,
          platform: input.platform,
          app_version: input.app_version,
        }),
    }),
    defineOperation({
      name: 'app_sign_in',
      summary: "Native sign-in to an app with an identity provider's ID token",
      description:
        "Verifies the ID token (signature by the provider's published keys, issuer, expiry, audience = the app's " +
        "server_client_id for that provider), resolves the identity's one global binding to an account (see " +
        'docs/apps.md for unknown identities), checks the account belongs to the client and has a role the app ' +
        'allows, records the device and answers an app session: a bearer token that acts in this client only.',
      tag: 'Platform Apps',
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: [
        'APP_NOT_FOUND',
        'APP_UNAVAILABLE',
        'ID_TOKEN_INVALID',
        'IDENTITY_NOT_REGISTERED',
        'APP_SIGN_IN_REFUSED',
        'IDENTITY_PROVIDER_UNREACHABLE',
        'RATE_LIMITED',
      ],
      rest: { method: 'POST', path: '/v1/apps/:appCode/clients/:clientCode/auth/:idp' },
      graphql: 'appSignIn',
      input: z.object({
        appCode: z.string().max(63),
        clientCode: z.string().max(63),
        idp: z.string().max(32),
        id_token: z.string().min(1).max(16_384),
        device_id: z.string().min(1).max(191),
        device_platform: platformSchema,
        app_version: semanticVersion.nullable().optional(),
      }),
      output: z.object({
        result: z.literal(true),
        access_token: z.string(),
        token_type: z.literal('Bearer'),
        expires_at: localDateTime.describe("YYYY-MM-DD HH:MM:SS in the client's time zone"),
        expires_timestamp: z.int(),
        user: z.object({ id: z.int(), name: z.string(), email: z.string() }),
        app_context: z.object({
          app_code: z.string(),
          client_code: z.string(),
          client_name: z.string(),
          configuration_version: z.int(),
        }),
      }),
      handler: (ctx, input) =>
        apps.signIn(ctx, {
          ...input,
          app_code: input.appCode,
          client_code: input.clientCode,
        }),
    }),
    defineOperation({
      name: 'save_identity_provider',
      summary: 'Configure an identity provider: the Google or Apple preset, or any OpenID Connect issuer',
      description:
        "With `preset`, the issuer and keys address are the provider's published ones. With `issuer`, its " +
        'discovery document (/.well-known/openid-configuration) is read now, through the same guard as ' +
        'webhooks (no private addresses unless the operator allows them), and must name that issuer.',
      tag: 'Platform Apps',
      kind: 'mutation',
      risk: 'high',
      access: PLATFORM_WRITE,
      errors: ['IDENTITY_PROVIDER_UNREACHABLE', 'DRY_RUN_UNAVAILABLE'],
      rest: { method: 'PUT', path: '/v1/platform/identity-providers/:code' },
      graphql: 'identityProviderSave',
      input: z
        .object({
          code: idpCode.describe('The <idp> of sign-in paths: google, apple, or a name of your own'),
          preset: z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS]).optional(),
          issuer: z
            .url({ protocol: /^https?$/ })
            .max(500)
            .optional(),
          name: z.string().trim().min(1).max(200).optional(),
        })
        .refine((input) => (input.preset === undefined) !== (input.issuer === undefined), {
          ...fieldMessage('exactly_one_of', { fields: 'preset, issuer' }),
          path: ['issuer'],
        }),
      output: z.object({ result: z.literal(true), provider: providerSchema }),
      handler: (ctx, input) => apps.saveIdentityProvider(ctx, input),
    }),
    defineOperation({
      name: 'get_identity_providers',
      summary: 'The identity providers apps may sign in with',
      description:
        "Each provider's code (the idp of sign-in paths), issuer and keys address; apps assigned to clients sign in with them.",
      tag: 'Platform Apps',
      kind: 'query',
      risk: 'low',
      access: PLATFORM_READ,
      rest: { method: 'GET', path: '/v1/platform/identity-providers' },
      graphql: 'identityProviders',
      input: z.object({}),
      output: z.object({ result: z.literal(true), providers: z.array(providerSchema) }),
      handler: (ctx) => apps.identityProviders(ctx),
    }),
    defineOperation({
      name: 'save_app',
      summary: 'Create or change an app: name, type, schema version, on/off and the roles that may sign in',
      description:
        'The app is known by its code; each save sets its name, kind, schema version, switch (on unless said) and the account kinds that may sign in, all at once. Assign it to clients with save_app_assignment.',
      tag: 'Platform Apps',
      kind: 'mutation',
      risk: 'high',
      access: PLATFORM_WRITE,
      rest: { method: 'PUT', path: '/v1/platform/apps/:code' },
      graphql: 'appSave',
      input: z.object({
        code,
        name: z.string().trim().min(1).max(200),
        type: appTypeSchema,
        schema_version: z.int().min(1).max(1_000_000),
        enabled: z.boolean().default(true),
        allowed_roles: z.array(appRoleSchema).min(1).max(APP_ROLES.length),
      }),
      output: z.object({ result: z.literal(true), app: appSchema }),
      handler: (ctx, input) => apps.saveApp(ctx, input),
    }),
    defineOperation({
      name: 'get_apps',
      summary: 'Every app of the platform',
      description:
        'Each app with its kind, schema version, switch and the account kinds that may sign in through it.',
      tag: 'Platform Apps',
      kind: 'query',
      risk: 'low',
      access: PLATFORM_READ,
      rest: { method: 'GET', path: '/v1/platform/apps' },
      graphql: 'apps',
      input: z.object({}),
      output: z.object({ result: z.literal(true), apps: z.array(appSchema) }),
      handler: (ctx) => apps.apps(ctx),
    }),
    defineOperation({
      name: 'save_app_assignment',
      summary: "Assign an app to a client, or change that client's configuration of it (partial)",
      description:
        'Sections merge field by field into the stored configuration (capabilities name by name); the result ' +
        'must be a whole valid configuration. A change bumps configuration_version; saving the same again does not.',
      tag: 'Platform Apps',
      kind: 'mutation',
      risk: 'high',
      access: PLATFORM_WRITE,
      errors: ['APP_NOT_FOUND', 'BUSINESS_NOT_FOUND', 'IDENTITY_PROVIDER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/platform/apps/:app_code/clients/:client_code' },
      graphql: 'appAssignmentSave',
      input: z.object({
        app_code: code,
        client_code: code,
        enabled: z.boolean().optional(),
        config: configPatch.optional(),
      }),
      output: assignmentSchema,
      handler: (ctx, input) => apps.saveAssignment(ctx, input),
    }),
    defineOperation({
      name: 'get_app_assignment',
      summary: "One app's whole configuration for a client (a client admin reads its own client's)",
      description:
        'The configuration an app reads for a client: display name, capabilities, authentication, registration, services, branding, version policy and quick actions, with its configuration version.',
      tag: 'Platform Apps',
      kind: 'query',
      risk: 'low',
      access: { kinds: ['platform_admin', 'client_admin'], scopes: ['platform:read'] },
      errors: ['APP_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/platform/apps/:app_code/clients/:client_code' },
      graphql: 'appAssignment',
      input: z.object({ app_code: code, client_code: code }),
      output: assignmentSchema,
      handler: (ctx, input) => apps.assignment(ctx, input.app_code, input.client_code),
    }),
    defineOperation({
      name: 'get_app_assignments',
      summary: "Which apps are assigned to which clients (a client admin sees its own client's)",
      description:
        'Each assignment of an app to a client, with its switch and configuration version. Read one in full with get_app_assignment.',
      tag: 'Platform Apps',
      kind: 'query',
      risk: 'low',
      access: { kinds: ['platform_admin', 'client_admin'], scopes: ['platform:read'] },
      rest: { method: 'GET', path: '/v1/platform/app-assignments' },
      graphql: 'appAssignments',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        assignments: z.array(
          z.object({
            id: z.int(),
            app_code: z.string(),
            client_code: z.string(),
            enabled: z.boolean(),
            configuration_version: z.int(),
          }),
        ),
      }),
      handler: (ctx) => apps.assignments(ctx),
    }),
  ];
}
