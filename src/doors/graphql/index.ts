import type { FastifyInstance, FastifyRequest } from 'fastify';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { AnswerMeta } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { bearerOf } from '../../platform/http/server.ts';
import { invocationOf } from '../invocation.ts';
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
  // One request may run several operations: what their runs say about themselves (a dry run,
  // its skipped effects) gathers here, for the response's extensions.
  const answersOfRequests = new WeakMap<FastifyRequest, AnswerMeta>();
  const answerOf = (request: FastifyRequest): AnswerMeta => {
    let answer = answersOfRequests.get(request);
    if (!answer) {
      answer = {};
      answersOfRequests.set(request, answer);
    }
    return answer;
  };
  const schema = buildGraphqlSchema(catalog, async (operation, input, context) => {
    const request = (context as MercuriusContext).reply.request;
    try {
      return await executor.execute(operation, input, {
        ...invocationOf(request, 'graphql'),
        answer: answerOf(request),
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
  // GraphQL types cannot grow a dry_run field: a dry run says so, and what it skipped, aside.
  app.graphql.addHook('onResolution', async (execution, context) => {
    const request = context.reply.request;
    if (!invocationOf(request, 'graphql').dryRun) return;
    execution.extensions = {
      ...execution.extensions,
      dry_run: true,
      skipped_effects: answersOfRequests.get(request)?.skippedEffects ?? [],
    };
  });
  registerGraphiql(app, `${API_PREFIX}/graphiql`, `${API_PREFIX}/graphql`);
}
