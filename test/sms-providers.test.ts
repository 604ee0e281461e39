import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { signBody } from '../src/modules/sms/generic-provider.ts';
import { queueMessages } from '../src/modules/sms/outbound.ts';
import type { ProviderAccount, SendOutcome } from '../src/modules/sms/provider.ts';
import { BuiltInSmsProviders } from '../src/modules/sms/providers.ts';
import { type SmsStandIn, startSmsStandIn } from '../src/modules/sms/stand-in.ts';
import { eventually } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { smsBusiness } from './support/sms.ts';
import { startTwilioStandIn, type TwilioStandIn } from './support/sms-twilio.ts';

const SID = `AC${'7'.repeat(32)}`;
const TOKEN = 'twilio-auth-token-of-the-test';
const SECRET = 'generic-signing-key-1';
const RULES = { allow: { loopback: true, privateNetworks: false }, timeoutMs: 2_000 };
const message = (id: number, to = '+33612345678') => ({ id, from: '+33700000000', to, body: `Hello ${id}` });

describe('SMS providers: Twilio through its SDK, the generic HTTP provider', () => {
  let twilioStandIn: TwilioStandIn;
  let standIn: SmsStandIn;
  let providers: BuiltInSmsProviders;
  const twilioAccount: ProviderAccount = {
    businessId: 7,
    kind: 'twilio',
    config: { account_sid: SID },
    secret: TOKEN,
  };
  let genericAccount: ProviderAccount;

  before(async () => {
    twilioStandIn = await startTwilioStandIn(SID, TOKEN);
    standIn = await startSmsStandIn({ secret: SECRET });
    providers = new BuiltInSmsProviders({
      ...RULES,
      twilioApiUrl: twilioStandIn.url,
      publicBaseUrl: 'https://tms.example',
    });
    genericAccount = { businessId: 7, kind: 'generic', config: { url: standIn.url }, secret: SECRET };
  });

  after(async () => {
    await twilioStandIn?.close();
    await standIn?.close();
  });

  it('sends through Twilio: basic auth, the form fields, the status callback of the business', async () => {
    const outcome = await providers.for(twilioAccount).send(message(1));
    assert.deepEqual(outcome, { accepted: true, providerMessageId: twilioStandIn.taken[0]?.sid });
    const call = twilioStandIn.calls.at(-1)!;
    assert.equal(call.path, `/2010-04-01/Accounts/${SID}/Messages.json`);
    assert.equal(call.authorization, `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    assert.match(call.contentType ?? '', /application\/x-www-form-urlencoded/);
    assert.deepEqual(call.form, {
      From: '+33700000000',
      To: '+33612345678',
      Body: 'Hello 1',
      StatusCallback: 'https://tms.example/api/v1/sms/status/7/twilio',
    });
  });

  it("maps Twilio's answers: a bad number or a STOPped recipient for good; credentials, throttling, outages retried", async () => {
    const provider = providers.for(twilioAccount);
    const refuse = (status: number, code?: number) => {
      twilioStandIn.answer = () => ({ status, code, message: `refused ${code ?? status}` });
      return provider.send(message(2));
    };
    const invalid = await refuse(400, 21211);
    assert.equal(invalid.accepted, false);
    assert.equal(!invalid.accepted && invalid.permanent, true, 'an invalid number is refused for good');
    assert.match(!invalid.accepted ? invalid.error : '', /21211/);
    const stopped = await refuse(400, 21610);
    assert.equal(
      !stopped.accepted && stopped.permanent,
      true,
      'an unsubscribed recipient is refused for good',
    );
    for (const status of [429, 500, 503]) {
      const outcome = await refuse(status, 20429);
      assert.equal(!outcome.accepted && outcome.permanent, false, `${status} is retried`);
    }
    twilioStandIn.answer = undefined;
    const wrongToken = providers.for({ ...twilioAccount, secret: 'not-the-token' });
    const unauthorised = await wrongToken.send(message(3));
    assert.equal(
      !unauthorised.accepted && unauthorised.permanent,
      false,
      'credentials are fixed, then retried',
    );
    assert.match(!unauthorised.accepted ? unauthorised.error : '', /20003/);
    const unreachable = new BuiltInSmsProviders({
      ...RULES,
      twilioApiUrl: 'http://127.0.0.1:9',
      publicBaseUrl: 'https://tms.example',
    });
    const down = await unreachable.for(twilioAccount).send(message(4));
    assert.equal(!down.accepted && down.permanent, false, 'a network failure is retried');
  });

  it('reuses its connections to Twilio', async () => {
    const before = twilioStandIn.connections;
    const provider = providers.for(twilioAccount);
    for (let id = 10; id < 30; id++) assert.equal((await provider.send(message(id))).accepted, true);
    assert.ok(twilioStandIn.connections - before <= 2, `${twilioStandIn.connections - before} connections`);
  });

  it('posts the generic format signed with the business secret, and records the answered id', async () => {
    const raw = await captureOne(async (url) => {
      await providers.for({ ...genericAccount, config: { url } }).send(message(40));
    });
    assert.deepEqual(JSON.parse(raw.body), {
      id: 40,
      from: '+33700000000',
      to: '+33612345678',
      text: 'Hello 40',
    });
    assert.equal(
      raw.signature,
      signBody(raw.body, SECRET),
      'X-Signature is the hex HMAC-SHA256 of the raw body',
    );

    const outcome = await providers.for(genericAccount).send(message(41));
    const taken = standIn.messages.at(-1)!;
    assert.deepEqual(outcome, { accepted: true, providerMessageId: taken.provider_id });
    assert.equal(taken.id, 41);
  });

  it('maps the generic answers: 4xx for good, 5xx and time-outs retried, a wrong key retried', async () => {
    const provider = providers.for(genericAccount);
    const answered = async (status: number): Promise<SendOutcome> => {
      standIn.answer = () => ({ status });
      try {
        return await provider.send(message(50));
      } finally {
        standIn.answer = undefined;
      }
    };
    for (const status of [400, 404, 422])
      assert.equal(((await answered(status)) as { permanent?: boolean }).permanent, true, `${status}`);
    for (const status of [429, 500, 502, 503])
      assert.equal(((await answered(status)) as { permanent?: boolean }).permanent, false, `${status}`);
    const wrongKey = await providers.for({ ...genericAccount, secret: 'another-key-00' }).send(message(51));
    assert.equal(!wrongKey.accepted && wrongKey.permanent, false, 'the stand-in answers 401: retried');
    const slow = await startSlowServer();
    try {
      const timedOut = await new BuiltInSmsProviders({
        ...RULES,
        timeoutMs: 200,
        twilioApiUrl: twilioStandIn.url,
        publicBaseUrl: 'https://tms.example',
      })
        .for({ ...genericAccount, config: { url: slow.url } })
        .send(message(52));
      assert.equal(!timedOut.accepted && timedOut.permanent, false, 'a time-out is retried');
    } finally {
      await slow.close();
    }
  });

  it('refuses private and, unless allowed, loopback addresses without sending anything', async () => {
    const taken = standIn.taken;
    const privateUrl = await providers
      .for({ ...genericAccount, config: { url: 'http://10.0.0.7/sms' } })
      .send(message(60));
    assert.equal(!privateUrl.accepted && privateUrl.permanent, true);
    assert.match(!privateUrl.accepted ? privateUrl.error : '', /private network/);
    const strict = new BuiltInSmsProviders({
      allow: { loopback: false, privateNetworks: false },
      timeoutMs: 2_000,
      twilioApiUrl: twilioStandIn.url,
      publicBaseUrl: 'https://tms.example',
    });
    const loopback = await strict.for(genericAccount).send(message(61));
    assert.equal(!loopback.accepted && loopback.permanent, true);
    assert.match(!loopback.accepted ? loopback.error : '', /loopback/);
    assert.equal(standIn.taken, taken, 'nothing reached the provider');
  });

  it('reuses its connections to a generic provider, leaving nothing behind on them', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const before = standIn.connections;
      const provider = providers.for(genericAccount);
      await Promise.all(Array.from({ length: 16 }, (_, i) => provider.send(message(100 + i))));
      for (let id = 200; id < 240; id++) assert.equal((await provider.send(message(id))).accepted, true);
      const opened = standIn.connections - before;
      assert.ok(opened <= 16, `${opened} connections for 56 messages`);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((warning) => warning.message),
        [],
        'no listener piles up on a reused connection',
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('SMS sending through the outbox to a provider stand-in', () => {
  let server: TestServer;
  let standIn: SmsStandIn;
  let businessId: number;

  before(async () => {
    standIn = await startSmsStandIn({ secret: SECRET });
    server = await startTestServer({
      sms: { ...RULES, twilioApiUrl: 'http://127.0.0.1:9' },
    });
    const business = await smsBusiness(server, 'sms-send', {
      provider: { kind: 'generic', url: standIn.url, secret: SECRET },
    });
    businessId = business.tenant.businessId;
    await server.app.startBackground(server.pool);
  });

  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  const queue = (...to: string[]) =>
    server.db.transaction().execute((trx) =>
      queueMessages(
        trx,
        server.clock,
        businessId,
        to.map((phone) => ({
          business_id: businessId,
          kind: 'confirmation' as const,
          to_phone: phone,
          body: `To ${phone}`,
        })),
      ),
    );
  const outboxOf = (messageId: number) =>
    sql<{ last_error: string | null; done_at: Date | null; attempts: number }>`
      SELECT last_error, done_at, attempts FROM outbox
      WHERE topic = 'sms.send' AND payload -> 'message_ids' @> ${JSON.stringify([messageId])}::jsonb`
      .execute(server.db)
      .then((result) => result.rows[0]);
  const takenTo = (phone: string) => standIn.messages.filter((m) => m.to === phone);
  const stateOf = (id: number) =>
    sql<{ state: string; provider: string; provider_message_id: string }>`
      SELECT state, provider, provider_message_id FROM sms_messages WHERE id = ${id}`
      .execute(server.db)
      .then((result) => result.rows[0]!);

  it('hands a queued message over once and records the provider id', async () => {
    const [id] = await queue('+33611111111');
    server.app.outbox.poke();
    const [taken] = await eventually(
      () => (takenTo('+33611111111').length ? takenTo('+33611111111') : undefined),
      'the hand-over',
    );
    assert.equal(taken!.id, id);
    const row = await eventually(async () => {
      const found = await stateOf(id!);
      return found.state === 'sent' ? found : undefined;
    }, 'the message recorded sent');
    assert.deepEqual(row, { state: 'sent', provider: 'generic', provider_message_id: taken!.provider_id });
    // The outbox marks its message done once the handler has returned, after the message is
    // recorded sent: a busy machine shows the one before the other.
    const outbox = await eventually(async () => {
      const found = await outboxOf(id!);
      return found?.done_at ? found : undefined;
    }, 'its outbox message done: nothing hands it over again');
    assert.equal(outbox.attempts, 1);
    assert.equal(takenTo('+33611111111').length, 1, 'handed over once');
  });

  it('a provider down then up: the message arrives, and one already taken is not sent again', async () => {
    const up = '+33622222222';
    const down = '+33633333333';
    standIn.answer = (m) => (m.to === down ? { status: 503 } : undefined);
    const [upId, downId] = await queue(up, down);
    server.app.outbox.poke();
    const failed = await eventually(async () => {
      const row = await outboxOf(downId!);
      return row?.last_error ? row : undefined;
    }, 'the failed try recorded');
    assert.match(failed.last_error ?? '', /503/);
    assert.equal(failed.done_at, null, 'to be tried again');
    assert.equal((await stateOf(upId!)).state, 'sent');
    assert.equal((await stateOf(downId!)).state, 'queued', 'not taken: still queued');
    standIn.answer = undefined;
    server.clock.advance(31_000);
    server.app.outbox.poke();
    await eventually(() => (takenTo(down).length ? true : undefined), 'the retried hand-over');
    await eventually(
      async () => ((await stateOf(downId!)).state === 'sent' ? true : undefined),
      'recorded sent',
    );
    assert.equal(takenTo(down).length, 1);
    assert.equal(takenTo(up).length, 1, 'the message taken before the outage is not sent again');
  });
});

/** One request to a server of its own: its raw body and X-Signature. */
async function captureOne(
  send: (url: string) => Promise<void>,
): Promise<{ body: string; signature: string }> {
  const http = await import('node:http');
  let seen: { body: string; signature: string } | undefined;
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen = { body, signature: String(request.headers['x-signature']) };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"id":"captured-1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    await send(`http://127.0.0.1:${port}/sms`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  assert.ok(seen, 'the provider was called');
  return seen;
}

/** A server that never answers. */
async function startSlowServer() {
  const http = await import('node:http');
  const server = http.createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/sms`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
