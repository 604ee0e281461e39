import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  Lexer,
  type SelectionSetNode,
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
  /** Nesting of selections (`__schema` introspection not counted). */
  depth: number;
  /** Aliased fields, `__typename` and introspection included: the way to ask for one field many times. */
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
 * The cost model: every field costs 1, `__typename` and introspection included (GraphiQL's whole
 * schema query costs a few hundred), a root field 10 more; a field whose arguments size a page
 * (`per_page`, `limit`, `first`) or carry a list of inputs (many tracking numbers, many orders)
 * multiplies the cost of what is selected under it by that size.
 */
function estimateCost({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (field.name.startsWith('__') || type.name.startsWith('__')) return 1 + childComplexity;
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
      // GraphQL Armor lets `__typename` aliases through by default: 1,600 of them are work all the same.
      allowList: [],
      propagateOnRejection: false,
      onReject: [refusal('aliases', budget.aliases)],
    }),
  ]);
  if (over.length === 0) {
    // A document the cost model cannot read (a bad variable, an unknown field) still costs a field each.
    const cost = costOf(schema, document, variables) ?? fieldCount(document);
    if (cost > budget.cost) over.push({ measure: 'cost', limit: budget.cost, found: cost });
  }
  const [first] = over;
  if (first) throw overBudget(first, budget);
}

function overBudget(over: { measure: string; limit: number; found: number }, budget: QueryBudget): AppError {
  return new AppError('QUERY_TOO_COMPLEX', { params: over, details: { ...over, budget } });
}

/** Fields the document selects, each fragment counted where it is spread (a cycle counts nothing). */
function fieldCount(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const counted = new Map<string, number>();
  const countIn = (set: SelectionSetNode | undefined, visiting: Set<string>): number => {
    let fields = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) fields += 1 + countIn(selection.selectionSet, visiting);
      else if (selection.kind === Kind.INLINE_FRAGMENT) fields += countIn(selection.selectionSet, visiting);
      else {
        const name = selection.name.value;
        if (!counted.has(name) && !visiting.has(name)) {
          visiting.add(name);
          counted.set(name, countIn(fragments.get(name)?.selectionSet, visiting));
          visiting.delete(name);
        }
        fields += counted.get(name) ?? 0;
      }
    }
    return fields;
  };
  let fields = 0;
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION) fields += countIn(definition.selectionSet, new Set());
  return fields;
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
