import type { Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { PER_PAGE } from '../../platform/pagination.ts';
import { type JsonSchema, jsonSchemaOf } from '../json-schema.ts';
import { agentInputSchema } from './tool-schemas.ts';

export type ToolServer = 'user' | 'developer';

/**
 * One tool of an agent server, as `tools/list` shows it, with the operation behind it. A tool list
 * is read into an agent's context at the start of every conversation, so a tool says what it does
 * and takes, in full, and no more: it has no output schema. Its answer comes as JSON (text and
 * structured content) whose fields the description names; their full shapes are in the OpenAPI
 * document of the tools (/api/ai/tools/openapi). What every tool shares is said once, in the
 * server's instructions.
 */
export interface Tool {
  name: string;
  operation: Operation;
  /** Tool argument -> input field, where their names differ. */
  fieldOf: Readonly<Record<string, string>>;
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: JsonSchema & { type: 'object' };
    annotations: {
      readOnlyHint?: true;
      destructiveHint?: boolean;
      idempotentHint?: boolean;
      openWorldHint: false;
    };
  };
}

/** What every tool of a server shares, said once (the `instructions` of the server's initialize answer). */
export const SERVER_INSTRUCTIONS = [
  'Tools of a transport management service. tools/list shows only the tools your token and connection may call.',
  'Answers: a JSON object with result: true, as text and as structured content; field shapes are in /api/ai/tools/openapi.',
  'Refusals: isError true, and the structured content is the REST error body: result false, error_code, message (in the connection language), details. Arguments that break a tool input schema are a JSON-RPC error -32602 naming the arguments.',
  `Lists take page (from 1, default 1) and per_page (rows a page holds, default ${PER_PAGE.default}, at most ${PER_PAGE.max}); answers give total, page and per_page.`,
  'High-risk tools take confirm: without confirm: true they do not run; the refusal CONFIRMATION_REQUIRED carries a preview of what they would do.',
  'X-MCP-Dry-Run: 1 runs writes and rolls them back: the answer adds dry_run: true and skipped_effects. X-MCP-Require-Approval: 1 queues high-risk writes for a person: the answer is queued_for_approval: true with the proposal.',
].join('\n');

const API_TOKEN_ARGUMENT: JsonSchema = {
  type: 'string',
  description:
    'Deprecated: the bearer token, for clients that cannot set headers. Taken only without an Authorization header, and only until 2026-12-31.',
};
const built = new WeakMap<Catalog, Partial<Record<ToolServer, Map<string, Tool>>>>();

/**
 * The tools of one server, from the operations that declare themselves its tools: built once a
 * catalog, at the first call (the MCP door, the discovery lists and the agent share them).
 */
export function toolsOf(catalog: Catalog, server: ToolServer): Map<string, Tool> {
  const ofCatalog = built.get(catalog) ?? {};
  built.set(catalog, ofCatalog);
  ofCatalog[server] ??= buildTools(catalog, server);
  return ofCatalog[server];
}

function buildTools(catalog: Catalog, server: ToolServer): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const operation of catalog.list()) {
    const name = operation.tool?.[server];
    if (!operation.tool || !name) continue;
    if (tools.has(name)) throw new Error(`Tool ${name} is declared twice on the ${server} server`);
    tools.set(name, toolOf(operation, name, server));
  }
  return tools;
}

function toolOf(operation: Operation, name: string, server: ToolServer): Tool {
  const binding = operation.tool!;
  const fieldOf = binding.arguments ?? {};
  const argumentOf = Object.fromEntries(
    Object.entries(fieldOf).map(([argument, field]) => [field, argument]),
  );
  const input = agentInputSchema(jsonSchemaOf(operation.input, 'input') as JsonSchema);
  const properties = Object.fromEntries(
    Object.entries(input.properties ?? {}).map(([field, schema]) => [argumentOf[field] ?? field, schema]),
  );
  const required = (input.required ?? []).map((field) => argumentOf[field] ?? field);
  if (operation.confirm) {
    properties.confirm = {
      type: 'boolean',
      description: 'true runs this high-risk call; without it, a preview of what it would do',
    };
  }
  // The developer server still reads a token from this argument until its end date (docs/mcp.md).
  const legacy = server === 'developer' && !operation.access.public;
  if (legacy) properties.api_token = API_TOKEN_ARGUMENT;
  const write = operation.kind === 'mutation';
  return {
    name,
    operation,
    fieldOf,
    definition: {
      name,
      title: operation.summary,
      // The list is the caller's own (tools it may call): access goes without saying; risk is in the hints.
      description: binding.guide,
      inputSchema: {
        ...input,
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : { required: undefined }),
      },
      // A read's other hints mean nothing (MCP: they apply to writes); a write's readOnlyHint is false by default.
      annotations: write
        ? {
            destructiveHint: operation.risk === 'high',
            idempotentHint: binding.idempotent === true,
            openWorldHint: false,
          }
        : { readOnlyHint: true, openWorldHint: false },
    },
  };
}

/**
 * The guide, then what the catalog says of access and risk: for tool lists read outside a
 * connection (discovery), which show every tool and whose formats have no place for either.
 */
export function describeWithAccess(tool: Tool): string {
  const operation = tool.operation;
  const access = operation.access;
  const who = access.public
    ? 'Public: no token needed.'
    : 'kinds' in access
      ? `Needs a token${access.scopes?.length ? ` with ${access.scopes.join(', ')}` : ''}${
          access.kinds === 'any' ? '' : ` (accounts: ${access.kinds.join(', ')})`
        }.`
      : '';
  const risk = operation.confirm
    ? `Risk ${operation.risk}: executes only with confirm=true.`
    : `Risk ${operation.risk}.`;
  return [tool.definition.description, who, risk].filter(Boolean).join(' ');
}

/** Tool arguments as the operation's input: renamed arguments to their fields, `confirm` left out. */
export function inputOf(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  const { confirm: _confirm, ...rest } = args;
  return Object.fromEntries(Object.entries(rest).map(([name, value]) => [tool.fieldOf[name] ?? name, value]));
}

/**
 * A validation refusal in the tool's own terms: the arguments it names (tracking_number), never
 * the input fields behind them (trackingNumber).
 */
export function inArgumentTerms(tool: Tool, error: AppError): AppError {
  const argumentOf = new Map(Object.entries(tool.fieldOf).map(([argument, field]) => [field, argument]));
  if (argumentOf.size === 0) return error;
  const rename = (path: string) => {
    const [first, ...rest] = path.split('.');
    return [argumentOf.get(first!) ?? first, ...rest].join('.');
  };
  const fields = ((error.options.details?.fields ?? []) as { field: string }[]).map((issue) => ({
    ...issue,
    field: rename(issue.field),
  }));
  const names = [...new Set(fields.map((issue) => issue.field))];
  return new AppError(error.code, {
    ...error.options,
    params: { ...error.options.params, fields: names.join(', ') },
    details: { ...error.options.details, fields },
  });
}

/**
 * The tool table of one server in Markdown, as docs/mcp-tools.md holds it: what an integrator
 * reads before connecting, in the interface's columns (auth P/A, risk, scopes, C = confirm=true).
 */
export function toolTable(catalog: Catalog, server: ToolServer): string {
  const rows = [...toolsOf(catalog, server).values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => {
      const access = tool.operation.access;
      const scopes = 'kinds' in access ? (access.scopes ?? []).join(', ') : '';
      const kinds = 'kinds' in access ? (access.kinds === 'any' ? 'any' : access.kinds.join(', ')) : '';
      return `| \`${tool.name}\` | ${access.public ? 'P' : 'A'} | ${tool.operation.risk} | ${scopes || 'none'} | ${
        tool.operation.confirm ? 'C' : ''
      } | ${kinds || 'anyone'} | ${tool.operation.tool!.guide.replaceAll('|', '\\|')} |`;
    });
  return [
    `# Tools of the ${server} agent server`,
    '',
    'Generated from the operation catalog (`npm run mcp:tools`); a test fails when it drifts. Auth: P public, A',
    'a bearer token on the connection. C: the tool executes only with `confirm: true` (see docs/mcp.md).',
    '',
    '| Tool | Auth | Risk | Scopes | Confirm | Accounts | What it does |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** docs/mcp-tools.md: the tables of both servers. */
export function toolTables(catalog: Catalog): string {
  return `${toolTable(catalog, 'user')}\n${toolTable(catalog, 'developer')
    .replace(/^# /, '## ')
    .replace(/\n\| Tool/, '\n| Tool')}`;
}
