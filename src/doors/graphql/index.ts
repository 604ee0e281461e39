import type { FastifyInstance } from 'fastify';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { bearerOf } from '../../platform/http/server.ts';
import { API_PREFIX } from '../rest/index.ts';
import { graphqlErrorFormatter, toGraphqlError } from './errors.ts';
import { buildGraphqlSchema } from './schema.ts';

const GRAPHIQL_PATH = `${API_PREFIX}/graphiql`;

/**
 * Mercurius's GraphiQL page loads React and GraphiQL from unpkg.com in the browser; this policy
 * lets exactly that through (the inline style is the page's own; fonts come as data: URLs).
 */
const GRAPHIQL_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; form-action 'self'; " +
  "frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self' https://unpkg.com; " +
  "script-src-attr 'none'; style-src 'self' 'unsafe-inline' https://unpkg.com; worker-src 'self'";

/**
 * The GraphQL door: POST and GET /api/graphql over the schema generated from the catalog, and a
 * GraphiQL page at /api/graphiql. Resolvers only translate a call for the executor.
 */
export async function registerGraphqlDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
): Promise<void> {
  const bodyLimitBytes = app.initialConfig.bodyLimit ?? 1_048_576;
  const schema = buildGraphqlSchema(catalog, async (operation, input, context) => {
    const request = (context as MercuriusContext).reply.request;
    try {
      return await executor.execute(operation, input, {
        bearer: bearerOf(request),
        door: 'graphql',
        lang: request.lang,
        requestId: request.id,
        ip: request.ip,
        dryRun: false,
      });
    } catch (error) {
      throw toGraphqlError(error, request, bodyLimitBytes);
    }
  });

  // A scope of its own under /api: the GraphiQL policy hook applies to mercurius's routes only.
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        if (request.routeOptions.url === GRAPHIQL_PATH) reply.header('content-security-policy', GRAPHIQL_CSP);
      });
      await scope.register(mercurius, {
        schema,
        path: '/graphql',
        graphiql: true,
        errorFormatter: graphqlErrorFormatter(bodyLimitBytes),
      });
    },
    { prefix: API_PREFIX },
  );
}
