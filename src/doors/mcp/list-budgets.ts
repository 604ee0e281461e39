import type { Catalog } from '../../platform/catalog/registry.ts';
import { DISCOVERY_PAGE_BUDGET_BYTES, TOOL_FORMATS, toolPage } from '../discovery/tool-pages.ts';
import { TOOL_LIST_BUDGET_BYTES, toolListSizes, toolListSizeTable } from './list-sizes.ts';
import { type ToolServer, toolsOf } from './tools.ts';

/**
 * No one answer of a tool list weighs more than this: what the safety review asked of every
 * answer an agent or a client reads whole. The page budget of discovery stays under it.
 */
export const ANSWER_CEILING_BYTES = 48 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The two kinds of size budget a tool list has, where each is set and what to do past it. */
export const BUDGETS = {
  toolList: {
    bytes: TOOL_LIST_BUDGET_BYTES,
    name: 'TOOL_LIST_BUDGET_BYTES in src/doors/mcp/list-sizes.ts',
    remedy:
      'shorten the guides and input descriptions of the list\'s tools (docs/mcp.md, "What a tool says"), ' +
      'or write a block they repeat once (src/doors/mcp/tool-schemas.ts); the budget is what an agent reads ' +
      'into its context each conversation, so raise it only with a reason in docs/mcp.md',
  },
  discoveryPage: {
    bytes: DISCOVERY_PAGE_BUDGET_BYTES,
    name: 'DISCOVERY_PAGE_BUDGET_BYTES in src/doors/discovery/tool-pages.ts',
    remedy:
      'a page holds whole tools, so one tool alone outgrew a page: shorten its input descriptions; ' +
      `the page budget may rise up to ${ANSWER_CEILING_BYTES} bytes (ANSWER_CEILING_BYTES in src/doors/mcp/list-budgets.ts), no further`,
  },
} as const;

export type BudgetKind = keyof typeof BUDGETS;

/** One list with a size budget: its largest answer today. */
export interface ListSize {
  /** The list as docs/mcp.md names it. */
  list: string;
  /** What its largest answer holds: whose list, how many tools, how many pages. */
  detail: string;
  bytes: number;
  kind: BudgetKind;
  /** What is left: for tools/list, the bytes new tools may take; for discovery, how much its largest tool may grow. */
  room: number;
}

/** What a test says when a list outgrows its budget: the list, its size, its budget, what to do. */
export function budgetBreach(size: Omit<ListSize, 'room'>): string {
  const budget = BUDGETS[size.kind];
  return (
    `${size.list} (${size.detail}) is ${size.bytes} bytes, over its budget of ${budget.bytes} bytes ` +
    `(${budget.name}). To make room: ${budget.remedy}. Then run npm run mcp:tools to update docs/mcp.md.`
  );
}

/** Every list with a size budget, at its largest answer. */
export function listSizes(catalog: Catalog): ListSize[] {
  const sizes: ListSize[] = [];
  for (const server of ['user', 'developer'] as const) {
    const widest = toolListSizes(catalog, server).reduce((a, b) => (b.bytes > a.bytes ? b : a));
    sizes.push({
      list: `MCP \`tools/list\`, ${server} server`,
      detail: `widest: ${widest.kind}, profile ${widest.profile}, ${widest.tools} tools`,
      bytes: widest.bytes,
      kind: 'toolList',
      room: BUDGETS.toolList.bytes - widest.bytes,
    });
  }
  for (const server of ['user', 'developer'] as const) {
    for (const format of TOOL_FORMATS) sizes.push(discoverySize(catalog, server, format));
  }
  return sizes;
}

function discoverySize(
  catalog: Catalog,
  server: ToolServer,
  format: (typeof TOOL_FORMATS)[number],
): ListSize {
  const tools = [...toolsOf(catalog, server).values()];
  let largest = 0;
  let pages = 0;
  let cursor: string | undefined;
  do {
    const page = toolPage(tools, format, server, cursor);
    largest = Math.max(largest, Buffer.byteLength(page.body));
    pages++;
    cursor = page.next;
  } while (cursor);
  // A page of one tool: what the largest tool alone weighs, envelope and all.
  const largestTool = Math.max(
    ...tools.map((tool) => Buffer.byteLength(toolPage([tool], format, server, undefined).body)),
  );
  return {
    list: `\`/api/ai/tools?format=${format}&server=${server}\``,
    detail: `largest of ${pages} page${pages === 1 ? '' : 's'}, ${tools.length} tools; largest tool ${kb(largestTool)}`,
    bytes: largest,
    kind: 'discoveryPage',
    room: BUDGETS.discoveryPage.bytes - largestTool,
  };
}

/** docs/mcp.md's table of every budgeted list: its largest answer, its budget, the room left. */
export function listBudgetTable(catalog: Catalog): string {
  return [
    '| List | Largest answer | Size | Budget | Room |',
    '|---|---|---|---|---|',
    ...listSizes(catalog).map(
      (size) =>
        `| ${size.list} | ${size.detail} | ${kb(size.bytes)} | ${kb(BUDGETS[size.kind].bytes)} | ${kb(size.room)} |`,
    ),
    '',
    'Room: for `tools/list`, the bytes new tools may take; for discovery, how much its largest tool may grow (new tools add pages).',
  ].join('\n');
}

/** docs/mcp.md's generated sections: each between its start and end markers. */
const SECTIONS = [
  { name: 'tool-list-sizes', table: toolListSizeTable },
  { name: 'list-budgets', table: listBudgetTable },
];

/** docs/mcp.md with its generated tables of sizes replaced by the catalog's (`npm run mcp:tools`). */
export function withListSizes(doc: string, catalog: Catalog): string {
  let written = doc;
  for (const section of SECTIONS) {
    const startMark = `<!-- ${section.name}: generated by npm run mcp:tools -->`;
    const endMark = `<!-- /${section.name} -->`;
    const start = written.indexOf(startMark);
    const end = written.indexOf(endMark);
    if (start < 0 || end < start) throw new Error(`docs/mcp.md has no ${startMark} ... ${endMark} section`);
    written = `${written.slice(0, start + startMark.length)}\n${section.table(catalog)}\n${written.slice(end)}`;
  }
  return written;
}
