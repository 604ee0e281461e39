import { z } from 'zod';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';

export const APP_TYPES = ['customer', 'driver', 'contractor', 'staff'] as const;
export const PLATFORMS = ['ios', 'android'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The account kinds an app may let sign in (platform admins belong to no client). */
export const APP_ROLES = ['client_admin', 'employee', 'contractor', 'customer', 'driver'] as const;
export type AppRole = (typeof APP_ROLES)[number];
export type AppType = (typeof APP_TYPES)[number];

/**
 * The home-screen shortcuts, each shown only while its capability is on. The capability names
 * are the service's own (the interface names auth.<idp>, wallet.balance and locker.pickup).
 */
export const QUICK_ACTION_CAPABILITY = {
  send: 'orders.send',
  return: 'orders.return',
  store: 'storage.store',
  lockers: 'locker.pickup',
  luggage: 'luggage.storage',
  handover: 'handover.p2p',
  pay: 'wallet.pay',
  wallet: 'wallet.balance',
} as const;
export const QUICK_ACTIONS = Object.keys(QUICK_ACTION_CAPABILITY) as Array<
  keyof typeof QUICK_ACTION_CAPABILITY
>;
export type QuickAction = (typeof QUICK_ACTIONS)[number];

/** Semantic versions as semver.org 2.0.0 writes them (no leading zeros, optional pre-release and build). */
const NUMBER = '(0|[1-9]\\d*)';
const IDENTIFIER = '[0-9A-Za-z-]+';
const SEMVER = new RegExp(
  `^${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+${IDENTIFIER}(?:\\.${IDENTIFIER})*)?$`,
);
export const semanticVersion = z.string().max(64).regex(SEMVER, fieldMessage('semantic_version'));

const capabilityName = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/, fieldMessage('capability_name'));
export const idpCode = z.string().regex(/^[a-z][a-z0-9_-]{1,31}$/, fieldMessage('provider_code'));

// The apps vocabulary, one named type each in the contract.
export const appTypeSchema = z.enum(APP_TYPES).meta({ title: 'AppType' });
export const appRoleSchema = z.enum(APP_ROLES).meta({ title: 'AppRole' });
export const platformSchema = z.enum(PLATFORMS).meta({ title: 'AppPlatform' });
export const quickActionSchema = z.enum(QUICK_ACTIONS).meta({ title: 'AppQuickAction' });

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, fieldMessage('colour'));
const httpsUrl = z.url({ protocol: /^https$/ }).max(2000);

/** Everything an assignment configures, as stored (and as a platform admin writes it, partially). */
export const assignmentConfigSchema = z
  .object({
    display_name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .describe("The client's name in the app; null: the business name"),
    capabilities: z.record(capabilityName, z.boolean()).describe('Dotted capability names to on/off'),
    authentication: z.object({
      methods: z
        .object({ email: z.boolean() })
        .catchall(z.boolean())
        .describe(
          'email and one entry per identity provider (google, apple, ...); registration follows registration.enabled',
        ),
      providers: z
        .record(idpCode, z.object({ server_client_id: z.string().min(1).max(500) }))
        .describe(
          "Per identity provider: the client id its ID tokens are issued to (the backend's audience)",
        ),
    }),
    registration: z
      .object({
        enabled: z.boolean(),
        phone_verification_required: z.boolean(),
        sms_configured: z.boolean(),
        default_phone_region: z.string().regex(/^[A-Z]{2}$/, fieldMessage('country_code')),
        requires_approval: z.boolean(),
        code_length: z.int().min(4).max(10),
        resend_after: z.int().min(0).max(3600).describe('Seconds before a new code may be asked for'),
      })
      .meta({ title: 'AppRegistration' }),
    services: z
      .object({
        identity: z.object({ source_of_truth: z.string().min(1).max(100), shared_with_web: z.boolean() }),
        wallet: z.object({
          source_of_truth: z.string().min(1).max(100),
          ledger_mode: z.string().min(1).max(100),
        }),
      })
      .meta({ title: 'AppServices' }),
    branding: z
      .object({
        primary_color: colour.optional(),
        accent_color: colour.optional(),
        logo_url: httpsUrl.optional(),
        support_email: z.email().optional(),
        support_url: httpsUrl.optional(),
        privacy_url: httpsUrl.optional(),
        terms_url: httpsUrl.optional(),
      })
      .meta({ title: 'AppBranding' }),
    version_policy: z
      .partialRecord(
        platformSchema,
        z
          .object({ minimum_version: semanticVersion, latest_version: semanticVersion })
          .meta({ title: 'AppVersionRule' }),
      )
      .describe('Per platform: the oldest version still served, and the newest released'),
    quick_actions: z
      .object({
        order: z
          .array(quickActionSchema)
          .max(QUICK_ACTIONS.length)
          .describe("The client's order of shortcuts"),
        hidden: z.array(quickActionSchema).max(QUICK_ACTIONS.length).describe('Shortcuts the client hid'),
      })
      .meta({ title: 'AppQuickActions' }),
  })
  .meta({ title: 'AppAssignmentConfig' });
export type AssignmentConfig = z.infer<typeof assignmentConfigSchema>;

/** What a new assignment starts with: nothing on but email sign-in, registration off. */
export const DEFAULT_CONFIG: AssignmentConfig = {
  display_name: null,
  capabilities: {},
  authentication: { methods: { email: true }, providers: {} },
  registration: {
    enabled: false,
    phone_verification_required: false,
    sms_configured: false,
    default_phone_region: 'FR',
    requires_approval: false,
    code_length: 6,
    resend_after: 60,
  },
  services: {
    identity: { source_of_truth: 'tms', shared_with_web: true },
    wallet: { source_of_truth: 'tms', ledger_mode: 'credits' },
  },
  branding: {},
  version_policy: {},
  quick_actions: { order: [...QUICK_ACTIONS], hidden: [] },
};
