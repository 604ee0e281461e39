import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetBreach } from './list-budgets.ts';

describe('a tool list over its budget', () => {
  it('says which list, how big, its budget, where that is set and what to do', () => {
    const message = budgetBreach({
      list: '`/api/ai/tools?format=mcp&server=user`',
      detail: 'client_admin, profile full, 73 tools',
      bytes: 66094,
      kind: 'toolList',
    });
    for (const part of [
      '`/api/ai/tools?format=mcp&server=user`',
      'client_admin, profile full, 73 tools',
      '66094 bytes',
      'budget of 65536 bytes',
      'TOOL_LIST_BUDGET_BYTES in src/doors/mcp/list-sizes.ts',
      'shorten the guides and input descriptions',
      'npm run mcp:tools',
    ])
      assert.ok(message.includes(part), `${part} in: ${message}`);
    const page = budgetBreach({ list: 'a page', detail: 'one tool', bytes: 50000, kind: 'discoveryPage' });
    assert.match(page, /DISCOVERY_PAGE_BUDGET_BYTES in src\/doors\/discovery\/tool-pages\.ts/);
    assert.match(page, /up to 49152 bytes/);
  });
});
