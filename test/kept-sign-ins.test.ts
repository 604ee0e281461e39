import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/** Polls `read` until `done` holds of what it answers; fails after a generous while. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Each instance keeps the callers of the tokens it has seen, so a request does not read its token
 * again; a sign-out on any instance ends the token on all of them (PostgreSQL LISTEN/NOTIFY), and
 * a kept token still ends at its expiry.
 */
describe('signed-in tokens kept in memory across instances', () => {
  let server: TestServer;
  let a: TestInstance;
  let b: TestInstance;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer();
    a = await startInstance(server);
    b = await startInstance(server);
    tenant = await createTenant(server.db, server.app.services, 'keptsignins');
  });
  after(async () => {
    await a.close();
    await b.close();
    await server.close();
  });

  const me = (instance: TestInstance, token: string) =>
    client(instance.baseUrl).get('/api/v1/user/me', { token });

  it('answers a kept token without reading it, and ends it everywhere at sign-out', async () => {
    const token = await login(client(a.baseUrl), tenant.emails.client_admin);
    assert.equal((await me(a, token)).status, 200);
    assert.equal((await me(b, token)).status, 200);
    // Ended behind the service's back (no notification): the instances answer from memory.
    const { id } = await sql<{ id: number }>`
      UPDATE access_tokens SET revoked_at = now()
      WHERE id = (SELECT max(id) FROM access_tokens WHERE user_id = ${tenant.userIds.client_admin})
      RETURNING id`
      .execute(server.db)
      .then((result) => result.rows[0]!);
    assert.equal((await me(b, token)).status, 200);
    await sql`UPDATE access_tokens SET revoked_at = NULL WHERE id = ${id}`.execute(server.db);
    // Signed out on A: B, which kept the token, refuses it as soon as the commit is heard.
    assert.equal((await client(a.baseUrl).post('/api/v1/user/logout', {}, { token })).status, 200);
    assert.equal((await me(a, token)).status, 401);
    await eventually(
      () => me(b, token),
      (answer) => answer.status === 401,
      'B refuses the signed-out token',
    );
  });

  it('ends a kept token at its expiry', async () => {
    const token = await login(client(a.baseUrl), tenant.emails.employee);
    assert.equal((await me(a, token)).status, 200);
    const start = server.clock.now();
    server.clock.set(new Date(start.getTime() + (server.config.tokenTtlHours + 1) * 3_600_000));
    try {
      const late = await me(a, token);
      assert.equal(late.status, 401, JSON.stringify(late.body));
    } finally {
      server.clock.set(start);
    }
  });
});
