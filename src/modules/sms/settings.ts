import type { Selectable } from 'kysely';
import { isSupportedCountry } from 'libphonenumber-js/max';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { CredentialVault } from '../../platform/credential-vault.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { invalidField } from '../../platform/errors.ts';
import { checkDestination, OutboundRefused, type OutboundRules } from '../../platform/http/outbound.ts';
import type { AccountOf } from './outbound.ts';
import type { ProviderKind, SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
export type SettingsRow = Selectable<SmsTables['sms_settings']>;

/** The quiet window the law asks for at least (TCPA: no marketing before 08:00 or after 21:00 local). */
export const LEGAL_QUIET = { start: '21:00', end: '08:00' } as const;

export interface SettingsInput {
  default_region: string;
  sender: string;
  help_text: string;
  consent_text: string;
  consent_version: string;
  quiet_hours?: { start: string; end: string };
  caps?: { per_day: number; per_week: number };
  segment_cost?: { amount: number; currency: string };
  messages_per_second?: number;
  provider?: { kind: ProviderKind; account_sid?: string; url?: string; secret?: string };
}

/** Minutes since midnight of 'HH:MM' or 'HH:MM:SS'. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * A business's SMS marketing settings: its sending number, what HELP answers, the consent wording,
 * quiet hours and caps, and its provider. The first save sets the family up for the business.
 */
export class SmsSettings {
  constructor(
    private readonly clock: Clock,
    private readonly vault: CredentialVault,
    private readonly outbound: OutboundRules,
  ) {}

  /** The family is "migrated" for a business once it saved its settings. */
  readonly isSetUp = async (db: Queryable, businessId: number): Promise<boolean> =>
    (await this.of(db, businessId)) !== undefined;

  of(db: Db, businessId: number): Promise<SettingsRow | undefined> {
    return db.selectFrom('sms_settings').selectAll().where('business_id', '=', businessId).executeTakeFirst();
  }

  /** The provider account the sending handler uses, its secret opened. */
  readonly accountOf: AccountOf = async (db, businessId) => {
    const row = await this.of(db, businessId);
    if (!row) return undefined;
    return {
      businessId,
      kind: row.provider,
      config: row.provider_config,
      secret: row.provider_secret ? await this.vault.open(row.provider_secret, ownerOf(businessId)) : null,
      sender: row.sender,
    };
  };

  async read(ctx: OperationContext) {
    const row = await this.of(ctx.db, businessOf(ctx));
    return { result: true as const, settings: row ? view(row) : null };
  }

  async save(ctx: OperationContext, input: SettingsInput) {
    const businessId = businessOf(ctx);
    if (!isSupportedCountry(input.default_region))
      throw invalidField('default_region', `${input.default_region} is not a region with phone numbers.`);
    const quiet = input.quiet_hours ?? LEGAL_QUIET;
    // The window may be wider than the law's, never narrower: it starts by 21:00 (after noon) and
    // ends at 08:00 or later (before noon).
    const start = minutesOf(quiet.start);
    const end = minutesOf(quiet.end);
    if (start < 12 * 60 || start > minutesOf(LEGAL_QUIET.start))
      throw invalidField(
        'quiet_hours.start',
        `Quiet hours must start between 12:00 and ${LEGAL_QUIET.start}.`,
      );
    if (end < minutesOf(LEGAL_QUIET.end) || end > 12 * 60)
      throw invalidField('quiet_hours.end', `Quiet hours must end between ${LEGAL_QUIET.end} and 12:00.`);
    const caps = input.caps ?? { per_day: 1, per_week: 3 };
    if (caps.per_day > caps.per_week)
      throw invalidField('caps.per_day', 'A day cannot allow more messages than its week.');
    const existing = await this.of(ctx.db, businessId);
    const provider = input.provider ?? { kind: existing?.provider ?? 'log' };
    const config: Record<string, string> = {};
    let secret = existing?.provider === provider.kind ? existing.provider_secret : null;
    if (provider.secret !== undefined) secret = await this.vault.seal(provider.secret, ownerOf(businessId));
    if (provider.kind === 'twilio') {
      const sid = provider.account_sid ?? existing?.provider_config.account_sid;
      if (!sid) throw invalidField('provider.account_sid', 'Twilio needs the account SID.');
      config.account_sid = sid;
    }
    if (provider.kind === 'generic') {
      const url = provider.url ?? existing?.provider_config.url;
      if (!url)
        throw invalidField('provider.url', 'The generic provider needs the URL messages are posted to.');
      await this.requireCallable(url);
      config.url = url;
    }
    if (provider.kind !== 'log' && !secret)
      throw invalidField('provider.secret', 'This provider needs its secret (auth token or signing key).');
    const values = {
      default_region: input.default_region,
      sender: input.sender,
      help_text: input.help_text,
      consent_text: input.consent_text,
      consent_version: input.consent_version,
      quiet_start: quiet.start,
      quiet_end: quiet.end,
      cap_per_day: caps.per_day,
      cap_per_week: caps.per_week,
      segment_cost: String(input.segment_cost?.amount ?? existing?.segment_cost ?? 0),
      currency: input.segment_cost?.currency ?? existing?.currency ?? 'EUR',
      messages_per_second: input.messages_per_second ?? existing?.messages_per_second ?? 10,
      provider: provider.kind,
      provider_config: config,
      provider_secret: provider.kind === 'log' ? null : secret,
      updated_at: this.clock.now(),
    };
    const row = await (ctx.db as Db)
      .insertInto('sms_settings')
      .values({ business_id: businessId, ...values })
      .onConflict((conflict) => conflict.column('business_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return { result: true as const, settings: view(row) };
  }

  /** A provider URL every call would refuse (a private or metadata address) is refused when saved. */
  private async requireCallable(url: string): Promise<void> {
    try {
      await checkDestination(url, this.outbound);
    } catch (error) {
      if (!(error instanceof OutboundRefused)) throw error;
      throw invalidField('provider.url', error.message);
    }
  }
}

/** A business's sealed provider secret opens only as that business's. */
function ownerOf(businessId: number): string {
  return `sms:${businessId}`;
}

function view(row: SettingsRow) {
  return {
    default_region: row.default_region,
    sender: row.sender,
    help_text: row.help_text,
    consent_text: row.consent_text,
    consent_version: row.consent_version,
    quiet_hours: { start: row.quiet_start.slice(0, 5), end: row.quiet_end.slice(0, 5) },
    caps: { per_day: row.cap_per_day, per_week: row.cap_per_week },
    segment_cost: { amount: Number(row.segment_cost), currency: row.currency },
    messages_per_second: row.messages_per_second,
    provider: {
      kind: row.provider,
      account_sid: row.provider_config.account_sid ?? null,
      url: row.provider_config.url ?? null,
      secret_set: row.provider_secret !== null,
    },
    updated_at: row.updated_at.toISOString(),
  };
}
