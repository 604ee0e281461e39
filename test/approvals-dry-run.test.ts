import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLClient, gql } from 'graphql-request';
import { MAX_TURN_ANSWER } from '../src/modules/agent/service.ts';
import { PROPOSAL_TTL_HOURS } from '../src/modules/approvals/service.ts';
import { type AgentTenant, agentServer, agentTenant, conversationOf, turn } from './support/agent.ts';
import { DROPOFF, issuedToken } from './support/fixtures.ts';
import type { Client as Http } from './support/http.ts';
import { ScriptedModel } from './support/scripted-model.ts';
import type { TestServer } from './support/server.ts';

type Proposal = { id: number; status: string; decided_by: unknown; outcome: unknown; succeeded: unknown };

/**
 * Approving is a person's act, and a dry run keeps nothing: on every door, a dry-run approval whose
 * proposed call fails leaves the proposal pending and undecided, and no door lets an approval be
 * proposed for approval (the outer approval would decide the inner one unseen).
 */
describe('approvals and dry runs on every door', () => {
  let model: ScriptedModel;
  let server: TestServer;
  let api: Http;
  let people: AgentTenant;
  const mcpClients: Client[] = [];

  /** An order, an agent's proposal to cancel it, and the order cancelled meanwhile: approving it now fails. */
  const doomedProposal = async () => {
    const order = await newOrder();
    const agent = await issuedToken(server, { userId: people.tenant.userIds.employee, kind: 'agent' });
    const proposed = await api.post(
      '/api/v1/agent/approvals',
      { tool: 'cancel_order', arguments: { order_id: order.id }, reason: 'The customer cancelled' },
      { token: agent },
    );
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const cancelled = await api.post(`/api/v1/client/orders/${order.id}/cancel`, {}, { token: people.admin });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    return proposed.body.proposal as Proposal;
  };
  /** The model's next turn asks to queue one write, then answers with `text`. */
  const modelProposes = (tool: string, args: Record<string, unknown>, reason: string, text: string) => {
    model.script = (request) =>
      request.results.length === 0
        ? { tool_calls: [{ name: 'propose_write', arguments: { tool, arguments: args, reason } }] }
        : { text };
  };
  const newOrder = async () =>
    (await api.post('/api/v1/client/orderCreate', { dropoff: DROPOFF }, { token: people.admin })).body
      .orders[0] as { id: number };
  const proposalNamed = async (id: number) => {
    const pending = (await api.get('/api/v1/agent/approvals?limit=100', { token: people.admin })).body
      .proposals as Proposal[];
    return pending.find((proposal) => proposal.id === id);
  };
  /** Still pending, nobody's decision, no outcome: and a person can still decide it. */
  const untouched = async (id: number) => {
    const proposal = await proposalNamed(id);
    assert.ok(proposal, `proposal ${id} is no longer pending`);
    assert.equal(proposal.status, 'pending');
    assert.equal(proposal.decided_by, null);
    assert.equal(proposal.outcome, null);
    const decided = await api.post(
      `/api/v1/agent/approvals/${id}/approve`,
      {},
      { token: people.admin, headers: { 'x-confirm': '1' } },
    );
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.equal(decided.body.proposal.status, 'approved');
    assert.equal(decided.body.proposal.succeeded, false);
    assert.equal(decided.body.proposal.outcome.result, false);
    assert.equal(decided.body.proposal.outcome.error_code, 'ILLEGAL_STATUS_TRANSITION');
  };
  const mcpAs = async (token: string, headers: Record<string, string> = {}) => {
    const mcp = new Client({ name: 'approvals-dry-run-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
      }),
    );
    mcpClients.push(mcp);
    return mcp;
  };

  before(async () => {
    model = await ScriptedModel.start();
    ({ server, api } = await agentServer(model));
    people = await agentTenant(server, api, 'approvals-dry');
  });
  after(async () => {
    for (const mcp of mcpClients) await mcp.close();
    await server.close();
    await model.close();
  });

  it('REST: a dry-run approval whose call fails keeps nothing', async () => {
    const proposal = await doomedProposal();
    const preview = await api.post(
      `/api/v1/agent/approvals/${proposal.id}/approve`,
      {},
      { token: people.admin, headers: { 'x-confirm': '1', 'x-dry-run': '1' } },
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.dry_run, true);
    assert.equal(preview.body.proposal.status, 'approved');
    assert.equal(preview.body.proposal.succeeded, false);
    await untouched(proposal.id);
  });

  it('REST: a dry run of a GraphQL document approving inside it keeps nothing either (two runs deep)', async () => {
    const proposal = await doomedProposal();
    const preview = await api.post(
      '/api/v1/developer/graphql',
      {
        query:
          'mutation ($id: Int!) { approvePendingWrite(proposal_id: $id) { proposal { status succeeded } } }',
        variables: { id: proposal.id },
      },
      { token: people.admin, headers: { 'x-confirm': '1', 'x-dry-run': '1' } },
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.dry_run, true);
    assert.deepEqual(preview.body.data.approvePendingWrite.proposal, {
      status: 'approved',
      succeeded: false,
    });
    await untouched(proposal.id);
  });

  it('GraphQL: a dry-run approval whose call fails keeps nothing', async () => {
    const proposal = await doomedProposal();
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${people.admin}`, 'x-dry-run': '1', 'x-confirm': '1' },
    });
    const answer = await graphql.rawRequest<{ approvePendingWrite: { proposal: { status: string } } }>(
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
    );
    assert.equal(answer.data.approvePendingWrite.proposal.status, 'approved');
    assert.equal((answer.extensions as { dry_run?: boolean } | undefined)?.dry_run, true);
    await untouched(proposal.id);
  });

  it('MCP: a dry-run approval keeps nothing, and an approval is never queued for approval', async () => {
    const proposal = await doomedProposal();
    const dryRun = await mcpAs(people.admin, { 'X-MCP-Dry-Run': '1' });
    const preview = (await dryRun.callTool({
      name: 'approve_pending_write',
      arguments: { proposal_id: proposal.id, confirm: true },
    })) as CallToolResult & { structuredContent: { dry_run: boolean; proposal: Proposal } };
    assert.notEqual(preview.isError, true, JSON.stringify(preview.structuredContent));
    assert.equal(preview.structuredContent.dry_run, true);
    assert.equal(preview.structuredContent.proposal.status, 'approved');

    const writer = await issuedToken(server, {
      userId: people.tenant.userIds.employee,
      kind: 'agent',
      profile: 'ops-write',
    });
    const proposed = (await (
      await mcpAs(writer)
    ).callTool({
      name: 'propose_write',
      arguments: {
        tool: 'approve_pending_write',
        arguments: { proposal_id: proposal.id },
        reason: 'Please approve the approval',
      },
    })) as CallToolResult & { structuredContent: { error_code: string; message: string } };
    assert.equal(proposed.isError, true);
    assert.equal(proposed.structuredContent.error_code, 'TOOL_NOT_PROPOSABLE');
    assert.match(proposed.structuredContent.message, /approve_pending_write/);

    const queued = (await (
      await mcpAs(writer, { 'X-MCP-Require-Approval': '1' })
    ).callTool({
      name: 'approve_pending_write',
      arguments: { proposal_id: proposal.id, confirm: true },
    })) as CallToolResult & { structuredContent: { error_code: string } };
    assert.equal(queued.isError, true);
    assert.equal(queued.structuredContent.error_code, 'TOOL_NOT_PROPOSABLE');
    await untouched(proposal.id);
  });

  it('REST: propose_write refuses each of the queue’s own tools, and the target stays pending', async () => {
    const proposal = await doomedProposal();
    for (const tool of ['approve_pending_write', 'reject_pending_write', 'propose_write']) {
      const refused = await api.post(
        '/api/v1/agent/approvals',
        { tool, arguments: { proposal_id: proposal.id, reason: 'no' }, reason: 'Decide it for me' },
        { token: people.employee },
      );
      assert.equal(refused.status, 422, `${tool}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error_code, 'TOOL_NOT_PROPOSABLE');
    }
    await untouched(proposal.id);
  });

  it('an agent turn: the model asking to approve is refused back to it, and nothing is decided', async () => {
    const proposal = await doomedProposal();
    const conversation = await conversationOf(api, people.admin);
    modelProposes(
      'approve_pending_write',
      { proposal_id: proposal.id },
      'The note on the order says it is approved',
      'I could not queue that.',
    );
    const answered = await turn(api, people.admin, conversation, 'Approve what is waiting');
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.deepEqual(answered.body.turn.proposals, []);
    const [call] = answered.body.turn.tool_calls as Array<{ name: string; refused: boolean }>;
    assert.equal(call?.name, 'propose_write');
    assert.equal(call?.refused, true);
    await untouched(proposal.id);
  });

  it('an agent turn keeps a bounded answer, says it was cut, and sends only that to the model again', async () => {
    const conversation = await conversationOf(api, people.admin);
    const long = 'x'.repeat(MAX_TURN_ANSWER * 3);
    model.script = () => ({ text: long });
    const first = await turn(api, people.admin, conversation, 'Write a lot');
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 300));
    const kept = first.body.turn.answer as string;
    assert.ok(kept.length < MAX_TURN_ANSWER + 200, `kept ${kept.length} characters`);
    assert.ok(kept.startsWith('x'.repeat(MAX_TURN_ANSWER)));
    assert.match(kept, new RegExp(`Answer cut: the model wrote ${long.length} characters`));

    const from = model.requests.length;
    model.script = () => ({ text: 'Short.' });
    assert.equal((await turn(api, people.admin, conversation, 'And now?')).status, 200);
    // The earlier answer goes back as the assistant's message: the kept one, not what the model wrote.
    const sent = JSON.stringify(model.since(from)[0]!.body.messages);
    assert.ok(sent.includes('Answer cut: the model wrote'));
    assert.ok(!sent.includes('x'.repeat(MAX_TURN_ANSWER + 1)), 'more than the kept answer was sent again');
  });

  it("an agent turn's proposal names the turn, its proposer, and reads as expired from the moment its time is up", async () => {
    const order = await newOrder();
    const conversation = await conversationOf(api, people.admin);
    modelProposes(
      'cancel_order',
      { order_id: order.id },
      'The customer called to cancel',
      'Queued for a person to approve.',
    );
    const answered = await turn(
      api,
      people.admin,
      conversation,
      'Cancel the order the customer called about',
    );
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    // A second proposal of the same kind, decided at once: past its time it still reads as decided.
    const other = await newOrder();
    modelProposes('cancel_order', { order_id: other.id }, 'Also cancelled', 'Queued as well.');
    const second = await turn(api, people.admin, conversation, 'And the other one');
    const [decidedEarly] = second.body.turn.proposals as Proposal[];
    const approvedEarly = await api.post(
      `/api/v1/agent/approvals/${decidedEarly!.id}/approve`,
      {},
      { token: people.admin, headers: { 'x-confirm': '1' } },
    );
    assert.equal(approvedEarly.body.proposal.status, 'approved', JSON.stringify(approvedEarly.body));
    const [proposal] = answered.body.turn.proposals as Array<
      Proposal & { origin: unknown; proposed_by: { name: string } }
    >;
    assert.ok(proposal, 'the turn lists its proposal');
    assert.equal(proposal.status, 'pending');
    assert.notEqual(proposal.origin, null, 'a proposal from a turn says so');
    assert.ok(proposal.proposed_by.name.length > 0, 'the proposer is named');

    server.clock.advance(PROPOSAL_TTL_HOURS * 3_600_000);
    const read = await api.get(`/api/v1/agent/conversations/${conversation}`, { token: people.admin });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const turns = read.body.turns as Array<{ proposals: Proposal[] }>;
    const expired = turns.flatMap((kept) => kept.proposals).find((kept) => kept.id === proposal.id);
    assert.equal(expired?.status, 'expired');
    const decided = turns.flatMap((kept) => kept.proposals).find((kept) => kept.id === decidedEarly!.id);
    assert.equal(decided?.status, 'approved');
  });
});
