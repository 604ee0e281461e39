import assert from 'node:assert/strict';
import { sql } from 'kysely';
import twilio from 'twilio';
import { loadConfig } from '../../src/config.ts';
import { genericSignature } from '../../src/modules/sms/inbound.ts';
import type { Answer, Client } from './http.ts';
import { startTestServer, type TestServer } from './server.ts';
import { RecordingSmsProviders } from './sms.ts';

/** What the tests of subscribers and inbound messages share: signed provider calls, and reads of the rows. */

export const TWILIO_TOKEN = 'twilio-auth-token-for-tests';
export const GENERIC_SECRET = 'generic-signing-key-for-tests';
export const TWILIO_PROVIDER = { kind: 'twilio', account_sid: `AC${'a'.repeat(32)}`, secret: TWILIO_TOKEN };
/** A loopback URL the tests allow: nothing listens there, and the recording provider stands in anyway. */
export const GENERIC_PROVIDER = { kind: 'generic', url: 'http://127.0.0.1:9/sms', secret: GENERIC_SECRET };

/** A test server whose recording provider takes every message, with loopback allowed for the generic provider's URL. */
export async function smsServer(
  overrides: { subscribesPerAddressPerHour?: number } = {},
): Promise<{ server: TestServer; providers: RecordingSmsProviders }> {
  const providers = new RecordingSmsProviders();
  const { sms } = loadConfig({ LOG_LEVEL: 'silent' });
  const server = await startTestServer(
    {
      sms: { ...sms, allow: { ...sms.allow, loopback: true } },
      smsSubscribe: { perAddressPerHour: overrides.subscribesPerAddressPerHour ?? 1000 },
    },
    { smsProviders: providers },
  );
  return { server, providers };
}

/** Posts Twilio's form to a business's endpoint, signed with `token` (a forger's, to test refusals). */
export function postTwilio(
  server: TestServer,
  api: Client,
  businessId: number,
  endpoint: 'inbound' | 'status',
  params: Record<string, string>,
  options: { token?: string; signature?: string | null } = {},
): Promise<Answer> {
  const url = server.app.services.sms.inbound.twilioUrl(businessId, endpoint);
  const signature =
    options.signature === undefined
      ? twilio.getExpectedTwilioSignature(options.token ?? TWILIO_TOKEN, url, params)
      : options.signature;
  return api.call('POST', `/api/v1/sms/${endpoint}/${businessId}/twilio`, {
    body: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
  });
}

/** Posts JSON to a business's generic endpoint, signed with `secret`. */
export function postGeneric(
  api: Client,
  businessId: number,
  endpoint: 'inbound' | 'status',
  json: unknown,
  options: { secret?: string; signature?: string | null } = {},
): Promise<Answer> {
  const body = JSON.stringify(json);
  const signature =
    options.signature === undefined
      ? genericSignature(options.secret ?? GENERIC_SECRET, Buffer.from(body))
      : options.signature;
  return api.call('POST', `/api/v1/sms/${endpoint}/${businessId}/generic`, {
    body,
    headers: signature === null ? {} : { 'x-signature': signature },
  });
}

/** A subscriber added by the business's staff (pending, sent a confirmation). */
export async function addSubscriber(
  api: Client,
  admin: string,
  phone: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; phone: string; status: string; language: string; time_zone: string }> {
  const made = await api.post(
    '/api/v1/sms/subscribers',
    { phone, source: 'api', ...extra },
    { token: admin },
  );
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.subscriber;
}

export async function subscriberOf(api: Client, admin: string, id: number) {
  const found = await api.get(`/api/v1/sms/subscribers/${id}`, { token: admin });
  assert.equal(found.status, 200, JSON.stringify(found.body));
  return found.body.subscriber as {
    id: number;
    status: string;
    evidence: Array<Record<string, string | null>>;
  } & Record<string, unknown>;
}

/** The messages queued to a number, oldest first. */
export async function messagesTo(
  server: TestServer,
  phone: string,
): Promise<Array<{ id: number; kind: string; body: string; state: string }>> {
  const result = await sql<{ id: number; kind: string; body: string; state: string }>`
    SELECT id, kind, body, state FROM sms_messages WHERE to_phone = ${phone} ORDER BY id`.execute(server.db);
  return result.rows;
}

/** Everything the inbound endpoints may change, to compare before and after a refused call. */
export async function inboundState(server: TestServer, businessId: number) {
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(server.db)).rows;
  return {
    subscribers: await rows(
      sql`SELECT id, status, confirmed_at, unsubscribed_at FROM sms_subscribers WHERE business_id = ${businessId} ORDER BY id`,
    ),
    inbound: await rows(sql`SELECT id FROM sms_inbound WHERE business_id = ${businessId} ORDER BY id`),
    messages: await rows(
      sql`SELECT id, state FROM sms_messages WHERE business_id = ${businessId} ORDER BY id`,
    ),
    evidence: await rows(
      sql`SELECT id FROM sms_consent_evidence WHERE business_id = ${businessId} ORDER BY id`,
    ),
  };
}
