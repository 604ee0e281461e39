import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { createTenant, login, PASSWORD, type Tenant } from './fixtures.ts';
import { type Client, client } from './http.ts';
import type { Protocol, ScriptedModel } from './scripted-model.ts';
import { startTestServer, type TestServer } from './server.ts';

/** The service with its agent talking to the scripted model in one protocol, through the official SDK. */
export async function agentServer(
  model: ScriptedModel | undefined,
  protocol: Protocol = 'openai',
  timeoutMs = 30_000,
) {
  const agent = loadConfig({ LOG_LEVEL: 'silent' }).agent;
  const server = await startTestServer({
    agent: {
      ...agent,
      provider: model
        ? {
            protocol,
            baseUrl: model.baseUrl(protocol),
            apiKey: 'test-key',
            model: `asked-${protocol}`,
            timeoutMs,
          }
        : undefined,
    },
  });
  return { server, api: client(server.baseUrl) };
}

export interface AgentTenant {
  tenant: Tenant;
  admin: string;
  employee: string;
  customer: string;
  platform: string;
}

/** A business with the agent family on and set up, and its people signed in. */
export async function agentTenant(
  server: TestServer,
  api: Client,
  code: string,
  setUp = true,
): Promise<AgentTenant> {
  const tenant = await createTenant(server.db, server.app.services, code);
  const admin = await login(api, tenant.emails.client_admin);
  if (setUp) {
    const on = await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
      token: admin,
      body: { enabled: true },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const settings = await api.call('PUT', '/api/v1/client/agent/settings', {
      token: admin,
      body: { instructions: 'Call orders by their reference.' },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
  }
  return {
    tenant,
    admin,
    employee: await login(api, tenant.emails.employee),
    customer: await login(api, tenant.emails.customer),
    platform: await login(api, tenant.emails.platform_admin),
  };
}

export async function conversationOf(api: Client, token: string, title?: string): Promise<number> {
  const opened = await api.post('/api/v1/agent/conversations', title ? { title } : {}, { token });
  assert.equal(opened.status, 200, JSON.stringify(opened.body));
  return opened.body.conversation.id;
}

export function turn(api: Client, token: string, conversation: number, text: string) {
  return api.post(`/api/v1/agent/conversations/${conversation}/turns`, { text }, { token });
}

export async function orderOf(api: Client, token: string, body: Record<string, unknown>): Promise<number> {
  const created = await api.post(
    '/api/v1/client/orderCreate',
    { scheduled_date: '2026-11-03', dropoff: { line1: '1 Main street' }, ...body },
    { token },
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.order_id;
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** The /mcp-approvals page's HTML as a person signed in through its form sees it. */
export async function approvalsPageOf(server: TestServer, email: string): Promise<string> {
  const form = await fetch(`${server.baseUrl}/mcp-approvals`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signedIn = await fetch(`${server.baseUrl}/mcp-approvals/sign-in`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `tms_approvals_csrf=${cookieOf(form, 'tms_approvals_csrf')}`,
    },
    body: new URLSearchParams({ csrf, email, password: PASSWORD }).toString(),
    redirect: 'manual',
  });
  const page = await fetch(`${server.baseUrl}/mcp-approvals`, {
    headers: { cookie: `tms_approvals=${cookieOf(signedIn, 'tms_approvals')}`, 'accept-language': 'en' },
  });
  assert.equal(page.status, 200);
  return page.text();
}
