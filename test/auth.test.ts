import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('login, tokens and the signed-in account', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'acme');
  });
  after(() => server.close());

  for (const kind of ACCOUNT_KINDS) {
    it(`signs in a ${kind} and answers who it is`, async () => {
      const answer = await api.post('/api/v1/user/login', { email: tenant.emails[kind], password: PASSWORD });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.result, true);
      assert.equal(answer.body.token_type, 'Bearer');
      assert.match(answer.body.access_token, /^tms_[\w-]{43}$/);
      assert.match(answer.body.expires_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      const me = await api.get('/api/v1/user/me', { token: answer.body.access_token });
      assert.equal(me.status, 200);
      assert.equal(me.body.user.email, tenant.emails[kind]);
      assert.equal(me.body.user.kind, kind);
      assert.deepEqual(me.body.token.scopes, ['*']);
      const belongsToBusiness = kind !== 'platform_admin' && kind !== 'contractor';
      assert.equal(me.body.business?.code ?? null, belongsToBusiness ? 'acme' : null);
      if (kind === 'contractor') {
        assert.deepEqual(
          me.body.contractor_company.businesses.map((b: { code: string }) => b.code),
          ['acme'],
        );
      }
    });
  }

  it('writes expires_at in the business time zone, seven days ahead by default', async () => {
    const answer = await api.post('/api/v1/user/login', {
      email: tenant.emails.employee,
      password: PASSWORD,
    });
    // The test clock reads 2026-11-02 09:30 UTC; Shanghai is eight hours ahead.
    assert.equal(answer.body.expires_at, '2026-11-09 17:30:00');
    assert.equal(answer.body.expires_timestamp, Date.parse('2026-11-09T09:30:00Z') / 1000);
  });

  it('shows that the contractor assignment module starts off', async () => {
    const token = await login(api, tenant.emails.client_admin);
    const me = await api.get('/api/v1/user/me', { token });
    assert.deepEqual(me.body.business.modules, { contractor_assignment: false });
  });

  it('accepts the email in any letter case', async () => {
    const answer = await api.post('/api/v1/user/login', { email: 'Employee@ACME.test', password: PASSWORD });
    assert.equal(answer.status, 200);
  });

  it('refuses a wrong password with 401 in the error shape, in the caller language', async () => {
    const cases = [
      { lang: undefined, message: 'The email or password is incorrect.' },
      { lang: 'zh-CN,zh;q=0.9', message: '邮箱或密码不正确。' },
      { lang: 'zh-Hans', message: '邮箱或密码不正确。' },
      { lang: 'zh-TW', message: '電子郵件或密碼不正確。' },
      { lang: 'fr-FR,fr;q=0.8,en;q=0.5', message: "L'adresse e-mail ou le mot de passe est incorrect." },
      { lang: 'de', message: 'E-Mail-Adresse oder Passwort ist falsch.' },
      { lang: 'es-MX', message: 'El correo electrónico o la contraseña son incorrectos.' },
      { lang: 'ja', message: 'The email or password is incorrect.' },
    ];
    for (const { lang, message } of cases) {
      const answer = await api.post(
        '/api/v1/user/login',
        { email: tenant.emails.client_admin, password: 'wrong password' },
        { headers: lang ? { 'accept-language': lang } : {} },
      );
      assert.equal(answer.status, 401, String(lang));
      assert.deepEqual(answer.body, { result: false, error_code: 'INVALID_CREDENTIALS', message });
    }
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const answer = await api.post('/api/v1/user/login', { email: 'nobody@acme.test', password: PASSWORD });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error_code, 'INVALID_CREDENTIALS');
  });

  it('names the invalid fields of a malformed login, in the caller language', async () => {
    const answer = await api.post(
      '/api/v1/user/login',
      { email: 'not-an-email' },
      { headers: { 'accept-language': 'fr' } },
    );
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
    assert.deepEqual(
      answer.body.details.fields.map((f: { field: string }) => f.field),
      ['email', 'password'],
    );
    assert.match(answer.body.message, /^Certains champs sont invalides : email, password\.$/);
    assert.match(answer.body.details.fields[1].message, /attendu/);
  });

  it('refuses a disabled account after a correct password', async () => {
    await server.db
      .updateTable('users')
      .set({ disabled: true })
      .where('id', '=', tenant.userIds.driver)
      .execute();
    const answer = await api.post('/api/v1/user/login', { email: tenant.emails.driver, password: PASSWORD });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error_code, 'ACCOUNT_DISABLED');
    await server.db
      .updateTable('users')
      .set({ disabled: false })
      .where('id', '=', tenant.userIds.driver)
      .execute();
  });

  it('refuses requests without a token, with a bad token, and with a token of a disabled account', async () => {
    assert.equal((await api.get('/api/v1/user/me')).body.error_code, 'UNAUTHENTICATED');
    const garbage = await api.get('/api/v1/user/me', { token: 'tms_not-a-real-token' });
    assert.equal(garbage.status, 401);
    assert.equal(garbage.body.error_code, 'UNAUTHENTICATED');
    const basic = await api.get('/api/v1/user/me', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    assert.equal(basic.status, 401);

    const token = await login(api, tenant.emails.customer);
    await server.db
      .updateTable('users')
      .set({ disabled: true })
      .where('id', '=', tenant.userIds.customer)
      .execute();
    assert.equal((await api.get('/api/v1/user/me', { token })).status, 401);
    await server.db
      .updateTable('users')
      .set({ disabled: false })
      .where('id', '=', tenant.userIds.customer)
      .execute();
    assert.equal((await api.get('/api/v1/user/me', { token })).status, 200);
  });

  it('stores tokens hashed, never in the clear', async () => {
    const token = await login(api, tenant.emails.employee);
    const rows = await server.db.selectFrom('access_tokens').select(['token_hash']).execute();
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.equal(row.token_hash.length, 32);
      assert.ok(!row.token_hash.toString('utf8').includes(token.slice(4, 20)));
    }
    const users = await server.db.selectFrom('users').select('password_hash').execute();
    for (const user of users) assert.match(user.password_hash ?? '', /^scrypt\$32768\$8\$1\$/);
  });

  it('expires tokens when their lifetime is over', async () => {
    const token = await login(api, tenant.emails.employee);
    assert.equal((await api.get('/api/v1/user/me', { token })).status, 200);
    server.clock.advance(7 * 24 * 3_600_000 - 1_000);
    assert.equal((await api.get('/api/v1/user/me', { token })).status, 200);
    server.clock.advance(2_000);
    const expired = await api.get('/api/v1/user/me', { token });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error_code, 'UNAUTHENTICATED');
    server.clock.set(new Date('2026-11-02T09:30:00Z'));
  });

  it('revokes the token on logout and only that token', async () => {
    const first = await login(api, tenant.emails.employee);
    const second = await login(api, tenant.emails.employee);
    const out = await api.post('/api/v1/user/logout', {}, { token: first });
    assert.deepEqual(out.body, { result: true });
    assert.equal((await api.get('/api/v1/user/me', { token: first })).status, 401);
    assert.equal((await api.post('/api/v1/user/logout', {}, { token: first })).status, 401);
    assert.equal((await api.get('/api/v1/user/me', { token: second })).status, 200);
  });

  it('ignores a stale token on a public operation', async () => {
    const token = await login(api, tenant.emails.employee);
    await api.post('/api/v1/user/logout', {}, { token });
    const again = await api.post(
      '/api/v1/user/login',
      { email: tenant.emails.employee, password: PASSWORD },
      { token },
    );
    assert.equal(again.status, 200);
  });

  it('issues agent tokens with the ops-readonly profile unless told otherwise', async () => {
    const { accounts } = server.app.services;
    const agent = await accounts.issueToken(server.db, { userId: tenant.userIds.employee, kind: 'agent' });
    const me = await api.get('/api/v1/user/me', { token: agent.token });
    assert.equal(me.body.token.kind, 'agent');
    assert.equal(me.body.token.profile, 'ops-readonly');
    assert.ok(me.body.token.scopes.includes('orders:read'));
    assert.ok(!me.body.token.scopes.includes('orders:write'));

    const scoped = await accounts.issueToken(server.db, {
      userId: tenant.userIds.employee,
      kind: 'personal',
      scopes: ['wms:read'],
    });
    const scopedMe = await api.get('/api/v1/user/me', { token: scoped.token });
    assert.deepEqual(scopedMe.body.token.scopes, ['wms:read']);
    assert.equal(scopedMe.body.token.profile, null);
  });
});

describe('login rate limits', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer({
      login: {
        attemptsPerAddressPerMinute: 6,
        failuresPerEmailPer15Minutes: 3,
        signUpsPerAddressPerHour: 10,
      },
    });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'limits');
  });
  after(() => server.close());

  it('locks an email after repeated failures, even with the right password, with Retry-After', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const wrong = await api.post('/api/v1/user/login', {
        email: tenant.emails.employee,
        password: 'bad password',
      });
      assert.equal(wrong.status, 401);
    }
    const locked = await api.post(
      '/api/v1/user/login',
      { email: tenant.emails.employee, password: PASSWORD },
      { headers: { 'accept-language': 'de' } },
    );
    assert.equal(locked.status, 429);
    assert.equal(locked.body.error_code, 'RATE_LIMITED');
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    assert.equal(locked.body.details.retry_after_seconds, retryAfter);
    assert.equal(
      locked.body.message,
      `Zu viele Versuche. Versuchen Sie es in ${retryAfter} Sekunden erneut.`,
    );
  });

  it('limits attempts per address across emails', async () => {
    // Four attempts were spent above; the address allows six a minute, whatever the email.
    for (const kind of ['driver', 'customer'] as const) {
      const allowed = await api.post('/api/v1/user/login', {
        email: tenant.emails[kind],
        password: PASSWORD,
      });
      assert.equal(allowed.status, 200);
    }
    const refused = await api.post('/api/v1/user/login', {
      email: tenant.emails.client_admin,
      password: PASSWORD,
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error_code, 'RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });
});
