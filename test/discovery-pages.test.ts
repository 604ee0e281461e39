import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ANSWER_CEILING_BYTES } from '../src/doors/mcp/list-budgets.ts';
import { toolsOf } from '../src/doors/mcp/tools.ts';
import { PROFILES } from '../src/modules/accounts/profiles.ts';
import { discoveryPages, entryName } from './support/discovery.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** What a failing answer says: which list, how big, the ceiling, and what to do. */
function overCeiling(list: string, bytes: number): string {
  return (
    `${list} is ${bytes} bytes, over the ${ANSWER_CEILING_BYTES}-byte ceiling of one answer ` +
    '(ANSWER_CEILING_BYTES in src/doors/mcp/list-budgets.ts). Lower DISCOVERY_PAGE_BUDGET_BYTES in ' +
    "src/doors/discovery/tool-pages.ts, or shorten the largest tool's input descriptions (docs/mcp.md, " +
    '"How big the lists are").'
  );
}

describe('tool discovery, a page at a time', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers the user server’s MCP tools under 48 KB, and leads a client to every one of them', async () => {
    for (const path of ['/api/ai/tools', '/api/ai/tools?format=mcp&server=user']) {
      const answer = await fetch(`${server.baseUrl}${path}`);
      assert.equal(answer.status, 200);
      const bytes = Buffer.byteLength(await answer.text());
      assert.ok(bytes <= ANSWER_CEILING_BYTES, overCeiling(path, bytes));
    }
    const pages = await discoveryPages(server.baseUrl, 'format=mcp&server=user');
    assert.deepEqual(
      pages.flatMap((page) => page.entries.map(entryName)),
      [...toolsOf(server.app.catalog, 'user').keys()],
    );
    for (const page of pages)
      assert.ok(page.bytes <= ANSWER_CEILING_BYTES, overCeiling('a page of the user server', page.bytes));
    assert.equal(pages.at(-1)!.nextCursor, undefined, 'the last page says it is the last');
  });

  it('pages every format of both servers alike, each tool once with its access', async () => {
    for (const serverName of ['user', 'developer'] as const) {
      const tools = toolsOf(server.app.catalog, serverName);
      for (const format of ['mcp', 'openai', 'anthropic', 'langchain']) {
        const pages = await discoveryPages(server.baseUrl, `format=${format}&server=${serverName}`);
        const names = pages.flatMap((page) => page.entries.map(entryName));
        assert.deepEqual(names, [...tools.keys()], `${format} ${serverName}`);
        for (const page of pages) {
          const list = `a page of /api/ai/tools?format=${format}&server=${serverName}`;
          assert.ok(page.bytes <= ANSWER_CEILING_BYTES, overCeiling(list, page.bytes));
        }
      }
    }
  });

  it('lists one profile’s tools: ops-readonly’s, without packing, lockers or reservations', async () => {
    const granted = new Set<string>(PROFILES['ops-readonly'] as readonly string[]);
    const expected = [...toolsOf(server.app.catalog, 'user').values()]
      .filter(({ operation: { access } }) =>
        access.public
          ? true
          : 'kinds' in access && (access.scopes ?? []).every((scope) => granted.has(scope)),
      )
      .map((tool) => tool.name);
    const pages = await discoveryPages(server.baseUrl, 'format=mcp&server=user&profile=ops-readonly');
    const names = pages.flatMap((page) => page.entries.map(entryName));
    assert.deepEqual(names, expected);
    assert.ok(names.includes('get_orders') && names.includes('track_package'), names.join(', '));
    for (const name of ['list_packaging', 'list_locker_sites', 'list_reservations'])
      assert.ok(!names.includes(name), `ops-readonly discovers ${name}`);
  });

  it('refuses a profile or a cursor it does not know', async () => {
    for (const query of ['profile=everything', 'cursor=no_such_tool']) {
      const answer = await fetch(`${server.baseUrl}/api/ai/tools?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(((await answer.json()) as { error_code: string }).error_code, 'BAD_REQUEST');
    }
  });
});
