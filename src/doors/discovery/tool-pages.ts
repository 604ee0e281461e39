import { AppError } from '../../platform/errors.ts';
import { describeWithAccess, type Tool, type ToolServer } from '../mcp/tools.ts';
import { authOf, scopesOf } from './surface.ts';

export const TOOL_FORMATS = ['mcp', 'openai', 'anthropic', 'langchain'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/**
 * The most bytes one answer of `/api/ai/tools` holds. Tools past it continue on the next page, so
 * the answer stays this size however many tools the catalog grows (the user server's full list
 * passed 64 KB), and a client that reads it whole is never handed more than it can take.
 */
export const DISCOVERY_PAGE_BUDGET_BYTES = 40 * 1024;

export interface ToolPage {
  /** The page's JSON, in the format's own shape (the mcp format adds `nextCursor`). */
  body: string;
  /** The cursor of the next page: the name of its first tool. None on the last page. */
  next?: string;
}

/**
 * The tools a profile's scopes reach: the public ones and those whose every scope it grants
 * (`*`: all). A tracking provider's key is no profile's, so its tools are left out.
 */
export function toolsOfProfile(tools: Tool[], granted: readonly string[]): Tool[] {
  if (granted.includes('*')) return tools;
  return tools.filter((tool) => {
    const auth = authOf(tool.operation);
    if (auth === 'public') return true;
    return auth === 'token' && scopesOf(tool.operation).every((scope) => granted.includes(scope));
  });
}

/**
 * One page of the tools in a format, starting at the tool the cursor names (the first without
 * one) and holding as many as fit in the budget, always at least one.
 */
export function toolPage(
  tools: Tool[],
  format: ToolFormat,
  server: ToolServer,
  cursor: string | undefined,
  budget = DISCOVERY_PAGE_BUDGET_BYTES,
): ToolPage {
  const start = cursor === undefined ? 0 : tools.findIndex((tool) => tool.name === cursor);
  if (start < 0) throw new AppError('BAD_REQUEST', { details: { cursor: { unknown: cursor } } });
  const entries = tools.map((tool) => entryOf(tool, format, server));
  const sizes = entries.map((entry) => Buffer.byteLength(JSON.stringify(entry)));
  // The bytes JSON.stringify writes around the entries: the envelope, commas, the next cursor.
  const envelope = Buffer.byteLength(JSON.stringify(documentOf([], format, server)));
  const cursorBytes = (name: string) => Buffer.byteLength(`,"nextCursor":${JSON.stringify(name)}`);
  let end = start + 1;
  let bytes = envelope + sizes[start]!;
  while (end < tools.length) {
    const grown = bytes + 1 + sizes[end]!;
    const after = tools[end + 1];
    const withCursor = grown + (after && format === 'mcp' ? cursorBytes(after.name) : 0);
    if (withCursor > budget) break;
    bytes = grown;
    end++;
  }
  const next = tools[end]?.name;
  return { body: JSON.stringify(documentOf(entries.slice(start, end), format, server, next)), next };
}

/** A tool in one ecosystem's shape; auth, risk, scopes and confirm where each keeps metadata. */
function entryOf(tool: Tool, format: ToolFormat, server: ToolServer): unknown {
  const access = {
    auth: authOf(tool.operation),
    risk: tool.operation.risk,
    scopes: scopesOf(tool.operation),
    confirm: tool.operation.confirm === true,
  };
  switch (format) {
    case 'mcp':
      return { ...tool.definition, _meta: { 'tms/access': access } };
    case 'openai':
      // OpenAI's function tools have no metadata field: the description already states access and risk.
      return {
        type: 'function',
        function: {
          name: tool.name,
          description: describeWithAccess(tool),
          parameters: tool.definition.inputSchema,
        },
      };
    case 'anthropic':
      // Anthropic's tool definitions take no metadata either: the description carries it.
      return {
        name: tool.name,
        description: describeWithAccess(tool),
        input_schema: tool.definition.inputSchema,
      };
    case 'langchain':
      return {
        name: tool.name,
        description: tool.definition.description,
        schema: tool.definition.inputSchema,
        metadata: { ...access, server },
      };
  }
}

/**
 * The page as the format has it: MCP's tools/list result (the server said once, in `_meta`, and
 * MCP's own `nextCursor`), a bare array for the others (their next page is in the Link header).
 */
function documentOf(entries: unknown[], format: ToolFormat, server: ToolServer, next?: string) {
  if (format !== 'mcp') return entries;
  return { _meta: { 'tms/server': server }, tools: entries, ...(next ? { nextCursor: next } : {}) };
}
