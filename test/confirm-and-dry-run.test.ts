import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { createTenant, issuedToken, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// High-risk operations (Operation.confirm) must be confirmed by callers with no human in front of
// them: agent tokens state it with X-Confirm over REST and GraphQL alike, and a dry run needs none.
// GraphQL mutations preview with X-Dry-Run like REST ones.

const ADD_CREDIT = gql`
  mutation Credit($customer: Int!) {
    addAccountCredit(customer_id: $customer, amount: "5.00", currency: "EUR", reason: "goodwill") {
      balance
    }
  }
`;

describe('confirmation of high-risk calls, and GraphQL dry runs', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let tokens: { agent: string; person: string };
  let endpoint: string;
  const credit = (token: string, headers: Record<string, string> = {}) =>
    api.post(
      `/api/v1/client/customers/${tenant.userIds.customer}/credits`,
      { amount: '5.00', currency: 'EUR', reason: 'goodwill' },
      { token, headers },
    );
  const graphql = (token: string, headers: Record<string, string> = {}) =>
    new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const ledgerEntries = async () =>
    (
      await server.db
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('customer_user_id', '=', tenant.userIds.customer)
        .executeTakeFirstOrThrow()
    ).count;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    endpoint = `${server.baseUrl}/api/graphql`;
    tenant = await createTenant(server.db, server.app.services, 'confirm');
    const issue = async (kind: 'agent' | 'personal') =>
      await issuedToken(server, {
        userId: tenant.userIds.client_admin,
        kind,
        profile: 'full',
      });
    tokens = { agent: await issue('agent'), person: await issue('personal') };
  });
  after(() => server.close());

  it('refuses an agent token’s unconfirmed high-risk REST call with 428, in the documented shape', async () => {
    const refused = await credit(tokens.agent);
    assert.equal(refused.status, 428);
    assert.equal(refused.body.result, false);
    assert.equal(refused.body.error_code, 'CONFIRMATION_REQUIRED');
    assert.match(refused.body.message, /add_account_credit/);
    assert.deepEqual(refused.body.details, { operation: 'add_account_credit' });
    assert.equal(await ledgerEntries(), 0);

    const french = await credit(tokens.agent, { 'accept-language': 'fr' });
    assert.match(french.body.message, /haut risque/);
  });

  it('runs it once confirmed, previews it unconfirmed, and asks nothing of a person’s token', async () => {
    const preview = await credit(tokens.agent, { 'x-dry-run': '1' });
    assert.equal(preview.status, 200);
    assert.equal(preview.body.dry_run, true);
    assert.equal(await ledgerEntries(), 0);

    assert.equal((await credit(tokens.agent, { 'x-confirm': '1' })).status, 200);
    assert.equal((await credit(tokens.person)).status, 200);
    assert.equal(await ledgerEntries(), 2);
  });

  it('holds GraphQL to the same rule, stated the same way', async () => {
    const variables = { customer: tenant.userIds.customer };
    await assert.rejects(graphql(tokens.agent).request(ADD_CREDIT, variables), (error) => {
      assert.ok(error instanceof ClientError);
      assert.equal(error.response.errors?.[0]?.extensions?.error_code, 'CONFIRMATION_REQUIRED');
      return true;
    });
    const before = await ledgerEntries();
    await graphql(tokens.agent, { 'x-confirm': 'true' }).request(ADD_CREDIT, variables);
    assert.equal(await ledgerEntries(), before + 1);
  });

  it('previews a GraphQL mutation with X-Dry-Run: nothing kept, and the response says so', async () => {
    const before = await ledgerEntries();
    const answer = await graphql(tokens.person, { 'x-dry-run': '1' }).rawRequest<{
      addAccountCredit: { balance: number };
    }>(ADD_CREDIT, { customer: tenant.userIds.customer });
    assert.equal(typeof answer.data.addAccountCredit.balance, 'number');
    assert.deepEqual(answer.extensions, { dry_run: true, skipped_effects: [] });
    assert.equal(await ledgerEntries(), before);

    const kept = await graphql(tokens.person).rawRequest(ADD_CREDIT, { customer: tenant.userIds.customer });
    assert.equal(kept.extensions, undefined);
    assert.equal(await ledgerEntries(), before + 1);
  });
});
