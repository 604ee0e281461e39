import assert from 'node:assert/strict';
import dns, { type LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';
import { OutboundFailed, OutboundRefused, parseRetryAfter, safeDelivery } from './outbound.ts';

// Every request in this file goes to 127.0.0.1; the other addresses are refused before any connection.

interface Hit {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const hits: Hit[] = [];
const hitsOf = (path: string) => hits.filter((hit) => hit.path === path);
let server: Server;
let base: string;
let port: number;

before(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      hits.push({ path, method: request.method ?? '', headers: request.headers, body });
      response.on('error', () => {}); // the client may hang up on purpose
      switch (path) {
        case '/redirect':
          response.writeHead(302, { location: '/target' }).end();
          break;
        case '/big':
          response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
          break;
        case '/euro':
          response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('€'.repeat(100));
          break;
        case '/silent':
          break; // never answers
        case '/trickle': {
          response.writeHead(200);
          const ticker = setInterval(() => response.write('.'), 50);
          response.on('close', () => clearInterval(ticker));
          break;
        }
        case '/retry-seconds':
          response.writeHead(503, { 'retry-after': '120' }).end('busy');
          break;
        case '/retry-date':
          response.writeHead(429, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end();
          break;
        default:
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const LOOPBACK_ALLOWED = { allow: { loopback: true } };

/** Makes `dns.promises.lookup` answer from a table, counting calls; restored after the test. */
function fakeDns(t: TestContext, table: Record<string, string[]>) {
  const calls: string[] = [];
  t.mock.method(dns.promises, 'lookup', async (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
  return calls;
}

async function refusal(url: string, allow: { loopback?: boolean; privateNetworks?: boolean } = {}) {
  const error = await safeDelivery(url, { body: '{}', allow }).then(
    () => assert.fail(`${url} was not refused`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof OutboundRefused, `${url}: ${error}`);
  return error;
}

async function failure(url: string, options: Parameters<typeof safeDelivery>[1]) {
  const error = await safeDelivery(url, options).then(
    () => assert.fail(`${url} did not fail`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof OutboundFailed, `${url}: ${error}`);
  return error;
}

describe('safeDelivery: addresses', () => {
  it('refuses a loopback receiver unless loopback is allowed, naming the address class', async () => {
    const before = hits.length;
    const error = await refusal(`${base}/hook`);
    assert.equal(error.reason, 'address');
    assert.equal(error.addressClass, 'loopback');
    assert.equal(error.message, 'Refused: 127.0.0.1 is a loopback address');
    assert.equal(hits.length, before, 'nothing reached the server');
  });

  it('delivers to loopback when allowed: method, headers and body as given', async () => {
    const answer = await safeDelivery(`${base}/hook?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sha256=abc' },
      body: '{"a":"ü"}',
      ...LOOPBACK_ALLOWED,
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.bodyExcerpt, 'ok');
    assert.equal(answer.truncated, false);
    assert.equal(answer.headers['content-type'], 'text/plain');
    assert.equal(answer.retryAfterSeconds, undefined);
    assert.ok(answer.latencyMs > 0);
    const hit = hitsOf('/hook?x=1').at(-1)!;
    assert.equal(hit.method, 'POST');
    assert.equal(hit.body, '{"a":"ü"}');
    assert.equal(hit.headers['content-length'], String(Buffer.byteLength('{"a":"ü"}')));
    assert.equal(hit.headers['x-webhook-signature'], 'sha256=abc');
    assert.equal(hit.headers.host, `127.0.0.1:${port}`);
  });

  it('refuses private, link-local, metadata, special and IPv4-mapped addresses given as literals', async () => {
    const cases: Array<[string, string]> = [
      ['http://10.0.0.1/', 'private'],
      ['http://172.16.5.4/', 'private'],
      ['https://192.168.1.1/', 'private'],
      ['http://100.64.0.1/', 'carrierGradeNat'],
      ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
      ['http://0.0.0.0/', 'unspecified'],
      ['http://0x7f.1/', 'loopback'], // the URL parser reads it as 127.0.0.1
      ['http://127.1.2.3/', 'loopback'],
      ['http://224.0.0.1/', 'multicast'],
      ['http://255.255.255.255/', 'broadcast'],
      ['http://240.0.0.1/', 'reserved'],
      ['http://[::1]/', 'loopback'],
      ['http://[::]/', 'unspecified'],
      ['http://[fe80::1]/', 'linkLocal'],
      ['http://[fd00::1]/', 'uniqueLocal'],
      ['http://[ff02::1]/', 'multicast'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://[::ffff:10.0.0.1]/', 'private'],
      ['http://[::ffff:169.254.169.254]/', 'linkLocal'],
      ['http://[::127.0.0.1]/', 'reserved'], // IPv4-compatible, deprecated
      ['http://[64:ff9b::a00:1]/', 'rfc6052'], // NAT64 of 10.0.0.1
    ];
    for (const [url, addressClass] of cases) {
      const error = await refusal(url);
      assert.equal(error.addressClass, addressClass, url);
    }
    const mapped = await refusal('http://[::ffff:169.254.169.254]/');
    assert.match(mapped.message, /::ffff:a9fe:a9fe \(169\.254\.169\.254\) is a link-local/);
  });

  it('lets the operator switches open loopback and private networks, never link-local', async () => {
    const everything = { loopback: true, privateNetworks: true };
    assert.equal((await refusal('http://169.254.169.254/', everything)).addressClass, 'linkLocal');
    assert.equal((await refusal('http://[::ffff:169.254.169.254]/', everything)).addressClass, 'linkLocal');
    assert.equal((await refusal('http://0.0.0.0/', everything)).addressClass, 'unspecified');
    assert.equal((await refusal('http://10.0.0.1/', { loopback: true })).addressClass, 'private');
    assert.equal((await refusal(`${base}/`, { privateNetworks: true })).addressClass, 'loopback');
  });

  it('refuses a name that resolves to loopback (localhost)', async () => {
    const error = await refusal(`http://localhost:${port}/hook`);
    assert.equal(error.addressClass, 'loopback');
    assert.match(
      error.message,
      /^Refused: (127\.0\.0\.1|::1) \(resolved from localhost\) is a loopback address$/,
    );
  });

  it('refuses a name when any one of its addresses is forbidden', async (t) => {
    fakeDns(t, { 'mixed.test': ['8.8.8.8', '10.1.2.3'] });
    const error = await refusal('https://mixed.test/hook');
    assert.equal(error.address, '10.1.2.3');
    assert.equal(
      error.message,
      'Refused: 10.1.2.3 (resolved from mixed.test) is a private network (RFC 1918) address',
    );
  });

  it('resolves once and connects to the checked address, with the original name as Host', async (t) => {
    const calls = fakeDns(t, { 'hooks.test': ['127.0.0.1'] });
    const answer = await safeDelivery(`http://hooks.test:${port}/pinned`, { body: 'x', ...LOOPBACK_ALLOWED });
    assert.equal(answer.status, 200);
    assert.deepEqual(calls, ['hooks.test']);
    assert.equal(hitsOf('/pinned').at(-1)?.headers.host, `hooks.test:${port}`);
  });
});

describe('safeDelivery: URLs', () => {
  it('refuses other schemes, credentials and non-URLs', async () => {
    assert.equal((await refusal('ftp://example.com/')).reason, 'scheme');
    assert.equal((await refusal('file:///etc/passwd')).reason, 'scheme');
    assert.equal((await refusal('https://user:pass@example.com/')).reason, 'credentials');
    assert.equal((await refusal('https://token@example.com/')).reason, 'credentials');
    assert.equal((await refusal('not a url')).reason, 'invalid_url');
  });
});

describe('safeDelivery: answers', () => {
  it('returns a redirect as it is, without following it', async () => {
    const targetHits = hitsOf('/target').length;
    const answer = await safeDelivery(`${base}/redirect`, LOOPBACK_ALLOWED);
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.location, '/target');
    assert.equal(hitsOf('/target').length, targetHits);
  });

  it('reads the body up to the limit only', async () => {
    const answer = await safeDelivery(`${base}/big`, { maxResponseBytes: 1000, ...LOOPBACK_ALLOWED });
    assert.equal(answer.status, 200);
    assert.equal(answer.bodyExcerpt, 'x'.repeat(1000));
    assert.equal(answer.truncated, true);
  });

  it('cuts the excerpt on a whole UTF-8 character', async () => {
    const answer = await safeDelivery(`${base}/euro`, { maxResponseBytes: 10, ...LOOPBACK_ALLOWED });
    assert.equal(answer.bodyExcerpt, '€€€'); // 9 of the 10 bytes: the 4th € would need 12
    assert.equal(answer.truncated, true);
  });

  // Neither server ever finishes its answer: a timeout is the only way these calls end.
  it('times out on a server that never answers, saying the limit', async () => {
    const error = await failure(`${base}/silent`, { timeoutMs: 300, ...LOOPBACK_ALLOWED });
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /within 300 ms/);
  });

  it('times out on a body that never ends: the limit covers the whole answer', async () => {
    const error = await failure(`${base}/trickle`, {
      timeoutMs: 400,
      maxResponseBytes: 1_000_000,
      ...LOOPBACK_ALLOWED,
    });
    assert.equal(error.kind, 'timeout');
  });

  it('reads Retry-After in seconds or as a date', async () => {
    const seconds = await safeDelivery(`${base}/retry-seconds`, LOOPBACK_ALLOWED);
    assert.equal(seconds.status, 503);
    assert.equal(seconds.retryAfterSeconds, 120);
    const dated = await safeDelivery(`${base}/retry-date`, LOOPBACK_ALLOWED);
    assert.equal(dated.status, 429);
    assert.ok(
      dated.retryAfterSeconds! >= 88 && dated.retryAfterSeconds! <= 91,
      String(dated.retryAfterSeconds),
    );
  });
});

describe('safeDelivery: failures', () => {
  it('reports a name that does not resolve', async (t) => {
    fakeDns(t, {});
    const error = await failure('https://nowhere.test/hook', {});
    assert.equal(error.kind, 'dns');
    assert.equal(error.message, 'Could not resolve nowhere.test: ENOTFOUND');
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(`http://127.0.0.1:${closedPort}/`, LOOPBACK_ALLOWED);
    assert.equal(error.kind, 'connect');
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('checks TLS against the original name, sent as SNI, while connecting to the checked address', async (t) => {
    fakeDns(t, { 'hooks.test': ['127.0.0.1'] });
    const names: string[] = [];
    const tlsServer = createTlsServer({
      key: SELF_SIGNED_KEY,
      cert: SELF_SIGNED_CERT,
      SNICallback: (name, done) => {
        names.push(name);
        done(null);
      },
    });
    tlsServer.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    try {
      const tlsPort = (tlsServer.address() as AddressInfo).port;
      // The certificate names hooks.test but no trusted authority signed it: the handshake must fail.
      const error = await failure(`https://hooks.test:${tlsPort}/hook`, LOOPBACK_ALLOWED);
      assert.equal(error.kind, 'tls');
      assert.match(error.message, /^TLS with hooks\.test:\d+ failed: /);
      assert.deepEqual(names, ['hooks.test']);
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  it('reads delay-seconds and HTTP dates, and ignores anything else', () => {
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', now), 90);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

// A self-signed certificate for hooks.test (EC P-256, valid for 100 years), made with
// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 \
//   -subj /CN=hooks.test -addext subjectAltName=DNS:hooks.test
const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4asPCgwczJGgATbZ
Do1y9CUPRzGsgSmIz0+WVzpHgmqhRANCAAREgBcz91Ij5JPpGjNUeFr1XqxHMlpl
+EcU7+SNrCKdcbVEvK/TcjZ+3S8Z9rNbSYLyQZgeEf5vP5+2XmArCMEy
-----END PRIVATE KEY-----
`;
const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBmTCCAT6gAwIBAgIUXHrnpZJ0acVzyPKw4ywOhx+xqPowCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKaG9va3MudGVzdDAgFw0yNjExMjIwODUwMTRaGA8yMTI2MTAy
OTA4NTAxNFowFTETMBEGA1UEAwwKaG9va3MudGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABESAFzP3UiPkk+kaM1R4WvVerEcyWmX4RxTv5I2sIp1xtUS8r9Ny
Nn7dLxn2s1tJgvJBmB4R/m8/n7ZeYCsIwTKjajBoMB0GA1UdDgQWBBQL4N8i6bWN
TSYgIYBkQzDf34pyYDAfBgNVHSMEGDAWgBQL4N8i6bWNTSYgIYBkQzDf34pyYDAP
BgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCmhvb2tzLnRlc3QwCgYIKoZIzj0E
AwIDSQAwRgIhAM4vy/D1a0szbob2TpMu5Lo7VJoRgQnFwtrKfd5fZonNAiEA8eUZ
RjpucBL6m8dPCo6JfaqNyJywRFy07Cpw3oSSfUc=
-----END CERTIFICATE-----
`;
