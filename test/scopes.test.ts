import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { PROFILES, SCOPES } from '../src/modules/accounts/profiles.ts';
import { type Access, type AccountKind, defineOperation } from '../src/platform/catalog/operation.ts';
import { Catalog } from '../src/platform/catalog/registry.ts';
import { createTenant, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

type AccountAccess = Extract<Access, { kinds: unknown }>;
const accountAccess = (access: Access): AccountAccess | undefined => ('kinds' in access ? access : undefined);

/** Scopes decide what a token may do, on every operation that writes. */
/** The writes that only queue a proposal for a person to approve. */
const PROPOSING = new Set(['propose_write', 'propose_dispatch_suggestion']);

describe('scopes', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'scopes');
  });
  after(() => server.close());

  it('are named by every mutation that is not public, and are all known and documented', async () => {
    const documented = await readFile(new URL('../docs/scopes.md', import.meta.url), 'utf8');
    for (const scope of SCOPES)
      assert.ok(documented.includes(`| \`${scope}\` |`), `${scope} is in docs/scopes.md`);
    for (const operation of server.app.catalog.list()) {
      const access = accountAccess(operation.access);
      if (!access) continue;
      for (const scope of access.scopes ?? []) {
        assert.ok(
          (SCOPES as readonly string[]).includes(scope),
          `${operation.name}: ${scope} is a known scope`,
        );
      }
      // Logout acts on its own token; run_graphql_query runs operations that check their own scopes.
      if (operation.kind === 'mutation' && !access.ownSession && !access.delegates) {
        assert.ok((access.scopes ?? []).length > 0, `${operation.name} names a scope`);
      }
    }
  });

  it('cannot be forgotten: the catalog refuses a mutation without one', () => {
    const mutation = (access: Access) =>
      defineOperation({
        name: 'forget_scopes',
        summary: 'A write that forgot its scopes',
        tag: 'Test',
        kind: 'mutation',
        risk: 'low',
        access,
        input: z.object({}),
        output: z.object({}),
        handler: async () => ({}),
      });
    assert.throws(
      () => new Catalog().register([mutation({ kinds: ['client_admin'] })]),
      /forget_scopes names no scope/,
    );
    assert.throws(() => new Catalog().register([mutation({ kinds: 'any', scopes: [] })]), /names no scope/);
    new Catalog().register([mutation({ kinds: ['client_admin'], scopes: ['orders:write'] })]);
    new Catalog().register([mutation({ kinds: 'any', ownSession: true })]);
  });

  it('keep a read-only agent token away from every write, on every REST operation', async () => {
    const readOnly = new Set<string>(PROFILES['ops-readonly'] as readonly string[]);
    const tokens = new Map<AccountKind, string>();
    const tokenOf = async (kind: AccountKind) => {
      if (!tokens.has(kind)) {
        const issued = await server.app.services.accounts.issueToken(server.db, {
          userId: tenant.userIds[kind],
          kind: 'agent',
        });
        tokens.set(kind, issued.token);
      }
      return tokens.get(kind)!;
    };
    let writes = 0;
    for (const operation of server.app.catalog.list()) {
      const access = accountAccess(operation.access);
      if (!access || !operation.rest || access.ownSession) continue;
      const kind = access.kinds === 'any' ? 'client_admin' : access.kinds[0]!;
      const path = `/api${operation.rest.path.replace(/:[a-z_]+/g, '1')}`;
      const token = await tokenOf(kind);
      const body = operation.rest.method === 'GET' ? undefined : {};
      const answer = await api.call(operation.rest.method, path, { token, body });
      // A read-only token reads what its scopes name, and writes nothing at all but a proposal: the
      // interface gives propose_write to approvals:read, so a read-only agent can ask a person (a
      // dispatch suggestion's write too, which propose_dispatch_suggestion queues the same way).
      // An operation that only delegates (run_graphql_query) leaves the check to each operation it runs.
      if (access.delegates) continue;
      const allowed =
        (operation.kind === 'query' || PROPOSING.has(operation.name)) &&
        (access.scopes ?? []).every((scope) => readOnly.has(scope));
      if (allowed) {
        assert.notEqual(answer.body.error_code, 'INSUFFICIENT_SCOPE', operation.name);
        continue;
      }
      if (operation.kind === 'mutation') writes++;
      assert.equal(answer.status, 403, `${operation.name}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'INSUFFICIENT_SCOPE', operation.name);
    }
    assert.ok(writes >= 30, `every write was tried (${writes})`);
  });

  it('are checked when a token is issued', async () => {
    await assert.rejects(
      server.app.services.accounts.issueToken(server.db, {
        userId: tenant.userIds.client_admin,
        kind: 'agent',
        scopes: ['orders:read', 'everything:write'],
      }),
      /Unknown scopes everything:write/,
    );
  });
});
