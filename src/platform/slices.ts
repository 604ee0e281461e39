import { parse } from 'csv-parse';
import { z } from 'zod';

/**
 * CPU work of one request (checking a 5,000-row import, parsing its CSV) done in slices, giving
 * the event loop back between them: the request takes a little longer, and every other request of
 * every business is answered meanwhile instead of waiting for it.
 */

/** Longest stretch of work before waiting requests get their turn. */
const SLICE_MS = 8;
/** Bytes of CSV parsed in one go (a few milliseconds). */
const CSV_SLICE_BYTES = 16_384;
/** A list of an answer this long is checked and written out item by item, in slices. */
const LONG_LIST = 500;

/** Lets what waits on the event loop (other requests, database answers) run first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A loop's pacing: `next()` yields once the current slice has run SLICE_MS, and is cheap otherwise. */
export class TimeSlices {
  private since = performance.now();

  async next(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await yieldToEventLoop();
    this.since = performance.now();
  }
}

/** `items.map(map)`, in slices. */
export async function mapInSlices<T, R>(
  items: readonly T[],
  map: (item: T, index: number) => R,
): Promise<R[]> {
  const slices = new TimeSlices();
  const mapped: R[] = [];
  for (const [index, item] of items.entries()) {
    mapped.push(map(item, index));
    await slices.next();
  }
  return mapped;
}

/** What a CSV import reads: its rows keyed by the header row, or why it could not. */
export type CsvRows = { rows: Array<Record<string, string>> } | { unreadable: string } | { tooLong: true };

/**
 * A CSV file with a header row as records keyed by its names (empty lines skipped, cells trimmed,
 * a byte-order mark ignored), parsed a slice of bytes at a time. More than `maxRows` rows stop the
 * parsing at once: the caller hears it is too long without the rest being read.
 */
export async function parseCsvInSlices(text: string, maxRows: number): Promise<CsvRows> {
  const parser = parse({ columns: true, skip_empty_lines: true, trim: true, bom: true });
  const rows: Array<Record<string, string>> = [];
  let failure: Error | undefined;
  parser.on('data', (row: Record<string, string>) => rows.push(row));
  parser.on('error', (error: Error) => {
    failure ??= error;
  });
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += CSV_SLICE_BYTES) {
    parser.write(bytes.subarray(at, at + CSV_SLICE_BYTES));
    await yieldToEventLoop();
    if (failure) return { unreadable: failure.message };
    if (rows.length > maxRows) {
      parser.destroy();
      return { tooLong: true };
    }
  }
  await new Promise<void>((resolve) => {
    parser.once('end', resolve);
    parser.once('error', () => resolve());
    parser.end();
  });
  if (failure) return { unreadable: failure.message };
  return rows.length > maxRows ? { tooLong: true } : { rows };
}

/** The fields of an object holding a list long enough to be worked through in slices. */
function longLists(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return [];
  return Object.entries(value).flatMap(([key, item]) =>
    Array.isArray(item) && item.length > LONG_LIST ? [key] : [],
  );
}

/**
 * `schema.safeParse(value, params)`, with the items of a long list of the object (an import's
 * 5,000 records, its report of 5,000 rows) checked against the list's item schema in slices, after
 * the list's own bounds (min, max) on its length. Every issue is reported, at its full path, as one
 * parse would; any other shape of schema (a refined object, a list behind a default) is checked in
 * one piece.
 */
export async function safeParseInSlices(
  schema: z.ZodType,
  value: unknown,
  params?: z.core.ParseContext<z.core.$ZodIssue>,
): Promise<z.ZodSafeParseResult<unknown>> {
  // A refinement of the whole object would see the lists empty: such an object goes in one piece.
  const sliceable = schema instanceof z.ZodObject && (schema._zod.def.checks ?? []).length === 0;
  const shape = sliceable ? (schema.shape as Record<string, z.ZodType>) : {};
  const lists = longLists(value).filter((key) => shape[key] instanceof z.ZodArray);
  if (lists.length === 0) return schema.safeParse(value, params);
  const record = value as Record<string, unknown>;
  const items: Record<string, unknown[]> = {};
  const listIssues: Record<string, z.core.$ZodIssue[]> = {};
  const slices = new TimeSlices();
  for (const key of lists) {
    const list = shape[key] as z.ZodArray<z.ZodType>;
    const given = record[key] as unknown[];
    const checks = (list._zod.def.checks ?? []) as Array<z.core.$ZodCheck<unknown[]>>;
    const bounds = z
      .array(z.unknown())
      .check(...checks)
      .safeParse(given, params);
    listIssues[key] = bounds.success ? [] : bounds.error.issues.map((issue) => at([key], issue));
    items[key] = [];
    // A list its bounds refuse is not read further, as zod does not read one over its maximum:
    // 140,000 items cost one issue, not 140,000.
    if (!bounds.success) continue;
    for (const [index, item] of given.entries()) {
      const parsed = list.element.safeParse(item, params);
      if (parsed.success) items[key].push(parsed.data);
      else listIssues[key].push(...parsed.error.issues.map((issue) => at([key, index], issue)));
      await slices.next();
    }
  }
  const omitted = Object.fromEntries(lists.map((key) => [key, true]));
  const others = Object.fromEntries(Object.entries(record).filter(([key]) => !lists.includes(key)));
  const rest = (schema as z.ZodObject).omit(omitted as never).safeParse(others, params);
  // Issues and fields in the schema's order, as one parse gives them.
  const issues: z.core.$ZodIssue[] = [];
  const restIssues = rest.success ? [] : rest.error.issues;
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    // One by one: a list of 140,000 wrong items has more issues than a call's arguments may hold.
    for (const issue of listIssues[key] ?? restIssues.filter((issue) => issue.path[0] === key)) {
      issues.push(issue);
    }
    if (key in items) data[key] = items[key];
    else if (rest.success && key in (rest.data as object))
      data[key] = (rest.data as Record<string, unknown>)[key];
  }
  for (const issue of restIssues) if (!(String(issue.path[0]) in shape)) issues.push(issue);
  if (issues.length > 0) return { success: false, error: new z.ZodError(issues) };
  return { success: true, data: { ...data, ...(rest.data as object), ...items } };
}

/** An issue of an item, at its path in the whole value. */
function at(prefix: PropertyKey[], issue: z.core.$ZodIssue): z.core.$ZodIssue {
  return { ...issue, path: [...prefix, ...issue.path] };
}

/**
 * `JSON.stringify(value)`, with the items of a long list of the object written out in slices: a
 * 4 MB import report is no single stretch of work.
 */
export async function stringifyInSlices(value: unknown): Promise<string> {
  const lists = new Set(longLists(value));
  if (lists.size === 0) return JSON.stringify(value);
  const slices = new TimeSlices();
  const members: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const json = lists.has(key) ? await listJson(item as unknown[], slices) : JSON.stringify(item);
    // JSON.stringify leaves out members whose value has no JSON form (undefined, a function).
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}`;
}

async function listJson(items: unknown[], slices: TimeSlices): Promise<string> {
  const parts: string[] = [];
  for (const item of items) {
    // In a list, what has no JSON form is written null, as JSON.stringify does.
    parts.push(JSON.stringify(item) ?? 'null');
    await slices.next();
  }
  return `[${parts.join(',')}]`;
}
