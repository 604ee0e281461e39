import { z } from 'zod';
import { fieldMessage } from './i18n/field-messages.ts';

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

/**
 * A list that grows without bound (a log, a ledger) also pages by cursor: each page answers
 * `next_cursor`, and asking with it gives the rows after that page's last one, however many rows
 * arrived meanwhile (by page number they would shift). The cursor names the last row's id, in
 * the list's own order; it is opaque to callers.
 */
export const cursorPageParams = {
  ...pageParams,
  cursor: z
    .string()
    .max(64)
    .refine((cursor) => afterIdOf(cursor) !== undefined, fieldMessage('page_cursor'))
    .optional()
    .describe('The next_cursor of the page before: the page after it (page is then not used)'),
};

export interface CursorPageQuery extends PageQuery {
  cursor?: string;
}

/** The envelope of a list paged by cursor: the one of every list, and where to go on from. */
export const cursorPageEnvelope = {
  ...pageEnvelope,
  next_cursor: z.string().nullable().describe('Asks for the page after this one; null on the last page'),
};

const CURSOR = /^r([1-9][0-9]{0,15})$/;

/** The cursor that continues after the row of this id. */
export function cursorAfter(id: number): string {
  return Buffer.from(`r${id}`).toString('base64url');
}

/** The id of the row a cursor continues after; undefined for a string no page answered. */
export function afterIdOf(cursor: string): number | undefined {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(id) && cursorAfter(id) === cursor ? id : undefined;
}

/** The rows a repository reads for a page: LIMIT and OFFSET, or those after a cursor's row. */
export interface PageWindow {
  limit: number;
  offset: number;
  afterId?: number;
}

/** The rows of a page and where they sit: what cursorEnvelopeOf needs beside the query. */
export interface ReadPage<Row> {
  rows: Row[];
  total: number;
  before: number;
}

/** The page of a list that is empty before it is asked (a conversation not started yet). */
export const NO_ROWS: ReadPage<never> = { rows: [], total: 0, before: 0 };

/**
 * Reads a page of a list ordered by id (ascending or descending: `read` says), by page number or
 * after a cursor's row. `read.rows` gives the page after that row (all rows when none); `read.count`
 * the rows that match, up to and including that row in the list's order when one is given.
 */
export async function readPage<Row extends { id: number }>(
  window: PageWindow,
  read: { rows(afterId?: number): Promise<Row[]>; count(upToId?: number): Promise<number> },
): Promise<ReadPage<Row>> {
  const [rows, total, ahead] = await Promise.all([
    read.rows(window.afterId),
    read.count(),
    window.afterId === undefined ? undefined : read.count(window.afterId),
  ]);
  return { rows, total, before: ahead ?? window.offset };
}

/**
 * What a repository reads for a page: by cursor, the rows after its row (and, for the page
 * number, how many come before them); by page number, LIMIT and OFFSET.
 */
export function cursorWindow(query: CursorPageQuery): PageWindow {
  if (query.cursor === undefined) return pageWindow(query);
  return { limit: query.per_page, offset: 0, afterId: afterIdOf(query.cursor) };
}

/**
 * The envelope of a page read by cursorWindow. `before` counts the rows ahead of the page (the
 * offset, or for a cursor those up to its row), so `page` says where the page sits now; a page
 * that ends the list answers no cursor.
 */
export function cursorEnvelopeOf(query: CursorPageQuery, page: ReadPage<{ id: number }>) {
  const last = page.rows.at(-1);
  const more = last !== undefined && page.before + page.rows.length < page.total;
  return {
    total: page.total,
    page: Math.floor(page.before / query.per_page) + 1,
    per_page: query.per_page,
    next_cursor: more ? cursorAfter(last.id) : null,
  };
}
