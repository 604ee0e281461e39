import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { LEGAL_QUIET, type SmsSettings } from './settings.ts';
import { PROVIDERS } from './tables.ts';

export const TAG = 'SMS Marketing';
export const FEATURE = 'sms_marketing';
/** Business staff only: any other account is refused 403 (the interface's non-business accounts). */
export const STAFF_READ = { kinds: STAFF, scopes: ['sms:read'] };
export const ADMIN_WRITE = { kinds: ['client_admin'] as const, scopes: ['sms:write'] };

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a local time as HH:MM');

const settingsView = z.object({
  default_region: z.string(),
  sender: z.string(),
  help_text: z.string(),
  consent_text: z.string(),
  consent_version: z.string(),
  quiet_hours: z.object({ start: z.string(), end: z.string() }),
  caps: z.object({ per_day: z.int(), per_week: z.int() }),
  segment_cost: z.object({ amount: z.number(), currency: z.string() }),
  messages_per_second: z.int(),
  provider: z.object({
    kind: z.enum(PROVIDERS),
    account_sid: z.string().nullable(),
    url: z.string().nullable(),
    secret_set: z.boolean().describe('The secret itself is never shown'),
  }),
  updated_at: z.string(),
});

export function settingsOperations(settings: SmsSettings): Operation[] {
  return [
    defineOperation({
      name: 'set_sms_settings',
      summary:
        'Set up SMS marketing: sending number, HELP answer, consent wording, quiet hours, caps, provider',
      description:
        'The first save sets the business up for SMS marketing (until then its other operations answer 409 SMS_MARKETING_DISABLED with reason not_migrated); the family must be on (set_feature_family). ' +
        `Quiet hours are in each subscriber's own time zone and always cover ${LEGAL_QUIET.start} to ${LEGAL_QUIET.end}: they may be made wider, never narrower. ` +
        "The provider's secret (Twilio auth token, generic provider's signing key) is sealed at rest and never shown again.",
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      feature: FEATURE,
      featureSetup: true,
      access: ADMIN_WRITE,
      rest: { method: 'PUT', path: '/v1/sms/settings' },
      graphql: 'setSmsSettings',
      input: z.object({
        default_region: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .describe('Region of numbers given without a country code (ISO 3166 alpha-2)'),
        sender: z.string().min(1).max(20).describe('The sending number (E.164) or alphanumeric sender id'),
        help_text: z
          .string()
          .min(1)
          .max(320)
          .describe("What a HELP reply answers: the business's name and contact"),
        consent_text: z.string().min(1).max(2000).describe('The wording people agree to when they subscribe'),
        consent_version: z.string().min(1).max(40),
        quiet_hours: z
          .object({ start: time, end: time })
          .optional()
          .describe(`Default ${LEGAL_QUIET.start} to ${LEGAL_QUIET.end}`),
        caps: z
          .object({ per_day: z.int().min(1).max(10), per_week: z.int().min(1).max(50) })
          .optional()
          .describe(
            'Campaign messages a subscriber gets at most in any 24 hours and any 7 days; default 1 and 3',
          ),
        segment_cost: z
          .object({ amount: z.number().min(0).max(10), currency: z.string().regex(/^[A-Z]{3}$/) })
          .optional()
          .describe("The provider's price of one segment, for campaign estimates"),
        messages_per_second: z
          .int()
          .min(1)
          .max(10_000)
          .optional()
          .describe('What the provider takes from this business; default 10'),
        provider: z
          .object({
            kind: z.enum(PROVIDERS),
            account_sid: z
              .string()
              .regex(/^AC[0-9a-f]{32}$/)
              .optional()
              .describe('Twilio'),
            url: z.url().max(2000).optional().describe('Generic provider: where messages are posted'),
            secret: z
              .string()
              .min(8)
              .max(200)
              .optional()
              .describe("Twilio's auth token, or the generic provider's signing key"),
          })
          .optional()
          .describe('Default the log provider (development: messages are written to the log)'),
      }),
      output: z.object({ result: z.literal(true), settings: settingsView }),
      handler: (ctx, input) => settings.save(ctx, input),
    }),
    defineOperation({
      name: 'get_sms_settings',
      summary: "The business's SMS marketing settings (the provider's secret is never shown)",
      description:
        'Null until the first set_sms_settings (readable while the family is on but not set up yet). Quiet hours, caps and the pace are those campaigns are sent under.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      featureSetup: true,
      access: STAFF_READ,
      rest: { method: 'GET', path: '/v1/sms/settings' },
      graphql: 'smsSettings',
      input: z.object({}),
      output: z.object({ result: z.literal(true), settings: settingsView.nullable() }),
      handler: (ctx) => settings.read(ctx),
    }),
  ];
}
