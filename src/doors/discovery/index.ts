import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError } from '../../platform/errors.ts';
import { bytesTag, sendNotModified } from '../../platform/http/etag.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { PER_PAGE } from '../../platform/pagination.ts';
import { CONNECTION_HEADERS } from '../mcp/index.ts';
import { type Tool, type ToolServer, toolsOf } from '../mcp/tools.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { CatalogSurface } from './surface.ts';
import { TOOL_FORMATS, type ToolFormat, type ToolPage, toolPage, toolsOfProfile } from './tool-pages.ts';

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
  // Built at the first list asked for (toolsOf keeps them for the catalog).
  const servers = {
    get user() {
      return toolsOf(catalog, 'user');
    },
    get developer() {
      return toolsOf(catalog, 'developer');
    },
  } satisfies Record<ToolServer, Map<string, Tool>>;

  const pages = new Map<string, ToolPage>();
  app.get('/api/ai/tools', async (request, reply) => {
    const query = request.query as { format?: string; server?: string; profile?: string; cursor?: string };
    const format = (query.format ?? 'mcp') as ToolFormat;
    const server = (query.server ?? 'user') as ToolServer;
    const granted = query.profile === undefined ? ['*'] : settings.profiles[query.profile];
    if (!TOOL_FORMATS.includes(format) || !(server in servers) || !granted) {
      throw new AppError('BAD_REQUEST', {
        details: {
          format: { allowed: TOOL_FORMATS },
          server: { allowed: Object.keys(servers) },
          profile: { allowed: Object.keys(settings.profiles) },
        },
      });
    }
    const key = JSON.stringify([format, server, query.profile, query.cursor]);
    const page =
      pages.get(key) ??
      toolPage(toolsOfProfile([...servers[server].values()], granted), format, server, query.cursor);
    pages.set(key, page);
    if (page.next) {
      const next = new URLSearchParams({
        format,
        server,
        ...(query.profile ? { profile: query.profile } : {}),
      });
      next.set('cursor', page.next);
      reply.header('link', `<${base}/api/ai/tools?${next}>; rel="next"`);
    }
    return cached(request, reply, 'application/json', page.body);
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
      `- [Agent tools](${base}/api/ai/tools): the MCP tools, a page at a time (nextCursor, or the Link header; also ?format=openai|anthropic|langchain, ?profile=)`,
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

/** A public, cacheable answer with a strong ETag; 304 to a caller that holds it. */
function cached(request: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  reply.header('cache-control', 'public, max-age=300');
  if (sendNotModified(request, reply, bytesTag(body))) return reply;
  return reply.type(type).send(body);
}
