import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { createTenant, DROPOFF, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The approval queue on every door: a reviewer needs what the proposed call needs, and a proposal
 * tells a person what it would change (the tool's title, the orders it names).
 */
describe('the approval queue', () => {
  let server: TestServer;
  let api: Http;
  let tenant: Tenant;
  let admin: string;
  /** An employee's token that may decide proposals, and nothing else. */
  let reviewerWithoutOrders: string;
  const mcpClients: Client[] = [];

  const newOrder = async (extra: Record<string, unknown> = {}) =>
    (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF, ...extra }, { token: admin })).body
      .orders[0] as { id: number; order_ref: string };
  const statusOf = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order.status as string;
  /** An agent's proposal to cancel an order (cancel_order needs orders:write). */
  const proposeCancel = async (orderId: number) => {
    const agent = await issuedToken(server, { userId: tenant.userIds.employee, kind: 'agent' });
    const answer = await api.post(
      '/api/v1/agent/approvals',
      { tool: 'cancel_order', arguments: { order_id: orderId }, reason: 'The customer cancelled by phone' },
      { token: agent },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.proposal as { id: number; status: string };
  };
  const pendingIds = async () =>
    (await api.get('/api/v1/agent/approvals', { token: admin })).body.proposals.map(
      (proposal: { id: number }) => proposal.id,
    ) as number[];
  /** After a refused approval: still pending, nothing ran, and a reviewer with the scopes can approve it. */
  const stillApprovable = async (proposalId: number, orderId: number) => {
    assert.ok((await pendingIds()).includes(proposalId));
    assert.equal(await statusOf(orderId), 'NEW_ORDER');
    const approved = await api.post(
      `/api/v1/agent/approvals/${proposalId}/approve`,
      {},
      { token: admin, headers: { 'x-confirm': '1' } },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.proposal.status, 'approved');
    assert.ok(approved.body.proposal.decided_by.name.length > 0, 'the reviewer is named');
    assert.notEqual(approved.body.proposal.decided_by.name, approved.body.proposal.proposed_by.name);
    assert.equal(approved.body.proposal.succeeded, true);
    assert.equal(await statusOf(orderId), 'CANCELLED');
  };

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'approvals');
    admin = await login(api, tenant.emails.client_admin);
    reviewerWithoutOrders = await issuedToken(server, {
      userId: tenant.userIds.employee,
      kind: 'personal',
      scopes: ['approvals:read', 'approvals:write'],
    });
  });
  after(async () => {
    for (const mcp of mcpClients) await mcp.close();
    await server.close();
  });

  it('REST: refuses a reviewer without the tool’s scopes, naming them, and the proposal stays pending', async () => {
    const order = await newOrder();
    const proposal = await proposeCancel(order.id);
    const refused = await api.post(
      `/api/v1/agent/approvals/${proposal.id}/approve`,
      {},
      { token: reviewerWithoutOrders },
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error_code, 'INSUFFICIENT_SCOPE');
    assert.deepEqual(refused.body.details.missing, ['orders:write']);
    assert.match(refused.body.message, /orders:write/);
    await stillApprovable(proposal.id, order.id);
  });

  it('GraphQL: the same refusal, and the proposal stays pending', async () => {
    const order = await newOrder();
    const proposal = await proposeCancel(order.id);
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${reviewerWithoutOrders}` },
    });
    const refusal = await graphql
      .request(
        gql`
          mutation ($id: Int!) {
            approvePendingWrite(proposal_id: $id) {
              proposal {
                status
              }
            }
          }
        `,
        { id: proposal.id },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(refusal instanceof ClientError, 'the approval was not refused');
    const extensions = refusal.response.errors?.[0]?.extensions as { error_code?: string; details?: unknown };
    assert.equal(extensions.error_code, 'INSUFFICIENT_SCOPE');
    assert.deepEqual(extensions.details, { missing: ['orders:write'] });
    await stillApprovable(proposal.id, order.id);
  });

  it('MCP: the same refusal as SCOPE_REQUIRED, and the proposal stays pending', async () => {
    const order = await newOrder();
    const proposal = await proposeCancel(order.id);
    const mcp = new Client({ name: 'approvals-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${reviewerWithoutOrders}` } },
      }),
    );
    mcpClients.push(mcp);
    const refused = (await mcp.callTool({
      name: 'approve_pending_write',
      arguments: { proposal_id: proposal.id, confirm: true },
    })) as CallToolResult & { structuredContent: { error_code: string; details: { missing: string[] } } };
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error_code, 'SCOPE_REQUIRED');
    assert.deepEqual(refused.structuredContent.details.missing, ['orders:write']);
    await stillApprovable(proposal.id, order.id);
  });

  it('refuses the proposing token its own approval on REST and GraphQL; another token of the same person approves', async () => {
    const order = await newOrder();
    const agent = await issuedToken(server, {
      userId: tenant.userIds.employee,
      kind: 'agent',
      profile: 'ops-write',
    });
    const proposed = await api.post(
      '/api/v1/agent/approvals',
      { tool: 'cancel_order', arguments: { order_id: order.id }, reason: 'Asked by phone' },
      { token: agent },
    );
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const proposalId = proposed.body.proposal.id as number;

    const overRest = await api.post(
      `/api/v1/agent/approvals/${proposalId}/approve`,
      {},
      { token: agent, headers: { 'x-confirm': '1' } },
    );
    assert.equal(overRest.status, 403, JSON.stringify(overRest.body));
    assert.equal(overRest.body.error_code, 'OWN_PROPOSAL');
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${agent}`, 'x-confirm': '1' },
    });
    const overGraphql = await graphql
      .request(
        gql`
          mutation ($id: Int!) {
            approvePendingWrite(proposal_id: $id) {
              proposal {
                status
              }
            }
          }
        `,
        { id: proposalId },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(overGraphql instanceof ClientError, 'the own approval was not refused');
    assert.equal(overGraphql.response.errors?.[0]?.extensions?.error_code, 'OWN_PROPOSAL');
    assert.ok((await pendingIds()).includes(proposalId), 'still pending');
    assert.equal(await statusOf(order.id), 'NEW_ORDER', 'nothing ran');

    // The rule binds the token, not the person: the employee signed in may approve it.
    const person = await login(api, tenant.emails.employee);
    const approved = await api.post(`/api/v1/agent/approvals/${proposalId}/approve`, {}, { token: person });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.proposal.decided_by.id, tenant.userIds.employee);
    assert.equal(await statusOf(order.id), 'CANCELLED');
  });

  it('answers an unknown, a decided and an expired proposal for what it is, and runs none of them', async () => {
    const decide = (id: number, verdict: 'approve' | 'reject') =>
      api.post(`/api/v1/agent/approvals/${id}/${verdict}`, verdict === 'reject' ? { reason: 'no' } : {}, {
        token: admin,
        headers: { 'x-confirm': '1' },
      });
    for (const verdict of ['approve', 'reject'] as const) {
      const unknown = await decide(999_999, verdict);
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.equal(unknown.body.error_code, 'PROPOSAL_NOT_FOUND');
    }

    const rejectedOrder = await newOrder();
    const rejected = await proposeCancel(rejectedOrder.id);
    assert.equal((await decide(rejected.id, 'reject')).status, 200);
    for (const verdict of ['approve', 'reject'] as const) {
      const again = await decide(rejected.id, verdict);
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(again.body.error_code, 'PROPOSAL_DECIDED');
      assert.match(again.body.message, /rejected/);
    }
    assert.equal(await statusOf(rejectedOrder.id), 'NEW_ORDER');

    const lateOrder = await newOrder();
    const late = await proposeCancel(lateOrder.id);
    const proposedAt = server.clock.now();
    try {
      server.clock.advance(24 * 3_600_000 - 1000);
      assert.ok((await pendingIds()).includes(late.id), 'pending until its 24 hours are over');
      server.clock.advance(1000);
      assert.ok(!(await pendingIds()).includes(late.id), 'no longer listed once they are');
      for (const verdict of ['approve', 'reject'] as const) {
        const expired = await decide(late.id, verdict);
        assert.equal(expired.status, 409, JSON.stringify(expired.body));
        assert.equal(expired.body.error_code, 'PROPOSAL_EXPIRED');
      }
    } finally {
      server.clock.set(proposedAt);
    }
    assert.equal(await statusOf(lateOrder.id), 'NEW_ORDER');
  });

  it('says what a proposal would change: the tool’s title and the orders it names, by reference and customer', async () => {
    const order = await newOrder({ customer_id: tenant.userIds.customer });
    const proposal = (await proposeCancel(order.id)) as unknown as {
      title: string;
      orders: Array<{ id: number; order_ref: string; customer: string | null; recipient: string | null }>;
    };
    const cancel = server.app.catalog.list().find((operation) => operation.tool?.user === 'cancel_order');
    assert.equal(proposal.title, cancel?.summary);
    assert.deepEqual(proposal.orders, [
      {
        id: order.id,
        order_ref: order.order_ref,
        customer: `customer of ${tenant.code}`,
        recipient: DROPOFF.name,
      },
    ]);
  });

  it('a proposal is a dry run: proposing a write the tool itself would run at once changes nothing', async () => {
    const order = await newOrder();
    // An agent that could write the note itself: its proposal still only previews it.
    const agent = await issuedToken(server, {
      userId: tenant.userIds.employee,
      kind: 'agent',
      profile: 'ops-write',
    });
    const proposed = await api.post(
      '/api/v1/agent/approvals',
      {
        tool: 'update_order_note',
        arguments: { order_id: order.id, note: 'Leave it with the neighbour' },
        reason: 'The customer asked by email',
      },
      { token: agent },
    );
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal(proposed.body.proposal.preview.result, true, JSON.stringify(proposed.body.proposal.preview));
    const read = await api.get(`/api/v1/client/orders/${order.id}`, { token: admin });
    assert.equal(read.body.order.note, null, 'the note is written only once a person approves');
  });

  it('MCP: an approval confirmed at the door runs the high-risk call it approves', async () => {
    const order = await newOrder();
    const proposal = await proposeCancel(order.id);
    const reviewer = await issuedToken(server, { userId: tenant.userIds.client_admin, kind: 'personal' });
    const mcp = new Client({ name: 'approvals-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${reviewer}` } },
      }),
    );
    mcpClients.push(mcp);
    const approved = (await mcp.callTool({
      name: 'approve_pending_write',
      arguments: { proposal_id: proposal.id, confirm: true },
    })) as CallToolResult & { structuredContent: { proposal: { succeeded: boolean; outcome: unknown } } };
    assert.equal(approved.isError, undefined, JSON.stringify(approved.structuredContent));
    assert.equal(
      approved.structuredContent.proposal.succeeded,
      true,
      JSON.stringify(approved.structuredContent.proposal.outcome),
    );
    assert.equal(await statusOf(order.id), 'CANCELLED');
  });

  it('names only orders of the business given by number: not one it cannot find, not an id written as text', async () => {
    const order = await newOrder();
    const agent = await issuedToken(server, { userId: tenant.userIds.employee, kind: 'agent' });
    for (const args of [{ order_id: 999_999_999 }, { order_ids: [String(order.id)] }]) {
      const proposed = await api.post(
        '/api/v1/agent/approvals',
        { tool: 'cancel_order', arguments: args, reason: 'Checking what a reviewer sees' },
        { token: agent },
      );
      assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
      assert.deepEqual(proposed.body.proposal.orders, [], JSON.stringify(args));
      assert.equal(proposed.body.proposal.preview.result, false);
    }
  });
});
