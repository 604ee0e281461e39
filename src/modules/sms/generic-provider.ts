import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import {
  OutboundFailed,
  OutboundRefused,
  type OutboundRules,
  safeDelivery,
} from '../../platform/http/outbound.ts';
import { type OutgoingSms, RETRIED_STATUSES, type SendOutcome, type SmsProvider } from './provider.ts';

/** The hex HMAC-SHA256 of a raw body under the business's secret: the X-Signature header. */
export function signBody(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Keep-alive connections for generic providers, under the SMS rules only (never shared with calls
 * under other rules): a campaign's messages go to one URL, one after another.
 */
export class GenericConnections {
  readonly http = new http.Agent({ keepAlive: true, maxSockets: 32 });
  readonly https = new https.Agent({ keepAlive: true, maxSockets: 32 });

  constructor(readonly rules: OutboundRules) {}

  agentFor(url: string): http.Agent {
    return url.startsWith('https:') ? this.https : this.http;
  }
}

/**
 * The generic HTTP provider (docs/sms-marketing.md, "Providers"): POST {id, from, to, text} as
 * JSON, signed with X-Signature; the answer's {id} is the provider's message id.
 */
export class GenericHttpSmsProvider implements SmsProvider {
  readonly kind = 'generic' as const;

  constructor(
    private readonly url: string,
    private readonly secret: string,
    private readonly connections: GenericConnections,
  ) {}

  async send(message: OutgoingSms): Promise<SendOutcome> {
    const body = JSON.stringify({ id: message.id, from: message.from, to: message.to, text: message.body });
    const { rules } = this.connections;
    let answer: Awaited<ReturnType<typeof safeDelivery>>;
    try {
      answer = await safeDelivery(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': signBody(body, this.secret) },
        body,
        timeoutMs: rules.timeoutMs,
        allow: rules.allow,
        agent: this.connections.agentFor(this.url),
      });
    } catch (error) {
      // A URL the rules refuse is refused at every try: nothing was sent, and nothing will be.
      if (error instanceof OutboundRefused) return { accepted: false, permanent: true, error: error.message };
      if (error instanceof OutboundFailed) return { accepted: false, permanent: false, error: error.message };
      throw error;
    }
    const said = `${answer.status} ${answer.bodyExcerpt.slice(0, 200)}`;
    if (answer.status >= 200 && answer.status < 300)
      // The message was taken: an answer without a readable id still must not send it again; its
      // status callbacks then name it by our id, which it was given.
      return { accepted: true, providerMessageId: providerIdOf(answer.bodyExcerpt) ?? String(message.id) };
    if (answer.status >= 400 && answer.status < 500 && !RETRIED_STATUSES.has(answer.status))
      return { accepted: false, permanent: true, error: `The provider refused the message: ${said}` };
    return { accepted: false, permanent: false, error: `The provider could not take the message: ${said}` };
  }
}

function providerIdOf(body: string): string | undefined {
  try {
    const { id } = JSON.parse(body) as { id?: unknown };
    if ((typeof id === 'string' && id.length > 0 && id.length <= 200) || typeof id === 'number')
      return String(id);
  } catch {
    // Not JSON: no id.
  }
  return undefined;
}
