import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Twilio-compatible stand-in on loopback: POST /2010-04-01/Accounts/{sid}/Messages.json with
 * basic auth (account SID and auth token) and a form body, answered as Twilio answers (201 with the
 * message's `sid`, or an error body with `code` and `message`).
 */

export interface TwilioCall {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

export interface TwilioStandIn {
  url: string;
  calls: TwilioCall[];
  /** Connections opened to it. */
  connections: number;
  /** Messages taken (201), in order. */
  taken: Array<{ sid: string; form: Record<string, string> }>;
  /** An error answer instead of taking the message, when set. */
  answer:
    | ((form: Record<string, string>) => { status: number; code?: number; message?: string } | undefined)
    | undefined;
  close(): Promise<void>;
}

export async function startTwilioStandIn(accountSid: string, authToken: string): Promise<TwilioStandIn> {
  const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const standIn: TwilioStandIn = {
    url: '',
    calls: [],
    connections: 0,
    taken: [],
    answer: undefined,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const reply = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      standIn.calls.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form,
      });
      if (request.method !== 'POST' || request.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`)
        return reply(response, 404, {
          code: 20404,
          message: 'The requested resource was not found',
          status: 404,
        });
      if (request.headers.authorization !== expected)
        return reply(response, 401, { code: 20003, message: 'Authenticate', status: 401 });
      if (!form.To || !form.Body || !form.From)
        return reply(response, 400, {
          code: 21604,
          message: "A 'To' phone number is required.",
          status: 400,
        });
      const refused = standIn.answer?.(form);
      if (refused)
        return reply(response, refused.status, {
          code: refused.code ?? null,
          message: refused.message ?? 'Refused',
          status: refused.status,
        });
      const sid = `SM${String(standIn.taken.length + 1).padStart(32, '0')}`;
      standIn.taken.push({ sid, form });
      reply(response, 201, {
        sid,
        account_sid: accountSid,
        to: form.To,
        from: form.From,
        body: form.Body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    });
  });
  server.on('connection', () => (standIn.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
