import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

/** The test command's reporter, run by node's test runner on small files of its own. */

const REPORTER = path.resolve('test/support/progress-reporter.mjs');

async function runFiles(directory: string, files: string[]) {
  // Without the mark node's runner leaves for its own files, so this run reports as a run of its own.
  const { NODE_TEST_CONTEXT: _, ...environment } = process.env;
  const child = spawn(
    process.execPath,
    ['--test', '--test-concurrency=1', `--test-reporter=${REPORTER}`, ...files],
    { cwd: directory, env: { ...environment, TMS_TEST_FILE_COUNT: String(files.length) } },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, lines: stdout.split('\n') };
}

describe('the test command reporter', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'tms-reporter-'));
    await writeFile(
      path.join(directory, 'a.test.mjs'),
      `import { describe, it } from 'node:test';
describe('orders', () => { it('are kept', () => {}); it('are priced', () => { throw new Error('price was 0'); }); });
it('stands alone', () => {});`,
    );
    await writeFile(
      path.join(directory, 'b.test.mjs'),
      `import { it } from 'node:test';\nit('passes', () => {});`,
    );
    await writeFile(path.join(directory, 'c.test.mjs'), `throw new Error('cannot load this file');`);
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it('says each file as it ends, with files done against the total, and each failure where it is', async () => {
    const { code, lines } = await runFiles(directory, ['a.test.mjs', 'b.test.mjs']);
    assert.equal(code, 1);
    const progress = lines.filter((line) => line.startsWith('['));
    assert.deepEqual(
      progress.map((line) => line.replace(/ \([\d.]+ s\)$/, '')),
      ['[1/2] FAIL a.test.mjs', '[2/2] ok   b.test.mjs'],
    );
    // The failure is said where it is, with its error, and again in the closing list.
    const failure = lines.indexOf('FAIL a.test.mjs > orders > are priced');
    assert.ok(failure >= 0, lines.join('\n'));
    assert.match(lines[failure + 1]!, /Error: price was 0/);
    const closing = lines.indexOf('1 failed:');
    assert.ok(closing > failure, lines.join('\n'));
    assert.equal(lines.lastIndexOf('FAIL a.test.mjs > orders > are priced'), closing + 1);
  });

  it('shows why a file failed outside any test, from what it wrote', async () => {
    const { code, lines } = await runFiles(directory, ['c.test.mjs']);
    assert.equal(code, 1);
    assert.ok(lines.includes('FAIL c.test.mjs (outside its tests)'), lines.join('\n'));
    assert.ok(
      lines.some((line) => line.includes('cannot load this file')),
      lines.join('\n'),
    );
    assert.match(lines.find((line) => line.startsWith('['))!, /^\[1\/1\] FAIL c\.test\.mjs \(/);
  });
});
