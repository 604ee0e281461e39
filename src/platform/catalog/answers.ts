import type { z } from 'zod';
import { AppError } from '../errors.ts';
import { type OutsideEffect, type OutsideWorld, Representation } from './operation.ts';

/** The outside world of a dry run: each effect is noted in `skipped` and previewed, never performed. */
export function skippingOutside(skipped: OutsideEffect[]): OutsideWorld {
  return {
    perform: async (effect, _run, preview) => {
      skipped.push(effect);
      return preview();
    },
  };
}

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
