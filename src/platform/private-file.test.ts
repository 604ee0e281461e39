import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readOrCreatePrivateFile } from './private-file.ts';

describe('a private file made once', () => {
  const made: string[] = [];
  after(async () => {
    for (const directory of made) await rm(directory, { recursive: true, force: true });
  });

  it('gives callers racing to make it one content, 0600, and leaves no draft behind', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'tms-private-file-'));
    made.push(directory);
    const file = path.join(directory, 'nested', 'secret');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => readOrCreatePrivateFile(file, () => `secret ${n}\n`)),
    );
    assert.equal(new Set(answers).size, 1, `one content for all: ${answers.join(', ')}`);
    assert.match(answers[0]!, /^secret \d\n$/);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(path.dirname(file)), ['secret']);
    // Read ever after: a later caller's content is never written.
    assert.equal(await readOrCreatePrivateFile(file, () => 'another'), answers[0]);
  });
});
