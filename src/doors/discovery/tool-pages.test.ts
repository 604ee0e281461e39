import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { defineOperation } from '../../platform/catalog/operation.ts';
import { Catalog } from '../../platform/catalog/registry.ts';
import { type Tool, toolsOf } from '../mcp/tools.ts';
import { DISCOVERY_PAGE_BUDGET_BYTES, TOOL_FORMATS, toolPage, toolsOfProfile } from './tool-pages.ts';

/** A catalog of `count` read tools of about a kilobyte each, every third one public. */
function toolsOfSize(count: number): Tool[] {
  const operations = Array.from({ length: count }, (_, index) =>
    defineOperation({
      name: `read_thing_${index}`,
      summary: `Read thing ${index}`,
      tag: 'Test',
      kind: 'query',
      risk: 'low',
      access: index % 3 === 0 ? { public: true } : { kinds: 'any', scopes: ['orders:read'] },
      input: z.object({ note: z.string().max(200).describe('x'.repeat(600)) }),
      output: z.object({}),
      handler: async () => ({}),
      tool: { user: `read_thing_${index}`, guide: `Reads thing ${index}, for tests of discovery pages.` },
    }),
  );
  const catalog = new Catalog();
  catalog.register(operations);
  return [...toolsOf(catalog, 'user').values()];
}

/** Every page from the first, following the cursors: their sizes and the tool names they hold. */
function allPages(tools: Tool[], format: (typeof TOOL_FORMATS)[number]) {
  const pages: Array<{ bytes: number; names: string[] }> = [];
  let cursor: string | undefined;
  do {
    const page = toolPage(tools, format, 'user', cursor);
    const parsed = JSON.parse(page.body);
    const entries = (format === 'mcp' ? parsed.tools : parsed) as Array<{
      name?: string;
      function?: { name: string };
    }>;
    const names = entries.map((entry) => entry.name ?? entry.function!.name);
    if (format === 'mcp') assert.equal(parsed.nextCursor, page.next);
    pages.push({ bytes: Buffer.byteLength(page.body), names });
    cursor = page.next;
  } while (cursor);
  return pages;
}

describe('discovery pages', () => {
  it('hold every tool once, in order, each page within the budget, however many tools there are', () => {
    for (const count of [1, 40, 400]) {
      const tools = toolsOfSize(count);
      for (const format of TOOL_FORMATS) {
        const pages = allPages(tools, format);
        assert.deepEqual(
          pages.flatMap((page) => page.names),
          tools.map((tool) => tool.name),
          `${count} tools, ${format}`,
        );
        for (const page of pages)
          assert.ok(page.bytes <= DISCOVERY_PAGE_BUDGET_BYTES, `${format}: ${page.bytes}`);
        // Filled, not merely bounded: a page ends only where the next tool would not fit.
        if (count === 400)
          assert.ok(pages[0]!.bytes > DISCOVERY_PAGE_BUDGET_BYTES - 2048, `${pages[0]!.bytes}`);
      }
    }
  });

  it('refuses a cursor that names no tool', () => {
    assert.throws(
      () => toolPage(toolsOfSize(3), 'mcp', 'user', 'no_such_tool'),
      (error: { code?: string }) => error.code === 'BAD_REQUEST',
    );
  });

  it('keeps, for a profile, the public tools and those whose every scope it grants', () => {
    const tools = toolsOfSize(6);
    assert.deepEqual(
      toolsOfProfile(tools, ['datasets:read']).map((tool) => tool.name),
      ['read_thing_0', 'read_thing_3'],
    );
    assert.equal(toolsOfProfile(tools, ['orders:read']).length, 6);
    assert.equal(toolsOfProfile(tools, ['*']).length, 6);
  });
});
