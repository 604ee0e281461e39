import { z } from 'zod';
import { defineOperation, type Operation, type OperationContext } from '../../platform/catalog/operation.ts';

/**
 * What an integrator learns the API from, as the composition root knows it (the catalog, the
 * doors, the guides): this module only answers it, it does not reach into the doors.
 */
export interface ApiSurface {
  endpoints(): Endpoint[];
  graphqlOperations(): GraphqlOperation[];
  /** Runs a GraphQL document as the context's caller, inside its transaction (dry run included). */
  runGraphql(
    ctx: OperationContext,
    request: { query: string; variables?: Record<string, unknown>; operationName?: string },
  ): Promise<{ data?: unknown; errors?: unknown[] }>;
  /** A guide in Markdown, the same the service serves to people, and where. */
  guide(name: GuideName): { url: string; markdown: string };
  /** The agent guidance file as served: its version, the MD5 of its bytes, where to download it. */
  skill(): { version: string; hash: string; download_url: string };
}

export const GUIDES = ['integration', 'otep', 'webhooks'] as const;
export type GuideName = (typeof GUIDES)[number];

const endpointSchema = z.object({
  method: z.string(),
  path: z.string(),
  operation: z.string(),
  summary: z.string(),
  tag: z.string(),
  auth: z.enum(['public', 'token', 'provider_key']),
  scopes: z.array(z.string()),
  risk: z.string(),
  confirm: z.boolean(),
  parameters: z.array(
    z.object({ name: z.string(), in: z.string(), required: z.boolean(), type: z.string() }),
  ),
});
export type Endpoint = z.input<typeof endpointSchema>;

const graphqlOperationSchema = z.object({
  type: z.enum(['query', 'mutation']),
  field: z.string(),
  operation: z.string(),
  summary: z.string(),
  auth: z.enum(['public', 'token', 'provider_key']),
  scopes: z.array(z.string()),
  arguments: z.array(z.object({ name: z.string(), type: z.string() })),
});
export type GraphqlOperation = z.input<typeof graphqlOperationSchema>;

const guideAnswer = z.object({
  result: z.literal(true),
  format: z.literal('markdown'),
  url: z.string(),
  content: z.string(),
});

/** Words of a search, each to be found in the text (case-insensitive). */
const matches = (words: string | undefined, ...texts: string[]) => {
  const haystack = texts.join(' ').toLowerCase();
  return (words ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
};

export function developerOperations(surface: ApiSurface): Operation[] {
  const guide = (
    name: GuideName,
    toolName: string,
    summary: string,
    description: string,
    guideText: string,
  ) =>
    defineOperation({
      name: `get_${name}_guide`,
      summary,
      description,
      tag: 'Developer',
      kind: 'query',
      risk: 'low',
      tool: { developer: toolName, guide: guideText, idempotent: true },
      access: { public: true },
      rest: { method: 'GET', path: `/v1/developer/guides/${name}` },
      input: z.object({}),
      output: guideAnswer,
      handler: async () => ({
        result: true as const,
        format: 'markdown' as const,
        ...guideAnswerOf(surface.guide(name)),
      }),
    });
  return [
    defineOperation({
      name: 'get_api_endpoints',
      summary: 'Search the REST catalog by words, tag or path',
      description:
        'Search by words, tag or path prefix: method, path, summary, parameters, auth and scopes of each endpoint. Use it before writing an HTTP call.',
      tag: 'Developer',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_api_endpoints',
        guide:
          'Find REST endpoints by words (in the summary, operation name or path), tag or path prefix: method, path, summary, parameters, auth and scopes. Use it before writing an HTTP call.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'GET', path: '/v1/developer/endpoints' },
      input: z.object({
        query: z.string().max(200).optional().describe('Words that must all appear'),
        tag: z.string().max(100).optional(),
        path: z.string().max(300).optional().describe('A path prefix, e.g. /api/v1/client/orders'),
      }),
      output: z.object({ result: z.literal(true), endpoints: z.array(endpointSchema) }),
      handler: async (_ctx, input) => ({
        result: true as const,
        endpoints: surface
          .endpoints()
          .filter(
            (endpoint) =>
              matches(input.query, endpoint.summary, endpoint.operation, endpoint.path) &&
              (!input.tag || endpoint.tag.toLowerCase() === input.tag.toLowerCase()) &&
              (!input.path || endpoint.path.startsWith(input.path)),
          ),
      }),
    }),
    defineOperation({
      name: 'get_graphql_operations',
      summary: 'The GraphQL queries and mutations, with their arguments, auth and scopes',
      description:
        'Each query and mutation with its arguments, auth and scopes, optionally matching words; run one with run_graphql_query.',
      tag: 'Developer',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_graphql_operations',
        guide:
          'List the GraphQL queries and mutations (optionally matching words) with their arguments, auth and scopes; then call run_graphql_query with a document.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'GET', path: '/v1/developer/graphql-operations' },
      input: z.object({ query: z.string().max(200).optional().describe('Words that must all appear') }),
      output: z.object({ result: z.literal(true), operations: z.array(graphqlOperationSchema) }),
      handler: async (_ctx, input) => ({
        result: true as const,
        operations: surface
          .graphqlOperations()
          .filter((operation) =>
            matches(input.query, operation.field, operation.operation, operation.summary),
          ),
      }),
    }),
    defineOperation({
      name: 'run_graphql_query',
      summary: 'Run a GraphQL query or mutation as the caller',
      description:
        "Runs the document against the service's GraphQL schema with the caller's rights: every field checks its own " +
        'account kinds and scopes. Mutations run in this call’s transaction, so a dry run leaves nothing.',
      tag: 'Developer',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        developer: 'run_graphql_query',
        guide:
          'Run a GraphQL query or mutation (with variables) as your connection, with exactly your rights; honours X-MCP-Dry-Run. Find the operations with get_graphql_operations first.',
      },
      access: { kinds: 'any', delegates: true },
      rest: { method: 'POST', path: '/v1/developer/graphql' },
      input: z.object({
        query: z.string().min(1).max(20_000).describe('A GraphQL document'),
        variables: z.record(z.string(), z.unknown()).optional(),
        operation_name: z.string().max(200).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        data: z.unknown().describe('What GraphQL answered, or null'),
        errors: z.array(z.unknown()).optional().describe('GraphQL errors, each with extensions.error_code'),
      }),
      handler: async (ctx, input) => ({
        result: true as const,
        data: null,
        ...(await surface.runGraphql(ctx, {
          query: input.query,
          variables: input.variables,
          operationName: input.operation_name,
        })),
      }),
    }),
    defineOperation({
      name: 'check_skill_update',
      summary: 'Whether the agent guidance file a client holds is the one served',
      description:
        'Give the MD5 of the copy of the guidance file a client holds (GET /api/ai-skill): the answer says whether a newer one is served, with its version, hash and download URL.',
      tag: 'Developer',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'check_skill_update',
        guide:
          'Give the MD5 of your local copy of the agent guidance file (GET /api/ai-skill); answers whether a newer one is served, its version, hash and download URL.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'GET', path: '/v1/developer/skill-update' },
      input: z.object({
        current_hash: z
          .string()
          .regex(/^[0-9a-fA-F]{32}$/)
          .describe('MD5 of the local file, hex'),
      }),
      output: z.object({
        result: z.literal(true),
        update_available: z.boolean(),
        version: z.string(),
        hash: z.string(),
        download_url: z.string(),
      }),
      handler: async (_ctx, input) => {
        const skill = surface.skill();
        return {
          result: true as const,
          update_available: input.current_hash.toLowerCase() !== skill.hash,
          ...skill,
        };
      },
    }),
    guide(
      'integration',
      'get_integration_guide',
      'The integration guide (Markdown)',
      'Authentication, the doors (REST, GraphQL, MCP), first calls, errors and limits, in Markdown. Read it before building an integration.',
      'The integration guide in Markdown: authentication, the doors (REST, GraphQL, MCP), first calls, errors, limits. Read it before building an integration.',
    ),
    guide(
      'otep',
      'get_otep_guide',
      'The OTEP tracking protocol guide (Markdown)',
      'The event model, the codebook of statuses, phases and reasons, and how to push events, in Markdown. Read it before sending tracking events.',
      'The OTEP guide in Markdown: the event model, the codebook of statuses, phases and reasons, and how to push events. Read it before sending tracking events.',
    ),
    guide(
      'webhooks',
      'get_webhook_guide',
      'The webhook guide (Markdown)',
      'Event kinds and their payloads, signing (v1 and Standard Webhooks v2), retries and replay, in Markdown. Read it before receiving webhooks.',
      'The webhook guide in Markdown: event kinds and payloads, signing (v1 and Standard Webhooks v2), retries, replay. Read it before receiving webhooks.',
    ),
  ];
}

/** A guide as the tool answers it: the Markdown is the answer's `content`. */
function guideAnswerOf(guide: { url: string; markdown: string }) {
  return { url: guide.url, content: guide.markdown };
}
