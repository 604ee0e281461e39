import assert from 'node:assert/strict';
import type { OutgoingSms, SendOutcome, SmsProvider, SmsProviders } from '../../src/modules/sms/index.ts';
import type { ProviderKind } from '../../src/modules/sms/tables.ts';
import { createTenant, login, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import type { TestServer } from './server.ts';

/** What the SMS tests share: a provider that records what it is handed, and a business set up for SMS. */

/** Every message handed to it is kept (in order) and taken; a test may make it refuse or fail. */
export class RecordingSmsProviders implements SmsProviders {
  readonly sent: OutgoingSms[] = [];
  /** Answers instead of taking the message, when set (a provider down, a number refused). */
  answer: ((message: OutgoingSms) => SendOutcome | undefined) | undefined;
  /** Which provider it says it is: delivery reports name one (`generic`, `twilio`). */
  kind: ProviderKind = 'log';
  /** Runs before the answer to a taken message: a provider that reports delivery at once. */
  beforeAnswer: ((message: OutgoingSms, providerMessageId: string) => Promise<void>) | undefined;
  private waiters: Array<() => void> = [];

  for(): SmsProvider {
    return {
      kind: this.kind,
      send: async (message) => {
        const refused = this.answer?.(message);
        if (refused) return refused;
        this.sent.push(message);
        for (const wake of this.waiters.splice(0)) wake();
        const providerMessageId = `rec-${message.id}`;
        await this.beforeAnswer?.(message, providerMessageId);
        return { accepted: true, providerMessageId };
      },
    };
  }

  /** The messages to `to`, once at least `count` of them were handed over (the outbox works in the background). */
  async to(to: string, count = 1, ms = 30_000): Promise<OutgoingSms[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.sent.filter((message) => message.to === to);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${found.length} of ${count} messages to ${to} within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

export interface SmsBusiness {
  api: Client;
  tenant: Tenant;
  /** client_admin's token. */
  admin: string;
}

/** Default settings: numbers read in France, HELP and consent wording, the legal quiet hours. */
export const SMS_SETTINGS = {
  default_region: 'FR',
  sender: '+33700000000',
  help_text: 'Parcels & Co: help at +33 1 23 45 67 89 or parcels.example. Reply STOP to stop.',
  consent_text: 'I agree to receive up to 3 marketing texts a week from Parcels & Co. Reply STOP to stop.',
  consent_version: '2026-11',
};

/** A business with SMS marketing on and set up (its first settings saved). */
export async function smsBusiness(
  server: TestServer,
  code: string,
  settings: Record<string, unknown> = {},
): Promise<SmsBusiness> {
  const api = client(server.baseUrl);
  const tenant = await createTenant(server.db, server.app.services, code, { timeZone: 'Europe/Paris' });
  const admin = await login(api, tenant.emails.client_admin);
  const on = await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
    token: admin,
    body: { enabled: true },
  });
  assert.equal(on.status, 200, JSON.stringify(on.body));
  const saved = await api.call('PUT', '/api/v1/sms/settings', {
    token: admin,
    body: { ...SMS_SETTINGS, ...settings },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return { api, tenant, admin };
}
