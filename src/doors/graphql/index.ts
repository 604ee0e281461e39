import type { FastifyInstance } from 'fastify';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { bearerOf } from '../../platform/http/server.ts';
import { API_PREFIX } from '../rest/index.ts';
import { graphqlErrorFormatter, toGraphqlError } from './errors.ts';
import { registerGraphiql } from './graphiql.ts';
import { checkQueryBudget, QUERY_BUDGETS } from './limits.ts';
import { buildGraphqlSchema } from './schema.ts';

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

  await app.register(mercurius, {
    schema,
    path: `${API_PREFIX}/graphql`,
    errorFormatter: graphqlErrorFormatter(bodyLimitBytes),
  });
  // Every request, cached document or not, is measured against the caller's budget before it runs.
  app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
    const caller = await executor.callerOf(bearerOf(context.reply.request));
    checkQueryBudget(schema, document, variables, caller ? QUERY_BUDGETS.signedIn : QUERY_BUDGETS.anonymous);
  });
  registerGraphiql(app, `${API_PREFIX}/graphiql`, `${API_PREFIX}/graphql`);
}
