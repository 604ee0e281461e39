import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { bytesTag, sendNotModified } from '../../platform/http/etag.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { PER_PAGE } from '../../platform/pagination.ts';
import { CONNECTION_HEADERS } from '../mcp/index.ts';
import { describeWithAccess, type Tool, type ToolServer, toolsOf } from '../mcp/tools.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { authOf, type CatalogSurface, scopesOf } from './surface.ts';

export interface DiscoverySettings {
  publicBaseUrl: string;
  apiVersion: string;
  otepVersion: string;
  bodyLimitBytes: number;
  /** The profiles of agent connections and the scopes each grants (['*']: all). */
  profiles: Record<string, string[]>;
  trackingFormats: readonly string[];
  /** The optional modules the system offers now, read when asked. */
  systemModules: () => Promise<Record<string, boolean>>;
}

const FORMATS = ['mcp', 'openai', 'anthropic', 'langchain'] as const;
type Format = (typeof FORMATS)[number];

/**
 * Discovery for developers and coding agents, public and cacheable (strong ETags): the tools in
 * four ecosystems' shapes, the tools as OpenAPI and GraphQL, the deployment's capabilities, the
 * well-known manifest, llms.txt, the guides and the agent guidance file. All of it is read from the
 * catalog, so it cannot drift from what the service does.
 */
export function registerDiscovery(
  app: FastifyInstance,
  catalog: Catalog,
  surface: CatalogSurface,
  settings: DiscoverySettings,
): void {
  const base = settings.publicBaseUrl;
  const servers: Record<ToolServer, Map<string, Tool>> = {
    user: toolsOf(catalog, 'user'),
    developer: toolsOf(catalog, 'developer'),
  };

  app.get('/api/ai/tools', async (request, reply) => {
    const query = request.query as { format?: string; server?: string };
    const format = (query.format ?? 'mcp') as Format;
    const server = (query.server ?? 'user') as ToolServer;
    if (!FORMATS.includes(format) || !(server in servers)) {
      throw new AppError('BAD_REQUEST', {
        details: { format: { allowed: FORMATS }, server: { allowed: Object.keys(servers) } },
      });
    }
    return cached(
      request,
      reply,
      'application/json',
      JSON.stringify(toolDocument([...servers[server].values()], format, server)),
    );
  });

  app.get('/api/ai/tools/openapi', async (request, reply) => {
    // The callable operations behind the tools of both servers, as an OpenAPI 3.1 document.
    const document = buildOpenApiDocument(catalog, { serverUrl: `${base}/api` }) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      info: { title: string; description?: string };
    };
    const tooled = new Set(
      catalog
        .list()
        .filter((operation) => operation.tool)
        .map((operation) => operation.name),
    );
    const paths = Object.fromEntries(
      Object.entries(document.paths)
        .map(([path, methods]) => [
          path,
          Object.fromEntries(
            Object.entries(methods).filter(([, operation]) => tooled.has(operation.operationId)),
          ),
        ])
        .filter(([, methods]) => Object.keys(methods as object).length > 0),
    );
    const tools = {
      ...document,
      info: { ...document.info, title: `${document.info.title}: agent tools` },
      paths,
    };
    return cached(request, reply, 'application/json', JSON.stringify(tools));
  });

  app.get('/api/ai/tools/graphql', async (request, reply) =>
    cached(
      request,
      reply,
      'application/json',
      JSON.stringify({ endpoint: `${base}/api/graphql`, operations: surface.graphqlOperations() }),
    ),
  );

  app.get('/api/ai/capabilities', async (request, reply) => {
    const capabilities = {
      service: 'tms',
      api_version: settings.apiVersion,
      otep_version: settings.otepVersion,
      doors: {
        rest: `${base}/api`,
        openapi: `${base}/api/openapi.json`,
        graphql: `${base}/api/graphql`,
        mcp_user: `${base}/mcp`,
        mcp_developer: `${base}/mcp/developer`,
        approvals_page: `${base}/mcp-approvals`,
        tracking_page: `${base}/track`,
      },
      auth: {
        methods: ['bearer_token', 'tracking_provider_key'],
        obtain_token: `${base}/api/v1/user/login`,
        connection_headers: [...CONNECTION_HEADERS],
      },
      profiles: settings.profiles,
      modules: await settings.systemModules(),
      languages: [...LANGUAGES],
      tracking_formats: [...settings.trackingFormats],
      tools: { user: servers.user.size, developer: servers.developer.size },
      limits: {
        bulk_create_orders: 100,
        per_page_max: PER_PAGE.max,
        body_limit_bytes: settings.bodyLimitBytes,
      },
    };
    return cached(request, reply, 'application/json', JSON.stringify(capabilities));
  });

  const manifest = () =>
    JSON.stringify({
      schema_version: '1.0',
      name: 'TMS',
      description: 'Transport management: orders, routes, drivers, contractors and package tracking (OTEP).',
      servers: [
        { name: 'user', transport: 'streamable-http', url: `${base}/mcp` },
        { name: 'developer', transport: 'streamable-http', url: `${base}/mcp/developer` },
      ],
      discovery: {
        tools: `${base}/api/ai/tools`,
        tools_openapi: `${base}/api/ai/tools/openapi`,
        tools_graphql: `${base}/api/ai/tools/graphql`,
        capabilities: `${base}/api/ai/capabilities`,
        openapi: `${base}/api/openapi.json`,
        llms_txt: `${base}/llms.txt`,
      },
      auth: { type: 'bearer', header: 'Authorization', obtain: `${base}/api/v1/user/login` },
      guidance: { url: `${base}/api/ai-skill`, version: `${base}/api/ai-skill/version` },
    });
  for (const path of ['/.well-known/ai-tools.json', '/api/.well-known/ai-tools.json']) {
    app.get(path, async (request, reply) => cached(request, reply, 'application/json', manifest()));
  }

  const llms = () =>
    [
      '# TMS',
      '',
      '> Open-source transport management service: orders, drivers, routes, contractors, and package tracking through',
      '> the open event protocol OTEP, over REST, GraphQL and MCP agent servers generated from one operation catalog.',
      '',
      `Agents connect to ${base}/mcp (operations) or ${base}/mcp/developer (integration) with a bearer token.`,
      '',
      '## Guides',
      '',
      `- [Integration guide](${base}/api/guides/integration.md): authentication, doors, first calls, errors`,
      `- [Agent guidance file](${base}/api/ai-skill): servers, profiles, confirm and approval rules, workflows`,
      `- [OTEP guide](${base}/api/otep-guide.md): the tracking event protocol and its codebook`,
      `- [Webhook guide](${base}/api/guides/webhooks.md): events, signatures, retries`,
      '',
      '## API',
      '',
      `- [OpenAPI document](${base}/api/openapi.json): every REST operation`,
      `- [Agent tools](${base}/api/ai/tools): the MCP tools (also ?format=openai|anthropic|langchain)`,
      `- [Capabilities](${base}/api/ai/capabilities): what this deployment offers`,
      '',
    ].join('\n');
  for (const path of ['/llms.txt', '/api/llms.txt']) {
    app.get(path, async (request, reply) => cached(request, reply, 'text/plain; charset=utf-8', llms()));
  }

  app.get('/api/ai-skill', async (request, reply) =>
    cached(request, reply, 'text/markdown; charset=utf-8', surface.skillFile()),
  );
  app.get('/api/ai-skill/version', async (request, reply) => {
    const { version, hash, download_url } = surface.skill();
    return cached(request, reply, 'application/json', JSON.stringify({ version, hash, download_url }));
  });

  for (const name of ['integration', 'webhooks'] as const) {
    app.get(`/api/guides/${name}.md`, async (request, reply) =>
      cached(request, reply, 'text/markdown; charset=utf-8', surface.guide(name).markdown),
    );
  }
}

/** The tools in one ecosystem's shape; auth, risk, scopes and confirm where each keeps metadata. */
function toolDocument(tools: Tool[], format: Format, server: ToolServer) {
  const access = (tool: Tool) => ({
    auth: authOf(tool.operation),
    risk: tool.operation.risk,
    scopes: scopesOf(tool.operation),
    confirm: tool.operation.confirm === true,
  });
  const metadata = (tool: Tool) => ({ ...access(tool), server });
  switch (format) {
    case 'mcp':
      // The server is the whole list's, said once: the list stays within the tool-list budget.
      return {
        _meta: { 'tms/server': server },
        tools: tools.map((tool) => ({ ...tool.definition, _meta: { 'tms/access': access(tool) } })),
      };
    case 'openai':
      // OpenAI's function tools have no metadata field: the description already states access and risk.
      return tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          description: describeWithAccess(tool),
          parameters: tool.definition.inputSchema,
        },
      }));
    case 'anthropic':
      // Anthropic's tool definitions take no metadata either: the description carries it.
      return tools.map((tool) => ({
        name: tool.name,
        description: describeWithAccess(tool),
        input_schema: tool.definition.inputSchema,
      }));
    case 'langchain':
      return tools.map((tool) => ({
        name: tool.name,
        description: tool.definition.description,
        schema: tool.definition.inputSchema,
        metadata: metadata(tool),
      }));
  }
}

/** A public, cacheable answer with a strong ETag; 304 to a caller that holds it. */
function cached(request: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  reply.header('cache-control', 'public, max-age=300');
  if (sendNotModified(request, reply, bytesTag(body))) return reply;
  return reply.type(type).send(body);
}
