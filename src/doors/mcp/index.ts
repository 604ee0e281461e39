import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROFILES } from '../../modules/accounts/index.ts';
import type { ConnectionScopes } from '../../platform/catalog/access.ts';
import type { Executor, Invocation } from '../../platform/catalog/executor.ts';
import type { Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { errorBody, toAppError } from '../../platform/http/errors.ts';
import { headerOf } from '../../platform/http/server.ts';
import { invocationOf } from '../invocation.ts';
import {
  inArgumentTerms,
  inputOf,
  SERVER_INSTRUCTIONS,
  type Tool,
  type ToolServer,
  toolsOf,
} from './tools.ts';

export interface McpDoorSettings {
  /** The service's public address: requests naming another Host or Origin are refused. */
  publicBaseUrl: string;
  version: string;
  /** The service clock: it decides when the developer server's api_token argument ends. */
  clock: Clock;
}

/** The last day (UTC) the developer server still takes a token in the deprecated api_token argument. */
export const API_TOKEN_LAST_DAY = '2026-12-31';
const API_TOKEN_END = Date.parse(`${API_TOKEN_LAST_DAY}T23:59:59.999Z`);

/** The headers of an agent connection, as the interface lists them (docs/mcp.md). */
export const CONNECTION_HEADERS = [
  'Authorization',
  'X-MCP-Profile',
  'X-MCP-Scopes',
  'X-MCP-Dry-Run',
  'X-MCP-Require-Approval',
] as const;

/** The operation a high-risk write becomes under X-MCP-Require-Approval: a proposal in the queue. */
const PROPOSE_WRITE = 'propose_write';

/**
 * The agent door: the MCP Streamable HTTP transport, stateless (a new server and transport per
 * request, JSON answers), whose tools are the catalog's operations that declare themselves tools
 * of the server. Like REST and GraphQL it only translates: the executor decides everything.
 */
export function registerMcpDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  settings: McpDoorSettings,
): void {
  const proposeWrite = catalog.get(PROPOSE_WRITE);
  registerServer(app, '/mcp', 'user', catalog, executor, settings, proposeWrite);
  registerServer(app, '/mcp/developer', 'developer', catalog, executor, settings, proposeWrite);
}

function registerServer(
  app: FastifyInstance,
  path: string,
  server: ToolServer,
  catalog: Catalog,
  executor: Executor,
  settings: McpDoorSettings,
  proposeWrite: Operation | undefined,
): void {
  const base = new URL(settings.publicBaseUrl);
  // Building an Ajv instance for every request's server costs more than answering the call.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  app.post(path, async (request, reply) => {
    const refusal = foreignRequest(request, base) ?? connectionRefusal(request);
    if (refusal) return sendRpcError(reply, refusal.status, refusal.code, refusal.message);
    const connection = connectionOf(request);
    // Built at the first message (toolsOf keeps them for the catalog), not at every start.
    const tools = toolsOf(catalog, server);
    // Every message counts against the caller's shares before anything is done for it (initialize
    // and tools/list included); the tool call it makes is paid for by that count.
    try {
      connection.invocation.admission = await executor.admitRequest(connection.invocation);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'RATE_LIMITED') throw error;
      return sendRateLimited(request, reply, error);
    }
    const mcp = new Server(
      { name: `tms-${server}`, version: settings.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: SERVER_INSTRUCTIONS,
        jsonSchemaValidator,
      },
    );
    mcp.setRequestHandler(ListToolsRequestSchema, async () => {
      const caller = connection.invocation.admission?.caller ?? null;
      return {
        tools: [...tools.values()]
          .filter((tool) => executor.mayCall(tool.operation, caller))
          .map((tool) => tool.definition),
      };
    });
    mcp.setRequestHandler(CallToolRequestSchema, async (call) => {
      const tool = tools.get(call.params.name);
      if (!tool) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
      const { api_token: legacyToken, ...args } = call.params.arguments ?? {};
      // A token is read from the connection only; the developer server's deprecated argument aside.
      if (server !== 'developer' || typeof legacyToken !== 'string' || connection.invocation.bearer) {
        return callTool(tool, args, connection, executor, proposeWrite);
      }
      if (settings.clock.now().getTime() > API_TOKEN_END) {
        const removed = new AppError('API_TOKEN_ARGUMENT_REMOVED', { params: { date: API_TOKEN_LAST_DAY } });
        return refused(errorBody(removed, connection.invocation.lang, connection.invocation.requestId));
      }
      const viaArgument = { ...connection, invocation: { ...connection.invocation, bearer: legacyToken } };
      const result = await callTool(tool, args, viaArgument, executor, proposeWrite);
      const deprecation = `The api_token argument is deprecated and ends after ${API_TOKEN_LAST_DAY}: send the token in the connection's Authorization: Bearer header.`;
      const structured = { ...result.structuredContent, deprecation };
      return {
        ...result,
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      };
    });
    // Plain JSON-RPC clients send only application/json; the transport wants both to answer JSON.
    request.raw.headers.accept = 'application/json, text/event-stream';
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // Stateless: there is no session to stream to or to end. Refused on arrival, before any body
  // is read, so a DELETE claiming JSON with no body (or a broken one) is a 405 too, not a 400.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    sendRpcError(
      reply.header('allow', 'POST'),
      405,
      ErrorCode.ConnectionClosed,
      'Method not allowed: POST only, no sessions',
    );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({ method, url: path, onRequest: notAllowed, handler: notAllowed });
  }
}

/** One connection's calls: who calls (the bearer only, never a tool argument) and how. */
interface Connection {
  invocation: Invocation;
  /** X-MCP-Require-Approval: high-risk writes are queued for a person instead of running. */
  requireApproval: boolean;
}

function connectionOf(request: FastifyRequest): Connection {
  return {
    invocation: {
      ...invocationOf(request, 'mcp'),
      scopes: connectionScopes(request) ?? 'all',
      dryRun: isSet(headerOf(request, 'x-mcp-dry-run')),
      confirmed: false,
    },
    requireApproval: isSet(headerOf(request, 'x-mcp-require-approval')),
  };
}

/** X-MCP-Scopes, else X-MCP-Profile's scopes; they narrow the token, never widen it. */
function connectionScopes(request: FastifyRequest): ConnectionScopes | undefined {
  const scopes = headerOf(request, 'x-mcp-scopes');
  if (scopes !== undefined) {
    const named = scopes
      .split(',')
      .map((scope) => scope.trim())
      .filter(Boolean);
    return named.includes('*') ? 'all' : new Set(named);
  }
  const profile = headerOf(request, 'x-mcp-profile');
  if (profile === undefined) return undefined;
  const granted = PROFILES[profile]!;
  return granted === 'all' ? 'all' : new Set(granted);
}

function connectionRefusal(request: FastifyRequest) {
  const profile = headerOf(request, 'x-mcp-profile');
  if (profile !== undefined && !Object.hasOwn(PROFILES, profile)) {
    return {
      status: 400,
      code: ErrorCode.InvalidRequest,
      message: `Unknown X-MCP-Profile ${profile}; profiles: ${Object.keys(PROFILES).join(', ')}`,
    };
  }
  return undefined;
}

/**
 * DNS rebinding protection: a browser page on another site can reach a service on the user's
 * network, but its requests name that site's Origin, or a Host that is not ours. Ours: the public
 * base URL's, or the very address the request reached (an IP literal no other site can be).
 */
function foreignRequest(request: FastifyRequest, base: URL) {
  const origin = headerOf(request, 'origin');
  const host = headerOf(request, 'host')?.toLowerCase();
  const socket = request.raw.socket;
  const local = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
  const hosts = new Set([
    base.host.toLowerCase(),
    `${local}:${socket.localPort}`,
    `localhost:${socket.localPort}`,
  ]);
  const origins = new Set([...hosts].map((name) => `${base.protocol}//${name}`).concat(base.origin));
  if (
    (origin !== undefined && !origins.has(origin.toLowerCase())) ||
    (host !== undefined && !hosts.has(host))
  ) {
    return { status: 403, code: ErrorCode.InvalidRequest, message: 'Origin or Host is not this service' };
  }
  return undefined;
}

async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  connection: Connection,
  executor: Executor,
  proposeWrite: Operation | undefined,
): Promise<CallToolResult> {
  const input = inputOf(tool, args);
  const confirmed = args.confirm === true;
  const operation = tool.operation;
  const invocation: Invocation = { ...connection.invocation, answer: {}, confirmed };
  try {
    // A high-risk write waits in the approval queue when the connection asks for a person's decision.
    const queued = operation.kind === 'mutation' && operation.risk === 'high' && connection.requireApproval;
    if (queued && proposeWrite) {
      const { confirm: _confirm, ...toolArguments } = args;
      const proposal = { tool: tool.name, arguments: toolArguments, reason: 'X-MCP-Require-Approval: 1' };
      const proposed = (await executor.execute(proposeWrite, proposal, invocation)) as { proposal: unknown };
      return answer({ result: true, queued_for_approval: true, proposal: proposed.proposal });
    }
    // An unconfirmed high-risk call does not execute: it previews (a dry run) and says how to go on.
    if (operation.confirm && !confirmed && !invocation.dryRun) {
      const preview = await executor.execute(operation, input, { ...invocation, dryRun: true });
      return refused({
        result: false,
        error_code: 'CONFIRMATION_REQUIRED',
        message: `${tool.name} is high risk and did not run: this is a preview of what it would do. Call it again with confirm: true to execute it.`,
        preview,
      });
    }
    return answer((await executor.execute(operation, input, invocation)) as Record<string, unknown>);
  } catch (error) {
    // A tool call's body was taken by the transport, so no body limit can be what went wrong.
    const appError = toAppError(error, 0);
    const body = errorBody(appError, invocation.lang, invocation.requestId);
    // Arguments that break the tool's input schema are the caller's protocol error, with the details.
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
      const named = errorBody(inArgumentTerms(tool, error), invocation.lang, invocation.requestId);
      throw rpcError(ErrorCode.InvalidParams, named.message, named);
    }
    return refused(body);
  }
}

/**
 * A JSON-RPC error as the SDK sends it: the code, this message as it is, and the data. (An McpError
 * would do, but its message already begins "MCP error -32602:", which clients add again.)
 */
function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

function answer(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

function refused(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/** JSON-RPC code of a message refused for the caller's shares (in the range left to servers). */
export const RATE_LIMITED_RPC_CODE = -32029;

function sendRpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  options: { data?: unknown; id?: unknown } = {},
) {
  return reply
    .code(status)
    .type('application/json')
    .send({
      jsonrpc: '2.0',
      error: { code, message, ...(options.data === undefined ? {} : { data: options.data }) },
      id: options.id ?? null,
    });
}

/**
 * 429 with Retry-After, as every door answers past a share: a JSON-RPC error whose data is the
 * REST error body (RATE_LIMITED, details.retry_after_seconds), answering the message's id.
 */
function sendRateLimited(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body = errorBody(error, request.lang, request.id);
  const message = request.body as { id?: unknown } | undefined;
  const id =
    message && !Array.isArray(message) && (typeof message.id === 'string' || typeof message.id === 'number')
      ? message.id
      : null;
  reply.headers(error.options.headers ?? {}).header('content-language', request.lang);
  return sendRpcError(reply, 429, RATE_LIMITED_RPC_CODE, body.message, { data: body, id });
}

function isSet(header: string | undefined): boolean {
  return header === '1' || header === 'true';
}
