import { z } from 'zod';
import { AppError } from '../errors.ts';
import { type Operation, type OutsideEffect, type OutsideWorld, Representation } from './operation.ts';

/** The outside world of a dry run: each effect is noted in `skipped` and previewed, never performed. */
export function skippingOutside(skipped: OutsideEffect[]): OutsideWorld {
  return {
    perform: async (effect, _run, preview) => {
      skipped.push(effect);
      return preview();
    },
  };
}

/** Whether a call of the operation may be a dry run (X-Dry-Run, X-MCP-Dry-Run): every write may. */
export function answersDryRuns(operation: Operation): boolean {
  return operation.kind === 'mutation';
}

/**
 * The fields a dry run adds to a write's answer (dryRunAnswer), absent from any other answer: the
 * doors add them to the answer schema of every operation that answersDryRuns, so a client
 * generated from the contract reads them typed.
 */
export const DRY_RUN_FIELDS = {
  dry_run: z
    .literal(true)
    .optional()
    .describe(
      'Only on a dry run (X-Dry-Run: 1; X-MCP-Dry-Run: 1 for a tool): the call ran and nothing of it was kept',
    ),
  skipped_effects: z
    .array(
      z
        .object({
          kind: z.string().describe('What kind of effect: payment, http, file, model'),
          description: z.string().describe('What it would have done'),
        })
        .meta({ title: 'SkippedEffect' }),
    )
    .optional()
    .describe('Only on a dry run: the effects beyond the database it did not make (a charge, a request)'),
} satisfies Record<string, z.ZodType>;

/**
 * Fields that hold money, wherever they appear. Price hiding (the pricing module's response
 * policy) takes them out of what a caller may not see and marks the answer `price_hidden`.
 */
export const PRICE_FIELDS: ReadonlySet<string> = new Set([
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'price',
  'prices',
  'total',
  'subtotal',
  'amount',
  'base_price',
  'paid_amount',
  'amount_paid',
  'balance',
]);

/**
 * Whether a field of an answer is the `total` of a paged list's envelope (beside `page` and
 * `per_page`): a count of rows, not an amount, whatever PRICE_FIELDS says of the name.
 */
export function isPageTotal(key: string, fields: Record<string, unknown>): boolean {
  return key === 'total' && 'page' in fields && 'per_page' in fields;
}

/**
 * Whether price hiding may take money out of the operation's answers, and mark them: an operation
 * about one family's prices, or one whose answer (its JSON Schema) holds a money field anywhere.
 */
export function answersHiddenPrices(operation: Operation, answer: unknown): boolean {
  return operation.priceFamily !== undefined || holdsPrices(answer);
}

function holdsPrices(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsPrices);
  if (!node || typeof node !== 'object') return false;
  const { properties, ...rest } = node as { properties?: Record<string, unknown> };
  const named = Object.keys(properties ?? {});
  if (named.some((name) => PRICE_FIELDS.has(name) && !isPageTotal(name, properties!))) return true;
  return Object.values(properties ?? {}).some(holdsPrices) || Object.values(rest).some(holdsPrices);
}

/**
 * The mark price hiding puts on an answer it took prices from: the doors add it to the answer
 * schema of every operation whose answer may hold a price field (a money field anywhere in it).
 */
export const PRICE_HIDDEN_FIELDS = {
  price_hidden: z
    .literal(true)
    .optional()
    .describe(
      'Present when prices the caller may not see were taken out of this answer: absent price fields are hidden, not zero',
    ),
} satisfies Record<string, z.ZodType>;

/** A dry run's answer says it is one, and what it did not do outside the database. */
export function dryRunAnswer(result: unknown, skipped: OutsideEffect[]): unknown {
  if (
    result === null ||
    typeof result !== 'object' ||
    Array.isArray(result) ||
    result instanceof Representation
  ) {
    return result;
  }
  return { ...result, dry_run: true, skipped_effects: skipped };
}

/** Problems a VALIDATION_FAILED refusal lists at most: a 100,000-item list of wrong items is told in a few lines. */
export const PROBLEMS_SHOWN = 20;

/**
 * VALIDATION_FAILED for these issues: `details.fields` holds the first PROBLEMS_SHOWN problems,
 * one per field (a key an object does not know is a problem of its own, at its path), and
 * `details.problem_count` how many there are in all when they are more.
 */
export function validationFailed(error: { issues: readonly z.core.$ZodIssue[] }): AppError {
  const fields: Array<{ field: string; code: string; message: string }> = [];
  let count = 0;
  for (const issue of error.issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    count += paths.length;
    for (const path of paths.slice(0, PROBLEMS_SHOWN - fields.length)) {
      fields.push({
        field: path.length > 0 ? path.join('.') : '(body)',
        code: issue.code,
        message: issue.message,
      });
    }
  }
  const cut = count > fields.length;
  const names = [...new Set(fields.map((field) => field.field))];
  return new AppError('VALIDATION_FAILED', {
    params: { fields: cut ? `${names.join(', ')}, …` : names.join(', ') },
    details: cut ? { fields, problem_count: count } : { fields },
  });
}
