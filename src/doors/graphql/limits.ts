import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  Lexer,
  Source,
  TokenKind,
  type ValidationContext,
  validate,
} from 'graphql';
import { type ComplexityEstimatorArgs, getComplexity } from 'graphql-query-complexity';
import { AppError } from '../../platform/errors.ts';

/** How much one GraphQL request may ask for: checked before anything runs. */
export interface QueryBudget {
  /** Tokens of the document (names, punctuation, values), counted before it is parsed. */
  tokens: number;
  /** Nesting of selections (introspection not counted). */
  depth: number;
  /** Aliased fields: the way to ask for one expensive field many times in one request. */
  aliases: number;
  /** The cost model below, summed over the request. */
  cost: number;
}

/** Anonymous callers reach only the public reads; signed-in callers get room for real pages. */
export interface QueryBudgets {
  anonymous: QueryBudget;
  signedIn: QueryBudget;
}

/** Each root field runs an operation: a database round trip at least. */
const OPERATION_COST = 10;
/** Arguments that say how many items a list holds. */
const PAGE_SIZE_ARGUMENTS = ['per_page', 'limit', 'first'];

/**
 * The cost model: every field costs 1, a root field 10 more; a field whose arguments size a
 * page (`per_page`, `limit`, `first`) or carry a list of inputs (many tracking numbers, many
 * orders) multiplies the cost of what is selected under it by that size. Introspection is free,
 * so GraphiQL and code generators always work.
 */
function estimateCost({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (field.name.startsWith('__') || type.name.startsWith('__')) return 0;
  const sizes = [
    ...PAGE_SIZE_ARGUMENTS.map((name) => args[name]).filter(
      (value): value is number => typeof value === 'number',
    ),
    ...Object.values(args)
      .filter(Array.isArray)
      .map((list) => list.length),
  ];
  const size = Math.max(1, ...sizes);
  const root = ['Query', 'Mutation', 'Subscription'].includes(type.name);
  return (root ? 1 + OPERATION_COST : 1) + size * childComplexity;
}

/**
 * Refuses a document of more tokens than the budget allows, before graphql-js parses and validates
 * it: a large document costs that work whatever it asks for, and never reaches the executor's
 * request limits. A document the lexer cannot read is left to the parser to refuse.
 */
export function checkDocumentSize(source: string, budget: QueryBudget): void {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) tokens++;
  } catch {
    // Counted up to the unreadable part: over budget already, or the parser's to refuse.
  }
  if (tokens > budget.tokens)
    throw overBudget({ measure: 'tokens', limit: budget.tokens, found: tokens }, budget);
}

/**
 * Refuses a request over its budget with QUERY_TOO_COMPLEX, naming what went over: the depth,
 * the aliases (both counted by GraphQL Armor's rules) or the cost (graphql-query-complexity).
 */
export function checkQueryBudget(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  budget: QueryBudget,
): void {
  const over: Array<{ measure: string; limit: number; found: number }> = [];
  const refusal =
    (measure: string, limit: number) => (_context: ValidationContext | null, error: GraphQLError) => {
      const found = Number(/found (\d+)/.exec(error.message)?.[1] ?? limit + 1);
      over.push({ measure, limit, found });
    };
  validate(schema, document, [
    maxDepthRule({
      n: budget.depth,
      propagateOnRejection: false,
      onReject: [refusal('depth', budget.depth)],
    }),
    maxAliasesRule({
      n: budget.aliases,
      propagateOnRejection: false,
      onReject: [refusal('aliases', budget.aliases)],
    }),
  ]);
  if (over.length === 0) {
    const cost = costOf(schema, document, variables);
    if (cost !== undefined && cost > budget.cost)
      over.push({ measure: 'cost', limit: budget.cost, found: cost });
  }
  const [first] = over;
  if (first) throw overBudget(first, budget);
}

function overBudget(over: { measure: string; limit: number; found: number }, budget: QueryBudget): AppError {
  return new AppError('QUERY_TOO_COMPLEX', { params: over, details: { ...over, budget } });
}

/** The request's cost, or undefined when it cannot be computed (graphql-js then refuses it itself). */
function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
): number | undefined {
  try {
    return getComplexity({ schema, query: document, variables: variables ?? {}, estimators: [estimateCost] });
  } catch {
    return undefined;
  }
}
