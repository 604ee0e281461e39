import { randomBytes } from 'node:crypto';

/**
 * JSON of answers that share parts with many others (a public timeline kept in memory and sent
 * again and again, the documents a batch read puts together): each shared value is written to
 * JSON once and its text reused, since writing it is most of what serving it costs.
 */

/** Values that are never changed once shared: their JSON is written once. */
const shared = new WeakSet<object>();
const written = new WeakMap<object, Buffer>();
/** Answers made of shared values (not shared themselves): written around their shared parts. */
const composed = new WeakSet<object>();

/** Marks a value as kept and never changed again, so its JSON may be written once. */
export function shareJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null) shared.add(value);
  return value;
}

/** Marks an answer holding shared values (at any depth), so they are not written again. */
export function composedOfShared<T>(value: T): T {
  if (typeof value === 'object' && value !== null) composed.add(value);
  return value;
}

/** Whether a value is shared or composed of shared values: `toJson` writes it fastest. */
export function holdsSharedParts(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (shared.has(value) || composed.has(value));
}

/** Whether a value was marked composed: a copy of it (an output contract's) is marked too. */
export function isComposed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && composed.has(value);
}

/**
 * A placeholder no JSON text of data can hold by chance (a random nonce per process), standing for
 * a shared value's text while the rest is written.
 */
const NONCE = randomBytes(12).toString('hex');
const PLACEHOLDER = new RegExp(`"\\\\u0000${NONCE}:(\\d+)"`, 'g');

/**
 * `JSON.stringify`, reusing the text of shared values: UTF-8 bytes when the answer is or holds
 * shared values (put together from the bytes kept for them, with no text to encode again), the
 * text otherwise.
 */
export function toJson(value: unknown): string | Buffer {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (shared.has(value)) return writtenOnce(value);
  if (!composed.has(value)) return JSON.stringify(value);
  const parts: Buffer[] = [];
  const text = JSON.stringify(value, (_key, part: unknown) => {
    if (typeof part !== 'object' || part === null || !shared.has(part)) return part;
    parts.push(writtenOnce(part));
    return `\u0000${NONCE}:${parts.length - 1}`;
  });
  // Split by a pattern with a group: the text around placeholders, then each placeholder's index.
  const pieces = text.split(PLACEHOLDER);
  return Buffer.concat(
    pieces.map((piece, index) => (index % 2 === 1 ? parts[Number(piece)]! : Buffer.from(piece))),
  );
}

function writtenOnce(value: object): Buffer {
  let bytes = written.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(value));
    written.set(value, bytes);
  }
  return bytes;
}
