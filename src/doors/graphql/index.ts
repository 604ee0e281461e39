import type { FastifyInstance, FastifyRequest } from 'fastify';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Executor, RequestAdmission } from '../../platform/catalog/executor.ts';
import type { AnswerMeta } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
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
  // Every request counts against the caller's shares once, before it is parsed (whatever it asks
  // for, `__typename` alone included); the first operation it runs is paid for by that count.
  const admissions = new WeakMap<FastifyRequest, Promise<RequestAdmission>>();
  const admissionOf = (request: FastifyRequest): Promise<RequestAdmission> => {
    let admission = admissions.get(request);
    if (!admission) {
      admission = executor.admitRequest(invocationOf(request, 'graphql'));
      admissions.set(request, admission);
    }
    return admission;
  };
  const schema = buildGraphqlSchema(catalog, async (operation, input, context) => {
    const request = (context as MercuriusContext).reply.request;
    try {
      return await executor.execute(operation, input, {
        ...invocationOf(request, 'graphql'),
        answer: answerOf(request),
        admission: await admissionOf(request),
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
  // The caller's budget: a valid bearer token gets the signed-in one.
  const budgetOf = async (request: FastifyRequest): Promise<QueryBudget> =>
    (await admissionOf(request)).caller ? budgets.signedIn : budgets.anonymous;
  // Every request is counted, then measured against the caller's budget before it runs: its size
  // before it is parsed, what it asks for before graphql-js validates it (validation of thousands
  // of fields costs far more than counting them).
  app.graphql.addHook('preParsing', async (_schema, source, context) => {
    checkDocumentSize(source, await budgetOf(context.reply.request));
  });
  app.graphql.addHook('preValidation', async (schema, document, context) => {
    const request = context.reply.request;
    checkQueryBudget(schema, document, variablesOf(request), await budgetOf(request));
  });
  // Each mutation's result type holds dry_run and skipped_effects; the response says it aside
  // too, for the whole request (several mutations, or a caller that did not select them).
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

/** The variables a request sends (a JSON object in a POST body, a JSON string in a GET query). */
function variablesOf(request: FastifyRequest): Record<string, unknown> | undefined {
  const given =
    request.method === 'GET'
      ? (request.query as { variables?: unknown } | undefined)?.variables
      : (request.body as { variables?: unknown } | undefined)?.variables;
  let variables = given;
  if (typeof given === 'string') {
    try {
      variables = JSON.parse(given);
    } catch {
      return undefined;
    }
  }
  return variables !== null && typeof variables === 'object' && !Array.isArray(variables)
    ? (variables as Record<string, unknown>)
    : undefined;
}
