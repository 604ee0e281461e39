import assert from 'node:assert/strict';
import { ACCOUNT_KINDS } from '../../src/platform/catalog/operation.ts';
import { a, adminOfB, api, type Checks, tokenOfA, tokensOfB } from './tenancy.ts';

// The operations AI agent: A's conversations, their turns and usage are out of B's reach, B's own
// family on and set up. (The tenancy server has no model provider: a turn that got past the
// conversation would answer 503, so a 404 shows the conversation was never found.)

/** Both families on and set up, and a conversation of A's; made once. */
let conversationOfA: Promise<number> | undefined;
const agentOfA = () =>
  (conversationOfA ??= (async () => {
    for (const token of [tokenOfA, adminOfB()]) {
      await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
        token,
        body: { enabled: true },
      });
      const setUp = await api.call('PUT', '/api/v1/client/agent/settings', {
        token,
        body: { instructions: 'A secret of A' },
      });
      assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
    }
    const opened = await api.post(
      '/api/v1/agent/conversations',
      { title: 'Plans of A' },
      { token: tokenOfA },
    );
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    return opened.body.conversation.id as number;
  })());

const notFound = (answer: { status: number; body: { error_code: string } }) => {
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'AGENT_CONVERSATION_NOT_FOUND');
};

export const agentChecks: Checks = {
  set_agent_settings: async () => {
    await agentOfA();
    const saved = await api.call('PUT', '/api/v1/client/agent/settings', {
      token: adminOfB(),
      body: { instructions: 'B only' },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.instructions, 'B only');
  },
  create_agent_conversation: async () => {
    await agentOfA();
    await api.post('/api/v1/agent/conversations', { title: 'Plans of B' }, { token: adminOfB() });
    const listed = await api.get('/api/v1/agent/conversations', { token: tokenOfA });
    assert.ok(!JSON.stringify(listed.body).includes('Plans of B'), JSON.stringify(listed.body));
  },
  list_agent_conversations: async () => {
    await agentOfA();
    for (const token of [adminOfB(), tokensOfB.employee!, tokensOfB.customer!]) {
      const listed = await api.get('/api/v1/agent/conversations', { token });
      assert.ok(!JSON.stringify(listed.body).includes('Plans of A'), JSON.stringify(listed.body));
    }
  },
  get_agent_conversation: async () => {
    const id = await agentOfA();
    for (const token of [adminOfB(), tokensOfB.employee!]) {
      notFound(await api.get(`/api/v1/agent/conversations/${id}`, { token }));
    }
  },
  send_agent_turn: async () => {
    const id = await agentOfA();
    notFound(
      await api.post(`/api/v1/agent/conversations/${id}/turns`, { text: 'Hello' }, { token: adminOfB() }),
    );
  },
  get_agent_usage: async () => {
    await agentOfA();
    const usage = await api.get('/api/v1/agent/usage', { token: adminOfB() });
    assert.equal(usage.status, 200, JSON.stringify(usage.body));
    assert.equal(usage.body.turns_today, 0);
  },
  set_agent_daily_cap: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      const answer = await api.call('PUT', `/api/v1/platform/businesses/${a.businessId}/agent-cap`, {
        token: tokensOfB[kind],
        body: { daily_turns: 0 },
      });
      assert.equal(answer.status, 403, kind);
    }
  },
};
