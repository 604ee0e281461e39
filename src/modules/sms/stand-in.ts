import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBody } from './generic-provider.ts';

/**
 * A stand-in SMS provider speaking the generic format (docs/sms-marketing.md, "Providers"), for
 * tests, the bench and local development (`npm run tms -- sms stand-in`). It takes every correctly
 * signed message, keeps it in memory and/or writes it as one JSON line to a file (buffered, no
 * per-message sync: a bench hands it 100,000), and can report delivery statuses back.
 */

export interface StandInMessage {
  /** The stand-in's id for it, answered as {id}. */
  provider_id: string;
  /** The service's message id. */
  id: number;
  from: string;
  to: string;
  text: string;
  at: string;
}

export interface StandInOptions {
  port?: number;
  host?: string;
  /** The business's signing key: a message without its X-Signature is answered 401. */
  secret?: string;
  /** Where each taken message is written as one JSON line (appended). */
  logFile?: string;
  /** Keep taken messages in memory (`messages`); default true. */
  keep?: boolean;
}

export interface SmsStandIn {
  url: string;
  /** Taken messages, in order (when kept). */
  readonly messages: StandInMessage[];
  /** How many messages were taken. */
  readonly taken: number;
  /** How many connections were opened to it (callers keeping theirs alive open few). */
  readonly connections: number;
  /**
   * Answers instead of taking a message, when set: a status (and body) such as 503 for a provider
   * down, 400 for a number it refuses.
   */
  answer: ((message: StandInMessage) => { status: number; body?: unknown } | undefined) | undefined;
  /** Posts a status of each given message to `url`, signed like the messages it takes. */
  reportStatuses(url: string, messages: StandInMessage[], status: 'delivered' | 'failed'): Promise<number[]>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024;

export async function startSmsStandIn(options: StandInOptions = {}): Promise<SmsStandIn> {
  const messages: StandInMessage[] = [];
  // Ids unique across runs: a restarted stand-in must not answer an id the service already holds.
  const run = randomBytes(4).toString('hex');
  const keep = options.keep ?? true;
  const log: WriteStream | undefined = options.logFile
    ? createWriteStream(options.logFile, { flags: 'a' })
    : undefined;
  let taken = 0;
  let connections = 0;
  const standIn: SmsStandIn = {
    url: '',
    messages,
    get taken() {
      return taken;
    },
    get connections() {
      return connections;
    },
    answer: undefined,
    async reportStatuses(url, sent, status) {
      const answers: number[] = [];
      for (const message of sent) {
        const body = JSON.stringify({ message_id: message.provider_id, status });
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (options.secret) headers['x-signature'] = signBody(body, options.secret);
        const response = await fetch(url, { method: 'POST', headers, body });
        await response.arrayBuffer();
        answers.push(response.status);
      }
      return answers;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (log) await new Promise<void>((resolve) => log.end(resolve));
    },
  };

  const reply = (response: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (request.method !== 'POST') return reply(response, 405, { error: 'POST messages here' });
      if (size > MAX_BODY_BYTES) return reply(response, 413, { error: 'too large' });
      const raw = Buffer.concat(chunks);
      if (options.secret && !signatureMatches(raw, request.headers['x-signature'], options.secret))
        return reply(response, 401, { error: 'bad signature' });
      let sent: { id?: unknown; from?: unknown; to?: unknown; text?: unknown };
      try {
        sent = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply(response, 400, { error: 'not JSON' });
      }
      if (typeof sent.to !== 'string' || typeof sent.text !== 'string')
        return reply(response, 400, { error: 'to and text are required' });
      const message: StandInMessage = {
        provider_id: `si-${run}-${taken + 1}`,
        id: Number(sent.id),
        from: String(sent.from ?? ''),
        to: sent.to,
        text: sent.text,
        at: new Date().toISOString(),
      };
      const refused = standIn.answer?.(message);
      if (refused) return reply(response, refused.status, refused.body ?? { error: 'refused' });
      taken += 1;
      if (keep) messages.push(message);
      log?.write(`${JSON.stringify(message)}\n`);
      reply(response, 200, { id: message.provider_id });
    });
  });
  server.on('connection', () => (connections += 1));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  standIn.url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/messages`;
  return standIn;
}

function signatureMatches(raw: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signBody(raw, secret), 'hex');
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
