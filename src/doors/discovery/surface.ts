import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GraphQLError, graphql, parse, validate } from 'graphql';
import type { ApiSurface, Endpoint, GraphqlOperation, GuideName } from '../../modules/developer/index.ts';
import { guideMarkdown } from '../../modules/tracking/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Operation, OperationContext } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isAppError } from '../../platform/errors.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { PROJECT_ROOT } from '../../platform/project.ts';
import { checkDocumentSize, checkQueryBudget, type QueryBudgets } from '../graphql/limits.ts';
import { buildGraphqlSchema } from '../graphql/schema.ts';
import { type JsonSchema, jsonSchemaOf } from '../json-schema.ts';
import { skillMarkdown } from './skill.ts';

const DOCS = pathToFileURL(path.join(PROJECT_ROOT, 'docs/'));

/** How an operation is called: publicly, with a bearer token, or with a tracking provider's key. */
export function authOf(operation: Operation): 'public' | 'token' | 'provider_key' {
  if (operation.access.public) return 'public';
  return 'kinds' in operation.access ? 'token' : 'provider_key';
}

export function scopesOf(operation: Operation): string[] {
  return 'kinds' in operation.access ? [...(operation.access.scopes ?? [])] : [];
}

/**
 * What integrators learn the API from, read from the catalog and the docs once the catalog and
 * the executor exist (the developer module's ApiSurface).
 */
export class CatalogSurface implements ApiSurface {
  private wiring?: { catalog: Catalog; executor: Executor };
  private connected?: {
    catalog: Catalog;
    executor: Executor;
    endpoints: Endpoint[];
    graphqlOperations: GraphqlOperation[];
    skill: { markdown: string; version: string; hash: string };
  };
  private schema?: ReturnType<typeof buildGraphqlSchema>;

  constructor(
    private readonly settings: { publicBaseUrl: string; budgets: QueryBudgets; apiVersion: string },
  ) {}

  connect(catalog: Catalog, executor: Executor): void {
    this.wiring = { catalog, executor };
  }

  /**
   * Built at its first use (a discovery answer, a developer tool), not at every start: a fifth of
   * a second of the start's work (bench/README.md, "Starting the service").
   */
  private build(catalog: Catalog, executor: Executor): NonNullable<CatalogSurface['connected']> {
    const operations = catalog.list();
    const skill = skillMarkdown(catalog, this.settings.publicBaseUrl);
    const hash = createHash('md5').update(skill).digest('hex');
    return {
      catalog,
      executor,
      endpoints: operations.flatMap((operation) => (operation.rest ? [endpointOf(operation)] : [])),
      graphqlOperations: operations.flatMap((operation) =>
        operation.graphql ? [graphqlOperationOf(operation)] : [],
      ),
      // The version moves with the bytes: a client comparing versions sees every change.
      skill: { markdown: skill, hash, version: `${this.settings.apiVersion}-${hash.slice(0, 12)}` },
    };
  }

  endpoints(): Endpoint[] {
    return this.runtime().endpoints;
  }

  graphqlOperations(): GraphqlOperation[] {
    return this.runtime().graphqlOperations;
  }

  async runGraphql(
    ctx: OperationContext,
    request: { query: string; variables?: Record<string, unknown>; operationName?: string },
  ): Promise<{ data?: unknown; errors?: unknown[] }> {
    const { catalog, executor } = this.runtime();
    // The same schema as the GraphQL door, its fields run as this call's caller, in its transaction.
    this.schema ??= buildGraphqlSchema(catalog, async (operation, input, context) => {
      const outer = (context as { ctx: OperationContext }).ctx;
      try {
        return await executor.runWithin(outer, operation, input);
      } catch (error) {
        if (!isAppError(error)) throw error;
        const body = errorBody(error, outer.lang, outer.requestId);
        throw new GraphQLError(body.message, {
          extensions: {
            error_code: body.error_code,
            status: error.status,
            ...(body.details ? { details: body.details } : {}),
          },
        });
      }
    });
    const schema = this.schema;
    const budget = this.settings.budgets.signedIn;
    try {
      checkDocumentSize(request.query, budget);
      const document = parse(request.query);
      const invalid = validate(schema, document);
      if (invalid.length > 0) return { data: null, errors: invalid.map((error) => error.toJSON()) };
      checkQueryBudget(schema, document, request.variables ?? {}, budget);
    } catch (error) {
      if (error instanceof GraphQLError) return { data: null, errors: [error.toJSON()] };
      if (!isAppError(error)) throw error;
      const body = errorBody(error, ctx.lang, ctx.requestId);
      return { data: null, errors: [{ message: body.message, extensions: { error_code: body.error_code } }] };
    }
    const result = await graphql({
      schema,
      source: request.query,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: { ctx },
    });
    return {
      data: result.data ?? null,
      ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
    };
  }

  guide(name: GuideName): { url: string; markdown: string } {
    const base = this.settings.publicBaseUrl;
    if (name === 'otep') return { url: `${base}/api/otep-guide.md`, markdown: guideMarkdown(base) };
    return { url: `${base}/api/guides/${name}.md`, markdown: GUIDE_FILES[name] };
  }

  skill(): { version: string; hash: string; download_url: string } {
    const { version, hash } = this.runtime().skill;
    return { version, hash, download_url: `${this.settings.publicBaseUrl}/api/ai-skill` };
  }

  /** The guidance file's exact bytes. */
  skillFile(): string {
    return this.runtime().skill.markdown;
  }

  private runtime() {
    if (this.connected) return this.connected;
    if (!this.wiring) throw new Error('The API surface is not connected to a catalog and executor yet');
    this.connected = this.build(this.wiring.catalog, this.wiring.executor);
    return this.connected;
  }
}

/** The guides people read in docs/, served as they are. */
const GUIDE_FILES: Record<Exclude<GuideName, 'otep'>, string> = {
  integration: readFileSync(new URL('integration.md', DOCS), 'utf8'),
  webhooks: [
    readFileSync(new URL('webhooks.md', DOCS), 'utf8'),
    readFileSync(new URL('webhooks-signing.md', DOCS), 'utf8'),
  ].join('\n\n'),
};

function endpointOf(operation: Operation): Endpoint {
  const binding = operation.rest!;
  const input = jsonSchemaOf(operation.input, 'input') as JsonSchema;
  const inPath = new Set([...binding.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!));
  const required = new Set(input.required ?? []);
  return {
    method: binding.method,
    path: `/api${binding.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`,
    operation: operation.name,
    summary: operation.summary,
    tag: operation.tag,
    auth: authOf(operation),
    scopes: scopesOf(operation),
    risk: operation.risk,
    confirm: operation.confirm === true,
    parameters: Object.entries(input.properties ?? {}).map(([name, schema]) => ({
      name,
      in: inPath.has(name)
        ? 'path'
        : binding.method === 'GET' || binding.method === 'DELETE'
          ? 'query'
          : 'body',
      required: inPath.has(name) || required.has(name),
      type: typeOf(schema),
    })),
  };
}

function graphqlOperationOf(operation: Operation): GraphqlOperation {
  const input = jsonSchemaOf(operation.input, 'input') as JsonSchema;
  return {
    type: operation.kind,
    field: operation.graphql!,
    operation: operation.name,
    summary: operation.summary,
    auth: authOf(operation),
    scopes: scopesOf(operation),
    arguments: Object.entries(input.properties ?? {}).map(([name, schema]) => ({
      name,
      type: typeOf(schema),
    })),
  };
}

/** A JSON Schema type in a word or two: integer, string[], object, ... */
function typeOf(schema: JsonSchema): string {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type) => type && type !== 'null',
  );
  if (types[0] === 'array') {
    const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    return `${items ? typeOf(items) : 'any'}[]`;
  }
  if (types.length > 0) return types.join(' | ');
  if (schema.enum) return 'string';
  const branches = schema.anyOf ?? schema.oneOf;
  return branches
    ? [...new Set(branches.map(typeOf))].filter((type) => type !== 'any').join(' | ') || 'any'
    : 'any';
}
