import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AgentTenant, agentServer, agentTenant, conversationOf, turn } from './support/agent.ts';
import { type Client, client } from './support/http.ts';
import { ScriptedModel } from './support/scripted-model.ts';
import { startInstance, type TestInstance, type TestServer } from './support/server.ts';

/** The test clock's start, 2026-11-02 09:30 UTC, is 17:30 in Shanghai: 6.5 hours to local midnight. */
const TO_LOCAL_MIDNIGHT = 6.5 * 3600;

describe('the operations agent: daily cap, usage, provider failures', () => {
  let model: ScriptedModel;
  let server: TestServer;
  let second: TestInstance;
  let api: Client;
  let alpha: AgentTenant;

  before(async () => {
    model = await ScriptedModel.start();
    ({ server, api } = await agentServer(model, 'anthropic'));
    second = await startInstance(server);
    alpha = await agentTenant(server, api, 'agentcap');
  });
  after(async () => {
    await second.close();
    await server.close();
    await model.close();
  });

  it('runs exactly the cap of turns from two instances at once; the rest answer 429 with Retry-After to local midnight', async () => {
    const cap = await api.call('PUT', `/api/v1/platform/businesses/${alpha.tenant.businessId}/agent-cap`, {
      token: alpha.platform,
      body: { daily_turns: 3 },
    });
    assert.equal(cap.status, 200, JSON.stringify(cap.body));
    assert.deepEqual([cap.body.daily_cap, cap.body.platform_default], [3, false]);
    const other = client(second.baseUrl);
    const conversations = [await conversationOf(api, alpha.admin), await conversationOf(api, alpha.employee)];
    model.script = () => ({ text: 'Fine.' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? turn(api, alpha.admin, conversations[0]!, `Turn ${i}`)
          : turn(other, alpha.employee, conversations[1]!, `Turn ${i}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(
      statuses,
      [200, 200, 200, 429, 429, 429, 429, 429],
      JSON.stringify(answers.map((a) => a.body)),
    );
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      assert.equal(refused.body.error_code, 'DAILY_CAP_REACHED');
      assert.equal(refused.body.details.cap, 3);
      assert.equal(refused.body.details.day, '2026-11-02');
      assert.equal(refused.headers.get('retry-after'), String(TO_LOCAL_MIDNIGHT));
    }
    const usage = await api.get('/api/v1/agent/usage', { token: alpha.admin });
    assert.equal(usage.status, 200, JSON.stringify(usage.body));
    assert.equal(usage.body.turns_today, 3);
    assert.equal(usage.body.daily_cap, 3);
    assert.deepEqual(usage.body.days, [
      {
        date: '2026-11-02',
        turns: 3,
        input_tokens: 300,
        output_tokens: 60,
        duration_ms: usage.body.days[0].duration_ms,
      },
    ]);

    // The next local day counts afresh.
    server.clock.advance(TO_LOCAL_MIDNIGHT * 1000 + 60_000);
    const tomorrow = await turn(api, alpha.admin, conversations[0]!, 'A new day');
    assert.equal(tomorrow.status, 200, JSON.stringify(tomorrow.body));
    const days = await api.get('/api/v1/agent/usage?from=2026-11-01&to=2026-11-03', { token: alpha.admin });
    assert.deepEqual(
      days.body.days.map((day: { date: string; turns: number }) => [day.date, day.turns]),
      [
        ['2026-11-02', 3],
        ['2026-11-03', 1],
      ],
    );
    // Back to the platform default.
    const reset = await api.call('PUT', `/api/v1/platform/businesses/${alpha.tenant.businessId}/agent-cap`, {
      token: alpha.platform,
      body: { daily_turns: null },
    });
    assert.deepEqual([reset.body.daily_cap, reset.body.platform_default], [200, true]);
  });

  it('answers 502 when the provider fails, keeps nothing and gives the turn back', async () => {
    const conversation = await conversationOf(api, alpha.admin);
    const before = (await api.get('/api/v1/agent/usage', { token: alpha.admin })).body.turns_today;
    model.script = () => ({ status: 500 });
    const failed = await turn(api, alpha.admin, conversation, 'Anything?');
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    assert.equal(failed.body.error_code, 'AGENT_PROVIDER_FAILED');
    const read = await api.get(`/api/v1/agent/conversations/${conversation}`, { token: alpha.admin });
    assert.equal(read.body.total, 0);
    assert.equal((await api.get('/api/v1/agent/usage', { token: alpha.admin })).body.turns_today, before);
  });
});

describe('the operations agent without a provider, and its family switch', () => {
  let server: TestServer;
  let api: Client;

  before(async () => {
    ({ server, api } = await agentServer(undefined));
  });
  after(() => server.close());

  it('answers 503 naming the variables to set, while the rest of the family works', async () => {
    const alpha = await agentTenant(server, api, 'agentnone');
    const conversation = await conversationOf(api, alpha.admin);
    const refused = await turn(api, alpha.admin, conversation, 'Hello?');
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'AGENT_PROVIDER_NOT_CONFIGURED');
    assert.match(refused.body.message, /AGENT_PROVIDER/);
    assert.match(refused.body.message, /AGENT_API_KEY/);
    const usage = await api.get('/api/v1/agent/usage', { token: alpha.admin });
    assert.deepEqual([usage.status, usage.body.turns_today], [200, 0]);
    assert.equal((await api.get('/api/v1/agent/conversations', { token: alpha.admin })).body.total, 1);
  });

  it('answers 409 with feature_enabled: false while the family is off, not migrated or revoked', async () => {
    const alpha = await agentTenant(server, api, 'agentswitch', false);
    const token = alpha.admin;
    const refusal = async (reason: string) => {
      for (const answer of [
        await api.get('/api/v1/agent/conversations', { token, headers: { 'accept-language': 'fr' } }),
        await api.post('/api/v1/agent/conversations', {}, { token }),
        await turn(api, token, 1, 'Hello?'),
        await api.get('/api/v1/agent/usage', { token }),
      ]) {
        assert.equal(answer.status, 409, JSON.stringify(answer.body));
        assert.equal(answer.body.result, false);
        assert.equal(answer.body.feature_enabled, false);
        assert.equal(answer.body.error_code, 'FEATURE_DISABLED');
        assert.deepEqual(answer.body.details, { feature: 'operations_agent', reason });
      }
    };
    await refusal('off');
    const on = await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
      token,
      body: { enabled: true },
    });
    assert.equal(on.body.state, 'not_migrated');
    await refusal('not_migrated');
    const setUp = await api.call('PUT', '/api/v1/client/agent/settings', {
      token,
      body: { instructions: null },
    });
    assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
    assert.equal(setUp.body.provider_configured, false);
    assert.equal((await api.get('/api/v1/agent/conversations', { token })).status, 200);
    const revokePath = `/api/v1/platform/businesses/${alpha.tenant.businessId}/feature-families/operations_agent`;
    const revoked = await api.call('PUT', revokePath, { token: alpha.platform, body: { revoked: true } });
    assert.equal(revoked.body.state, 'revoked');
    await refusal('revoked');
  });
});

describe('the operations agent when the provider does not answer in time', () => {
  let model: ScriptedModel;
  let server: TestServer;
  let api: Client;

  before(async () => {
    model = await ScriptedModel.start();
    ({ server, api } = await agentServer(model, 'openai', 1000));
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('answers 504, keeps nothing and gives the turn back', async () => {
    const alpha = await agentTenant(server, api, 'agentslow');
    const conversation = await conversationOf(api, alpha.admin);
    model.script = () => ({ hang: true });
    const late = await turn(api, alpha.admin, conversation, 'Are you there?');
    assert.equal(late.status, 504, JSON.stringify(late.body));
    assert.equal(late.body.error_code, 'AGENT_PROVIDER_TIMEOUT');
    assert.equal(
      (await api.get(`/api/v1/agent/conversations/${conversation}`, { token: alpha.admin })).body.total,
      0,
    );
    assert.equal((await api.get('/api/v1/agent/usage', { token: alpha.admin })).body.turns_today, 0);
  });
});
