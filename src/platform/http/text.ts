import { TimeSlices } from '../slices.ts';

/**
 * Characters no text may hold here: NUL (PostgreSQL text and JSON refuse it) and a UTF-16
 * surrogate without its pair (stored, it would silently become U+FFFD).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The dotted paths of every string (and object key) in a parsed JSON value that holds an
 * unstorable character. Walked with a stack of its own, so a deeply nested body cannot exhaust
 * the call stack.
 */
export function unstorableFields(value: unknown, root = ''): string[] {
  const found: string[] = [];
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorable(current)) found.push(path || '(body)');
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        pending.push([current[index], path ? `${path}.${index}` : String(index)]);
      }
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current).reverse()) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorable(key)) found.push(childPath);
        pending.push([child, childPath]);
      }
    }
  }
  return found;
}

/** Nodes walked between two asks for a pause: a fraction of a millisecond of work. */
const NODES_BETWEEN_PAUSES = 256;

/**
 * Whether every string and key of a parsed JSON value is storable: the walk of unstorableFields
 * without the paths, in slices that give the event loop back (a 1 MiB body of 5,000 records is
 * no single stretch of work). Almost every body passes, and only one that fails needs the paths.
 */
export async function storableInSlices(value: unknown): Promise<boolean> {
  const slices = new TimeSlices();
  const pending: unknown[] = [value];
  // Every await costs a promise: a body of 50,000 nested arrays is 50,000 nodes, so the walk asks
  // for its pause once in a stretch of nodes, not at each one.
  for (let visited = 0; pending.length > 0; visited++) {
    if (visited % NODES_BETWEEN_PAUSES === 0) await slices.next();
    const current = pending.pop();
    if (typeof current === 'string') {
      if (!isStorable(current)) return false;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (!isStorable(key)) return false;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}
