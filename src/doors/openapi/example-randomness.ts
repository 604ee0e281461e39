import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Makes this process's random bytes a fixed sequence, for the examples' recording only: tracking
 * numbers, references, tokens and link signatures then come out the same from one run to the
 * next, and the committed examples change only where an answer does. Nothing here is a secret:
 * the database it runs on is thrown away.
 */
export function seedRandomness(seed: string): void {
  let counter = 0;
  const bytes = (size: number): Buffer => {
    const blocks: Buffer[] = [];
    for (let length = 0; length < size; length += 32)
      blocks.push(createHash('sha256').update(`${seed}:${counter++}`).digest());
    return Buffer.concat(blocks).subarray(0, size);
  };
  const randomBytes = (size: number, callback?: (error: Error | null, buffer: Buffer) => void) => {
    const buffer = bytes(size);
    if (!callback) return buffer;
    callback(null, buffer);
    return undefined;
  };
  const randomInt = (min: number, max?: number, callback?: (error: Error | null, value: number) => void) => {
    const [low, high] = max === undefined || typeof max === 'function' ? [0, min] : [min, max];
    const value = low + (bytes(6).readUIntBE(0, 6) % (high - low));
    const done = typeof max === 'function' ? max : callback;
    if (!done) return value;
    done(null, value);
    return undefined;
  };
  const randomUUID = () => {
    const b = bytes(16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const hex = b.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  Object.assign(crypto, { randomBytes, randomInt, randomUUID });
  // ES module imports of node:crypto read the changed functions too.
  syncBuiltinESMExports();
}
