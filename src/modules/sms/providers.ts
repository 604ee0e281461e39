import type twilio from 'twilio';
import type { SmsProviderSettings } from '../../config.ts';
import { GenericConnections, GenericHttpSmsProvider } from './generic-provider.ts';
import type { OutgoingSms, ProviderAccount, SendOutcome, SmsProvider, SmsProviders } from './provider.ts';
import { TwilioSmsProvider, twilioHttpClient } from './twilio-provider.ts';

/** Development's provider: each message goes to the service's log, and is taken. */
export class LogSmsProvider implements SmsProvider {
  readonly kind = 'log' as const;

  constructor(private readonly log: (line: string) => void = (line) => console.info(line)) {}

  async send(message: OutgoingSms): Promise<SendOutcome> {
    this.log(`[sms] ${message.from} -> ${message.to}: ${message.body}`);
    return { accepted: true, providerMessageId: `log-${message.id}` };
  }
}

/** A provider whose account cannot send (settings saved before a secret was required): retried. */
class MisconfiguredSmsProvider implements SmsProvider {
  constructor(
    readonly kind: ProviderAccount['kind'],
    private readonly problem: string,
  ) {}

  async send(): Promise<SendOutcome> {
    return { accepted: false, permanent: false, error: this.problem };
  }
}

/** The delivery-status endpoint a business's messages through `provider` report to. */
export function statusCallbackUrl(publicBaseUrl: string, businessId: number, provider: string): string {
  return `${publicBaseUrl}/api/v1/sms/status/${businessId}/${provider}`;
}

/**
 * The providers the service ships: the log, Twilio (official SDK), and a generic HTTP provider.
 * Their connections are kept alive and shared across batches and businesses.
 */
export class BuiltInSmsProviders implements SmsProviders {
  private readonly log = new LogSmsProvider();
  private twilioHttp: Promise<twilio.RequestClient> | undefined;
  private readonly generic: GenericConnections;

  constructor(private readonly settings: SmsProviderSettings & { publicBaseUrl: string }) {
    this.generic = new GenericConnections(settings);
  }

  for(account: ProviderAccount): SmsProvider {
    if (account.kind === 'log') return this.log;
    if (!account.secret)
      return new MisconfiguredSmsProvider(account.kind, `The ${account.kind} provider has no secret`);
    if (account.kind === 'twilio') {
      const sid = account.config.account_sid;
      if (!sid) return new MisconfiguredSmsProvider('twilio', 'Twilio needs the account SID');
      const callback = statusCallbackUrl(this.settings.publicBaseUrl, account.businessId, 'twilio');
      const http = () =>
        (this.twilioHttp ??= twilioHttpClient(this.settings.twilioApiUrl, this.settings.timeoutMs));
      return new TwilioSmsProvider(sid, account.secret, http, callback);
    }
    const url = account.config.url;
    if (!url) return new MisconfiguredSmsProvider('generic', 'The generic provider needs its URL');
    return new GenericHttpSmsProvider(url, account.secret, this.generic);
  }
}
