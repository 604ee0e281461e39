import assert from 'node:assert/strict';
import { maxHeaderSize } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('the HTTP shell', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer({ bodyLimitBytes: 4096, metricsToken: 'metrics-secret-token-0123' });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'shell');
  });
  after(() => server.close());

  it('reports health with a database round trip', async () => {
    const answer = await api.get('/api/health');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'ok');
    assert.equal(answer.body.database.status, 'ok');
    assert.equal(typeof answer.body.database.latency_ms, 'number');
  });

  it('answers unknown routes in the error shape, localised', async () => {
    const answer = await api.get('/api/v1/nothing-here?x=1', { headers: { 'accept-language': 'es' } });
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, {
      result: false,
      error_code: 'ENDPOINT_NOT_FOUND',
      message: 'No existe el endpoint GET /api/v1/nothing-here.',
    });
    assert.equal(answer.headers.get('content-language'), 'es');
  });

  it("answers the router's refusals of a path in the error shape, localised", async () => {
    const long = await api.get(`/api/v1/otep/trackings/${'x'.repeat(101)}`, {
      headers: { 'accept-language': 'fr', 'x-request-id': 'long-path-1' },
    });
    assert.equal(long.status, 414);
    assert.deepEqual(long.body, {
      result: false,
      error_code: 'PARAMETER_TOO_LONG',
      message: "Une partie de l'adresse dépasse 100 caractères.",
      details: { limit_characters: 100 },
    });
    assert.equal(long.headers.get('content-language'), 'fr');
    assert.equal(long.headers.get('x-request-id'), 'long-path-1');
    const undecodable = await api.get('/api/v1/otep/trackings/%E0%A4%A');
    assert.equal(undecodable.status, 400);
    assert.equal(undecodable.body.error_code, 'INVALID_URL');
  });

  it('answers requests Node refuses before parsing them in the error shape: headers too large, malformed', async () => {
    const huge = await fetch(`${server.baseUrl}/api/health?q=${'a'.repeat(20_000)}`);
    assert.equal(huge.status, 431);
    assert.match(huge.headers.get('content-type') ?? '', /application\/json/);
    const body = (await huge.json()) as Record<string, unknown>;
    assert.equal(body.result, false);
    assert.equal(body.error_code, 'HEADERS_TOO_LARGE');
    assert.deepEqual(body.details, { limit_bytes: maxHeaderSize });
    assert.match(String(body.message), /16384 bytes/);
    const bigHeader = await fetch(`${server.baseUrl}/api/health`, {
      headers: { 'x-padding': 'b'.repeat(20_000) },
    });
    assert.equal(bigHeader.status, 431);
    assert.equal(((await bigHeader.json()) as { error_code: string }).error_code, 'HEADERS_TOO_LARGE');

    // A request line no HTTP parser takes, sent as raw bytes.
    const { port } = new URL(server.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT AN HTTP REQUEST\r\n\r\n'));
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
    const [, rawBody] = raw.split('\r\n\r\n');
    assert.equal((JSON.parse(rawBody!) as { error_code: string }).error_code, 'BAD_REQUEST');
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const broken = await api.post('/api/v1/user/login', '{"email": ', {
      headers: { 'accept-language': 'zh-Hant' },
    });
    assert.equal(broken.status, 400);
    assert.deepEqual(broken.body, {
      result: false,
      error_code: 'INVALID_JSON',
      message: '請求內文不是有效的 JSON。',
    });

    const list = await api.post('/api/v1/user/login', [1, 2]);
    assert.equal(list.status, 422);
    assert.equal(list.body.error_code, 'VALIDATION_FAILED');
    assert.equal(list.body.details.fields[0].field, '(body)');

    const text = await api.post('/api/v1/user/login', 'email=a', {
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.error_code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a body over the limit with 413', async () => {
    const answer = await api.post('/api/v1/user/login', { email: 'a@b.test', password: 'x'.repeat(5000) });
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error_code, 'PAYLOAD_TOO_LARGE');
    assert.equal(answer.body.details.limit_bytes, 4096);
    assert.match(answer.body.message, /4096 bytes/);
  });

  it('carries a request id: the caller one when well formed, a fresh one otherwise', async () => {
    const given = await api.get('/api/health', { headers: { 'x-request-id': 'trace-42.a' } });
    assert.equal(given.headers.get('x-request-id'), 'trace-42.a');
    const hostile = await api.get('/api/health', { headers: { 'x-request-id': 'bad id\twith\ttabs' } });
    assert.match(hostile.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const none = await api.get('/api/health');
    assert.match(none.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('audits writes with the request id, and a dry run leaves nothing behind', async () => {
    const real = await api.post(
      '/api/v1/user/login',
      { email: tenant.emails.employee, password: PASSWORD },
      { headers: { 'x-request-id': 'audit-me' } },
    );
    assert.equal(real.status, 200);
    const audit = await server.db
      .selectFrom('operation_audit')
      .selectAll()
      .where('request_id', '=', 'audit-me')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.operation, 'login');
    assert.equal(audit[0]!.door, 'rest');

    const tokensBefore = await server.db.selectFrom('access_tokens').select('id').execute();
    const dry = await api.post(
      '/api/v1/user/login',
      { email: tenant.emails.employee, password: PASSWORD },
      { headers: { 'x-dry-run': '1', 'x-request-id': 'dry-run' } },
    );
    assert.equal(dry.status, 200);
    assert.match(dry.body.access_token, /^tms_/);
    assert.equal((await api.get('/api/v1/user/me', { token: dry.body.access_token })).status, 401);
    assert.equal(
      (await server.db.selectFrom('access_tokens').select('id').execute()).length,
      tokensBefore.length,
    );
    const dryAudit = await server.db
      .selectFrom('operation_audit')
      .select('id')
      .where('request_id', '=', 'dry-run')
      .execute();
    assert.equal(dryAudit.length, 0);
  });

  it('exposes Prometheus metrics behind the metrics token', async () => {
    const token = await login(api, tenant.emails.employee);
    await api.get('/api/v1/user/me', { token });
    await api.post('/api/v1/user/login', { email: tenant.emails.employee, password: 'not the password' });
    assert.equal((await api.get('/metrics')).status, 401);
    const answer = await api.get('/metrics', {
      headers: { authorization: 'Bearer metrics-secret-token-0123' },
    });
    assert.equal(answer.status, 200);
    assert.match(
      answer.body,
      /tms_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/user\/me",status="200"\} [1-9]/,
    );
    assert.match(answer.body, /tms_operations_total\{operation="login",outcome="ok"\} [1-9]/);
    assert.match(answer.body, /tms_operations_total\{operation="login",outcome="rejected"\} [1-9]/);
    assert.match(answer.body, /tms_process_resident_memory_bytes/);
  });
});

describe('without a database', () => {
  it('answers 503 in the error shape from health and from operations', async () => {
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' }) };
    // Nothing listens on port 1: every query fails to connect.
    const handle = openDatabase('postgres://tms:tms@127.0.0.1:1/tms');
    const app = await createApp(config, handle.db);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    try {
      const api = client(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`);
      const health = await api.get('/api/health', { headers: { 'accept-language': 'fr' } });
      assert.equal(health.status, 503);
      assert.equal(health.body.error_code, 'SERVICE_UNAVAILABLE');
      assert.equal(
        health.body.message,
        'Le service est momentanément indisponible. Réessayez dans un instant.',
      );
      const loginAnswer = await api.post('/api/v1/user/login', { email: 'a@b.test', password: 'whatever' });
      assert.equal(loginAnswer.status, 503);
      assert.equal(loginAnswer.body.error_code, 'SERVICE_UNAVAILABLE');
    } finally {
      await app.http.close();
      await handle.close();
    }
  });
});
