import http from 'node:http';
import twilio from 'twilio';
import { type OutgoingSms, RETRIED_STATUSES, type SendOutcome, type SmsProvider } from './provider.ts';

/** Where Twilio's SDK sends its REST calls; the SDK itself only knows https://api.twilio.com. */
const TWILIO_API_HOST = 'api.twilio.com';

type RequestOptions<TData> = Parameters<InstanceType<typeof twilio.RequestClient>['request']>[0] & {
  data?: TData;
};

/**
 * Twilio's own HTTP client with keep-alive connections (its https agent, and one of ours for an
 * http stand-in), sending the SDK's calls to the configured API address instead of Twilio's when
 * they differ. One is shared by every business's account: connections are reused across batches.
 */
export class TwilioHttpClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(apiUrl: string, timeoutMs: number) {
    // No retry inside the SDK: the outbox retries the batch, and the handler knows what was taken.
    super({ timeout: timeoutMs, keepAlive: true, maxSockets: 32, autoRetry: false });
    this.base = new URL(apiUrl);
    this.axios.defaults.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  }

  override request<TData>(options: RequestOptions<TData>) {
    const uri = new URL(options.uri);
    if (uri.hostname === TWILIO_API_HOST && this.base.hostname !== TWILIO_API_HOST) {
      uri.protocol = this.base.protocol;
      uri.host = this.base.host;
      uri.pathname = `${this.base.pathname.replace(/\/+$/, '')}${uri.pathname}`;
    }
    return super.request<TData>({ ...options, uri: uri.href });
  }
}

/** Sends through Twilio's Programmable Messaging API with its official SDK. */
export class TwilioSmsProvider implements SmsProvider {
  readonly kind = 'twilio' as const;
  private readonly client: twilio.Twilio;

  constructor(
    accountSid: string,
    authToken: string,
    httpClient: TwilioHttpClient,
    /** The service's delivery-status endpoint for this business's Twilio messages. */
    private readonly statusCallback: string,
  ) {
    this.client = twilio(accountSid, authToken, { httpClient, autoRetry: false });
  }

  async send(message: OutgoingSms): Promise<SendOutcome> {
    try {
      const sent = await this.client.messages.create({
        from: message.from,
        to: message.to,
        body: message.body,
        statusCallback: this.statusCallback,
      });
      return { accepted: true, providerMessageId: sent.sid };
    } catch (error) {
      return twilioOutcome(error);
    }
  }
}

/**
 * A refusal with a 4xx status is about the message itself (21211 invalid number, 21610 the
 * recipient replied STOP to Twilio, 21614 not a mobile number...): sending it again would get the
 * same answer, so it is permanent. Credentials, throttling, 5xx and network failures are retried.
 */
export function twilioOutcome(error: unknown): SendOutcome {
  const { status, code, message } = error as { status?: unknown; code?: unknown; message?: unknown };
  const text = `Twilio${typeof status === 'number' ? ` ${status}` : ''}${code ? ` (${String(code)})` : ''}: ${String(message ?? error)}`;
  const permanent =
    typeof status === 'number' && status >= 400 && status < 500 && !RETRIED_STATUSES.has(status);
  return permanent
    ? { accepted: false, permanent: true, error: text }
    : { accepted: false, permanent: false, error: text };
}
