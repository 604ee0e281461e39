import http from 'node:http';
import type twilio from 'twilio';
import { type OutgoingSms, RETRIED_STATUSES, type SendOutcome, type SmsProvider } from './provider.ts';

/** Where Twilio's SDK sends its REST calls; the SDK itself only knows https://api.twilio.com. */
const TWILIO_API_HOST = 'api.twilio.com';

type RequestOptions<TData> = Parameters<twilio.RequestClient['request']>[0] & { data?: TData };

/**
 * Twilio's own HTTP client with keep-alive connections (its https agent, and one of ours for an
 * http stand-in), sending the SDK's calls to the configured API address instead of Twilio's when
 * they differ. One is shared by every business's account: connections are reused across batches.
 * The SDK takes a fifth of a second to load: it loads here, at the first message through Twilio,
 * not at every start of a service that may never use it.
 */
export async function twilioHttpClient(apiUrl: string, timeoutMs: number): Promise<twilio.RequestClient> {
  const { default: sdk } = await import('twilio');
  const base = new URL(apiUrl);
  class RedirectingClient extends sdk.RequestClient {
    override request<TData>(options: RequestOptions<TData>) {
      const uri = new URL(options.uri);
      if (uri.hostname === TWILIO_API_HOST && base.hostname !== TWILIO_API_HOST) {
        uri.protocol = base.protocol;
        uri.host = base.host;
        uri.pathname = `${base.pathname.replace(/\/+$/, '')}${uri.pathname}`;
      }
      return super.request<TData>({ ...options, uri: uri.href });
    }
  }
  // No retry inside the SDK: the outbox retries the batch, and the handler knows what was taken.
  const client = new RedirectingClient({
    timeout: timeoutMs,
    keepAlive: true,
    maxSockets: 32,
    autoRetry: false,
  });
  client.axios.defaults.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  return client;
}

/** Sends through Twilio's Programmable Messaging API with its official SDK. */
export class TwilioSmsProvider implements SmsProvider {
  readonly kind = 'twilio' as const;
  private client: Promise<twilio.Twilio> | undefined;

  constructor(
    private readonly accountSid: string,
    private readonly authToken: string,
    private readonly httpClient: () => Promise<twilio.RequestClient>,
    /** The service's delivery-status endpoint for this business's Twilio messages. */
    private readonly statusCallback: string,
  ) {}

  private connect(): Promise<twilio.Twilio> {
    this.client ??= Promise.all([import('twilio'), this.httpClient()]).then(
      ([{ default: sdk }, httpClient]) =>
        sdk(this.accountSid, this.authToken, { httpClient, autoRetry: false }),
    );
    return this.client;
  }

  async send(message: OutgoingSms): Promise<SendOutcome> {
    try {
      const client = await this.connect();
      const sent = await client.messages.create({
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
