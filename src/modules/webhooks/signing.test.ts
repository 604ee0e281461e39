import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  generateSecret,
  HEADERS,
  signV1,
  signV2,
  v2Key,
  verifySignatures,
  webhookHeaders,
} from './signing.ts';

const BODY = '{"id":"evt_1","type":"order.created","data":{"reference":"Größe – 貨物"}}';
const ID = 'msg_2Lq7example';

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

describe('secrets', () => {
  it('generates whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(secret.length, 50);
    assert.equal(v2Key(secret).length, 32);
    assert.notEqual(generateSecret(), secret);
  });

  it('keys v2 with the decoded bytes of a whsec_ secret, and with the UTF-8 bytes of any other', () => {
    const bytes = Buffer.from('0123456789abcdef0123456789abcdef');
    assert.deepEqual(v2Key(`whsec_${bytes.toString('base64')}`), bytes);
    // Looks like base64 but has no prefix: a client's own secret, used as text.
    assert.deepEqual(v2Key('abcdefghijklmnop'), Buffer.from('abcdefghijklmnop'));
    // A prefix followed by something that is not canonical base64: the whole string as text.
    assert.deepEqual(v2Key('whsec_not base64 at all!'), Buffer.from('whsec_not base64 at all!'));
  });
});

describe('signV1', () => {
  it('is sha256= and the hex HMAC of the raw body keyed with the secret string', () => {
    const secret = generateSecret();
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.from(BODY))
      .digest('hex');
    assert.equal(signV1(secret, BODY), `sha256=${expected}`);
    assert.equal(signV1(secret, Buffer.from(BODY)), `sha256=${expected}`);
  });
});

describe('signV2 against the standardwebhooks reference library', () => {
  it('verifies a generated secret as given', () => {
    const secret = generateSecret();
    const timestamp = nowSeconds();
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signV2(secret, ID, timestamp, BODY),
    };
    assert.deepEqual(new Webhook(secret).verify(BODY, headers), JSON.parse(BODY));
    assert.equal(
      new Webhook(secret).sign(ID, new Date(timestamp * 1000), BODY),
      headers['webhook-signature'],
    );
  });

  it('verifies a client-given text secret once the receiver base64-encodes it (or passes it raw)', () => {
    const secret = 'my-own-secret-of-24-char';
    const timestamp = nowSeconds();
    const headers = webhookHeaders(secret, { id: ID, timestamp, body: BODY });
    const encoded = Buffer.from(secret, 'utf8').toString('base64');
    assert.deepEqual(new Webhook(encoded).verify(BODY, headers), JSON.parse(BODY));
    assert.deepEqual(new Webhook(`whsec_${encoded}`).verify(BODY, headers), JSON.parse(BODY));
    assert.deepEqual(new Webhook(secret, { format: 'raw' }).verify(BODY, headers), JSON.parse(BODY));
  });

  it('signs a Buffer body like the same text', () => {
    const secret = generateSecret();
    assert.equal(
      signV2(secret, ID, 1_700_000_000, Buffer.from(BODY)),
      signV2(secret, ID, 1_700_000_000, BODY),
    );
  });
});

describe('webhookHeaders', () => {
  it('gives exactly the four documented headers', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = webhookHeaders(secret, { id: ID, timestamp: 1_700_000_000, body: BODY });
    assert.deepEqual(Object.keys(headers).sort(), [
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
      'x-webhook-signature',
    ]);
    assert.equal(headers[HEADERS.id], ID);
    assert.equal(headers[HEADERS.timestamp], '1700000000');
    assert.match(headers[HEADERS.v1Signature], /^sha256=[0-9a-f]{64}$/);
    assert.match(headers[HEADERS.v2Signature], /^v1,[A-Za-z0-9+/]{43}=$/);
    // Independently computed: HMAC-SHA256 over "id.timestamp.body" keyed with the decoded secret.
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const v2 = createHmac('sha256', key).update(`${ID}.1700000000.${BODY}`).digest('base64');
    assert.equal(headers[HEADERS.v2Signature], `v1,${v2}`);
  });

  it('gives the worked example of docs/webhooks-signing.md', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwRmPh8t3zg6o=';
    assert.deepEqual(
      webhookHeaders(secret, {
        id: 'msg_2Lq7x9',
        timestamp: 1_700_000_000,
        body: '{"type":"order.created"}',
      }),
      {
        'x-webhook-signature': 'sha256=144c659da4710b73a234152b69ad8eb8ee748c06875731b1cb321b178c2137de',
        'webhook-id': 'msg_2Lq7x9',
        'webhook-timestamp': '1700000000',
        'webhook-signature': 'v1,fpI9ObtyzV5cpqxDyYVcJSHF8kdTI1k7XYyYmkhAAZY=',
      },
    );
  });
});

describe('verifySignatures', () => {
  const secret = generateSecret();
  const now = new Date('2026-03-01T12:00:00Z');
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = webhookHeaders(secret, { id: ID, timestamp, body: BODY });

  it('accepts both signatures of an untouched delivery, whatever the header case', () => {
    const shouted = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    const expected = { v1: { present: true, valid: true }, v2: { present: true, valid: true } };
    assert.deepEqual(verifySignatures({ secret, rawBody: BODY, headers, now }), expected);
    assert.deepEqual(
      verifySignatures({ secret, rawBody: Buffer.from(BODY), headers: shouted, now }),
      expected,
    );
  });

  it('rejects a modified body', () => {
    const result = verifySignatures({ secret, rawBody: BODY.replace('evt_1', 'evt_2'), headers, now });
    assert.deepEqual(result, {
      v1: { present: true, valid: false },
      v2: { present: true, valid: false, reason: 'no_matching_signature' },
    });
  });

  it('rejects a wrong secret', () => {
    const result = verifySignatures({ secret: generateSecret(), rawBody: BODY, headers, now });
    assert.equal(result.v1.valid, false);
    assert.deepEqual(result.v2, { present: true, valid: false, reason: 'no_matching_signature' });
  });

  it('rejects a stale or future timestamp, and accepts one at the edge of the tolerance', () => {
    const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);
    const check = (offsetSeconds: number, toleranceSeconds?: number) =>
      verifySignatures({ secret, rawBody: BODY, headers, now: at(offsetSeconds), toleranceSeconds }).v2;
    assert.deepEqual(check(301), { present: true, valid: false, reason: 'timestamp_too_old' });
    assert.deepEqual(check(-301), { present: true, valid: false, reason: 'timestamp_too_new' });
    assert.deepEqual(check(300), { present: true, valid: true });
    assert.deepEqual(check(-300), { present: true, valid: true });
    assert.deepEqual(check(61, 60), { present: true, valid: false, reason: 'timestamp_too_old' });
    // v1 carries no timestamp: only the body counts.
    assert.equal(verifySignatures({ secret, rawBody: BODY, headers, now: at(3600) }).v1.valid, true);
  });

  it('accepts any one of several space-separated signatures', () => {
    const other = signV2(generateSecret(), ID, timestamp, BODY);
    const several = {
      ...headers,
      'webhook-signature': `v1a,ignored ${other} ${headers['webhook-signature']}`,
    };
    assert.deepEqual(verifySignatures({ secret, rawBody: BODY, headers: several, now }).v2, {
      present: true,
      valid: true,
    });
    const none = { ...headers, 'webhook-signature': `${other} v1,AAAA` };
    assert.equal(verifySignatures({ secret, rawBody: BODY, headers: none, now }).v2.valid, false);
  });

  it('says which headers are missing or malformed', () => {
    assert.deepEqual(verifySignatures({ secret, rawBody: BODY, headers: {}, now }), {
      v1: { present: false, valid: false },
      v2: { present: false, valid: false, reason: 'missing_headers' },
    });
    const { 'webhook-id': _id, ...withoutId } = headers;
    assert.deepEqual(verifySignatures({ secret, rawBody: BODY, headers: withoutId, now }).v2, {
      present: true,
      valid: false,
      reason: 'missing_headers',
    });
    const badTimestamp = { ...headers, 'webhook-timestamp': '2026-03-01T12:00:00Z' };
    assert.equal(
      verifySignatures({ secret, rawBody: BODY, headers: badTimestamp, now }).v2.reason,
      'invalid_timestamp',
    );
  });

  it('verifies what the reference library signs', () => {
    const signed = new Webhook(secret).sign(ID, now, BODY);
    const theirs = { 'webhook-id': ID, 'webhook-timestamp': String(timestamp), 'webhook-signature': signed };
    assert.deepEqual(verifySignatures({ secret, rawBody: BODY, headers: theirs, now }).v2, {
      present: true,
      valid: true,
    });
  });
});
