import { z } from 'zod';

/**
 * One way to page through a list, for every operation that lists: the same input fields, the
 * same rows per page, the same envelope around the answer (`total`, `page`, `per_page`).
 */

/** Rows a page holds when the caller does not say, and at most; discovery tells agents the same. */
export const PER_PAGE = { default: 50, max: 200 } as const;

export interface PageQuery {
  page: number;
  per_page: number;
}

/** The input fields of a paged list. */
export const pageParams = {
  page: z.int().min(1).default(1).describe('Which page, from 1'),
  per_page: z
    .int()
    .min(1)
    .max(PER_PAGE.max)
    .default(PER_PAGE.default)
    .describe(`Rows a page holds, at most ${PER_PAGE.max}`),
};

/** The rows of the page, for a repository's LIMIT and OFFSET. */
export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  return { limit: query.per_page, offset: (query.page - 1) * query.per_page };
}

/** The envelope of a paged answer, in its output schema. */
export const pageEnvelope = { total: z.int(), page: z.int(), per_page: z.int() };

/** The envelope of a paged answer: how many rows match in all, and which page this is. */
export function envelopeOf(query: PageQuery, total: number) {
  return { total, page: query.page, per_page: query.per_page };
}
