import type { FastifyInstance, FastifyRequest } from 'fastify';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { bearerOf } from '../../platform/http/server.ts';
import { API_PREFIX } from '../rest/index.ts';
import { graphqlErrorFormatter, toGraphqlError } from './errors.ts';
import { registerGraphiql } from './graphiql.ts';
import { checkDocumentSize, checkQueryBudget, type QueryBudget, type QueryBudgets } from './limits.ts';
import { buildGraphqlSchema } from './schema.ts';

/**
 * The GraphQL door: POST and GET /api/graphql over the schema generated from the catalog, and a
 * GraphiQL page at /api/graphiql. Resolvers only translate a call for the executor.
 */
export async function registerGraphqlDoor(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  budgets: QueryBudgets,
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
    // Mercurius would keep up to 4,096 parsed documents, valid or not, each some 100 times the
    // size of its tokens' text: a stream of distinct documents could fill the memory. Parsing and
    // validating again costs about 0.2 ms for an everyday query.
    cache: false,
  });
  // The caller's budget, found once per request: a valid bearer token gets the signed-in one.
  const budgetsOfRequests = new WeakMap<FastifyRequest, Promise<QueryBudget>>();
  const budgetOf = (request: FastifyRequest): Promise<QueryBudget> => {
    let budget = budgetsOfRequests.get(request);
    if (!budget) {
      budget = executor
        .callerOf(bearerOf(request))
        .then((caller) => (caller ? budgets.signedIn : budgets.anonymous));
      budgetsOfRequests.set(request, budget);
    }
    return budget;
  };
  // Every request is measured against the caller's budget before it runs: its size before it is
  // parsed, what it asks for once it is valid.
  app.graphql.addHook('preParsing', async (_schema, source, context) => {
    checkDocumentSize(source, await budgetOf(context.reply.request));
  });
  app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
    checkQueryBudget(schema, document, variables, await budgetOf(context.reply.request));
  });
  registerGraphiql(app, `${API_PREFIX}/graphiql`, `${API_PREFIX}/graphql`);
}
