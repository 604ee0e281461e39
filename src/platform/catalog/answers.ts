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

export function validationFailed(error: { issues: readonly z.core.$ZodIssue[] }): AppError {
  const fields = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
    code: issue.code,
    message: issue.message,
  }));
  const names = [...new Set(fields.map((field) => field.field))];
  return new AppError('VALIDATION_FAILED', { params: { fields: names.join(', ') }, details: { fields } });
}
