import type { ProviderKind } from './tables.ts';

/** One message handed to a provider. */
export interface OutgoingSms {
  /** Our message's id: the provider's idempotency key where it has one. */
  id: number;
  from: string;
  to: string;
  body: string;
}

/** What the provider said when it took the message. */
export type SendOutcome =
  | { accepted: true; providerMessageId: string }
  /** Refused for good (a bad number, a blocked recipient): not tried again. */
  | { accepted: false; permanent: true; error: string }
  /** Could not be handed over now (the provider down, throttled): tried again later. */
  | { accepted: false; permanent: false; error: string };

/** The provider a business's settings name, with its configuration and its opened secret. */
export interface ProviderAccount {
  /** Whose account: Twilio's status callback URL names the business. */
  businessId: number;
  kind: ProviderKind;
  config: Record<string, string>;
  secret: string | null;
}

/**
 * A way to send SMS (Twilio, a generic HTTP provider, the log). One instance per account: the
 * sending handler asks `providers.for(account)` for each batch.
 */
export interface SmsProvider {
  readonly kind: ProviderKind;
  send(message: OutgoingSms): Promise<SendOutcome>;
}

/** Makes the provider for a business's account (tests give a stand-in's). */
export interface SmsProviders {
  for(account: ProviderAccount): SmsProvider;
}

/**
 * HTTP statuses of a refusal that the same request may not get again: the account's credentials
 * or signing key (fixed by the admin: a campaign must not be lost to it), a time limit,
 * throttling. Every other 4xx is about the message itself and is permanent.
 */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([401, 403, 408, 429]);
