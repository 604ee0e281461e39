/**
 * Webhook signatures. Every delivery carries two, made from one signing secret:
 * - v1: `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, for receivers with a few lines of code;
 * - v2: the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`,
 *   an HMAC-SHA256 over `id.timestamp.body`, for receivers using that specification's libraries.
 *
 * Secret → key (docs/webhooks-signing.md says the same for receivers):
 * - v1 key: the secret string's UTF-8 bytes, exactly as shown to the client (prefix included), so a
 *   receiver passes the string straight to its HMAC function.
 * - v2 key: for a `whsec_<base64>` secret (what we generate), the base64-decoded bytes, as the Standard
 *   Webhooks libraries do; for any other secret (a client's own), its UTF-8 bytes. The rule is the prefix,
 *   not a guess at whether the rest looks like base64: any 16 letters are valid base64 too.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;

/** Header names, lower case as they are sent (HTTP header names are case-insensitive). */
export const HEADERS = {
  v1Signature: 'x-webhook-signature',
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  v2Signature: 'webhook-signature',
} as const;

/** A new secret: `whsec_` and the base64 of 32 random bytes (50 characters). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The v2 (Standard Webhooks) HMAC key of a secret; see the rule at the top of this file. */
export function v2Key(secret: string): Buffer {
  if (secret.startsWith(SECRET_PREFIX)) {
    const encoded = secret.slice(SECRET_PREFIX.length);
    const decoded = Buffer.from(encoded, 'base64');
    // Node's decoder skips bad characters silently; only a canonical encoding counts as base64.
    if (decoded.length > 0 && decoded.toString('base64') === encoded) return decoded;
  }
  return Buffer.from(secret, 'utf8');
}

/** `sha256=<hex>`: the HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export function signV1(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** `v1,<base64>`: the Standard Webhooks signature of `id.timestamp.body` (timestamp in unix seconds). */
export function signV2(secret: string, id: string, timestamp: number, rawBody: string | Buffer): string {
  const hmac = createHmac('sha256', v2Key(secret)).update(`${id}.${timestamp}.`).update(rawBody);
  return `v1,${hmac.digest('base64')}`;
}

/** The four signature headers of one delivery. */
export function webhookHeaders(
  secret: string,
  message: { id: string; timestamp: number; body: string | Buffer },
): Record<(typeof HEADERS)[keyof typeof HEADERS], string> {
  return {
    [HEADERS.v1Signature]: signV1(secret, message.body),
    [HEADERS.id]: message.id,
    [HEADERS.timestamp]: String(message.timestamp),
    [HEADERS.v2Signature]: signV2(secret, message.id, message.timestamp, message.body),
  };
}

export type V2Failure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature';

export interface VerificationResult {
  v1: { present: boolean; valid: boolean };
  v2: { present: boolean; valid: boolean; reason?: V2Failure };
}

type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * Checks both signatures of a received webhook. `present` says whether the signature header was there;
 * a v2 signature is valid only with a timestamp within `toleranceSeconds` of `now`, either side.
 */
export function verifySignatures(input: {
  secret: string;
  rawBody: string | Buffer;
  headers: HeaderBag;
  now?: Date;
  toleranceSeconds?: number;
}): VerificationResult {
  const { secret, rawBody, now = new Date(), toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = input;
  const header = headerReader(input.headers);

  const v1Given = header(HEADERS.v1Signature);
  const v1 = {
    present: v1Given !== undefined,
    valid: v1Given !== undefined && sameText(v1Given, signV1(secret, rawBody)),
  };

  const id = header(HEADERS.id);
  const timestamp = header(HEADERS.timestamp);
  const v2Given = header(HEADERS.v2Signature);
  const v2Failure = ((): V2Failure | undefined => {
    if (id === undefined || timestamp === undefined || v2Given === undefined) return 'missing_headers';
    if (!/^\d{1,12}$/.test(timestamp)) return 'invalid_timestamp';
    const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
    if (age > toleranceSeconds) return 'timestamp_too_old';
    if (age < -toleranceSeconds) return 'timestamp_too_new';
    const expected = signV2(secret, id, Number(timestamp), rawBody);
    // Several space-separated signatures may be sent (e.g. during a key rotation): one match is enough.
    const matches = v2Given.split(' ').some((candidate) => sameText(candidate, expected));
    return matches ? undefined : 'no_matching_signature';
  })();
  const v2 = {
    present: v2Given !== undefined,
    valid: v2Failure === undefined,
    ...(v2Failure ? { reason: v2Failure } : {}),
  };
  return { v1, v2 };
}

/** Case-insensitive header lookup; a repeated header counts by its first value. */
function headerReader(headers: HeaderBag): (name: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), first.trim());
  }
  return (name) => byName.get(name);
}

/** Constant-time comparison; the lengths are public (both are fixed-size encodings), the contents are not. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
