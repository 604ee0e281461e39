import type { Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { type JsonSchema, jsonSchemaOf } from '../json-schema.ts';

export type ToolServer = 'user' | 'developer';

/** One tool of an agent server, as `tools/list` shows it, with the operation behind it. */
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
    outputSchema?: JsonSchema & { type: 'object' };
    annotations: {
      title: string;
      readOnlyHint: boolean;
      destructiveHint: boolean;
      idempotentHint: boolean;
      openWorldHint: boolean;
    };
  };
}

/** What a dry run adds to a write's answer (see the executor): a tool's output schema allows it. */
const DRY_RUN_FIELDS: Record<string, JsonSchema> = {
  dry_run: { type: 'boolean', description: 'The write ran and was rolled back (X-MCP-Dry-Run)' },
  skipped_effects: {
    type: 'array',
    description: 'What the dry run did not do outside the database',
    items: { type: 'object' },
  },
};

/**
 * A refused call's structured content: the error body REST answers (and, for an unconfirmed
 * high-risk call, the preview). Clients check structured content against the output schema
 * whether or not the call failed, so the schema names both.
 */
const REFUSAL: JsonSchema = {
  type: 'object',
  description: 'A refused call: the same error_code and message as REST',
  properties: {
    result: { const: false },
    error_code: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'object' },
    preview: { description: 'An unconfirmed high-risk call: what it would have answered' },
  },
  required: ['result', 'error_code', 'message'],
};

const API_TOKEN_ARGUMENT: JsonSchema = {
  type: 'string',
  description:
    'Deprecated: the bearer token, for clients that cannot set headers. Taken only without an Authorization header, and only until 2026-12-31.',
};
const DEPRECATION: JsonSchema = {
  type: 'string',
  description: 'The call used a deprecated argument, and until when it works',
};

/** A high-risk write queued for a person's approval (X-MCP-Require-Approval) instead of running. */
const QUEUED: JsonSchema = {
  type: 'object',
  description: 'Queued for approval (X-MCP-Require-Approval): nothing ran yet',
  properties: {
    result: { const: true },
    queued_for_approval: { const: true },
    proposal: { type: 'object', description: 'The proposal, as list_pending_approvals shows it' },
  },
  required: ['result', 'queued_for_approval', 'proposal'],
};

/** The tools of one server, from the operations that declare themselves its tools. */
export function toolsOf(catalog: Catalog, server: ToolServer): Map<string, Tool> {
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
  const input = jsonSchemaOf(operation.input, 'input') as JsonSchema;
  const properties = Object.fromEntries(
    Object.entries(input.properties ?? {}).map(([field, schema]) => [argumentOf[field] ?? field, schema]),
  );
  const required = (input.required ?? []).map((field) => argumentOf[field] ?? field);
  if (operation.confirm) {
    properties.confirm = {
      type: 'boolean',
      description:
        'true executes this high-risk call; without it the call answers a preview of what it would do',
    };
  }
  // The developer server still reads a token from this argument until its end date (docs/mcp.md).
  const legacy = server === 'developer' && !operation.access.public;
  if (legacy) properties.api_token = API_TOKEN_ARGUMENT;
  const output = jsonSchemaOf(operation.output, 'output') as JsonSchema;
  const write = operation.kind === 'mutation';
  return {
    name,
    operation,
    fieldOf,
    definition: {
      name,
      title: operation.summary,
      description: describe(operation),
      inputSchema: {
        ...input,
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : { required: undefined }),
      },
      ...(output.type === 'object'
        ? { outputSchema: outputSchemaOf(output, write, write && operation.risk === 'high', legacy) }
        : {}),
      annotations: {
        title: operation.summary,
        readOnlyHint: !write,
        destructiveHint: write && operation.risk === 'high',
        idempotentHint: !write || binding.idempotent === true,
        openWorldHint: false,
      },
    },
  };
}

/** The answer or a refusal; the answer's definitions stay at the root, where its $refs point. */
function outputSchemaOf(
  output: JsonSchema,
  write: boolean,
  queueable: boolean,
  legacy: boolean,
): JsonSchema & { type: 'object' } {
  const { $defs, ...answer } = output;
  // A call that used the deprecated api_token argument says so beside whatever it answers.
  const deprecation: Record<string, JsonSchema> = legacy ? { deprecation: DEPRECATION } : {};
  const also = (branch: JsonSchema): JsonSchema => ({
    ...branch,
    properties: { ...branch.properties, ...deprecation },
  });
  return {
    type: 'object',
    anyOf: [
      also({ ...answer, properties: { ...answer.properties, ...(write ? DRY_RUN_FIELDS : {}) } }),
      also(REFUSAL),
      ...(queueable ? [also(QUEUED)] : []),
    ],
    ...($defs ? { $defs } : {}),
  };
}

/** The guide, then what the catalog says of access and risk, so an agent reads it all in one place. */
function describe(operation: Operation): string {
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
  return [operation.tool!.guide, who, risk].filter(Boolean).join(' ');
}

/** Tool arguments as the operation's input: renamed arguments to their fields, `confirm` left out. */
export function inputOf(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  const { confirm: _confirm, ...rest } = args;
  return Object.fromEntries(Object.entries(rest).map(([name, value]) => [tool.fieldOf[name] ?? name, value]));
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
