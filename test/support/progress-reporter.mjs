/**
 * The test command's reporter (plain JavaScript: node loads reporters before any loader): one
 * line per test file as it ends ("[12/87] ok   test/foo.test.ts (9.3 s)"), each failing test in
 * full as soon as the runner reports it, and every failure again at the end, so a long run on a
 * busy machine shows where it stands and what broke without waiting for the end.
 */
import path from 'node:path';
import { inspect } from 'node:util';

const total = Number(process.env.TMS_TEST_FILE_COUNT) || undefined;

/** @param {string | undefined} file */
const relative = (file) => (file ? path.relative(process.cwd(), file) : '(unknown file)');

/** @param {string} text */
const indent = (text) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

/**
 * The assertion inside the runner's wrapper (as `node --test` wraps a failure from a file's
 * process), without the runner's own stack frames.
 * @param {unknown} error
 */
function describeError(error) {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const text = inner instanceof Error ? (inner.stack ?? inner.message) : inspect(inner);
  return indent(
    text
      .split('\n')
      .filter((line) => !/^\s+at .*(node:|<anonymous>\)$)/.test(line))
      .join('\n'),
  );
}

/** @param {AsyncIterable<{ type: string, data: any }>} source node:test's events */
export default async function* progressReporter(source) {
  let filesDone = 0;
  /** @type {string[]} */
  const failures = [];
  /** Files with a failing test; a file failing without one failed outside its tests. */
  const filesWithFailedTests = new Set();
  /** @type {Map<string, unknown>} files that failed, with the runner's error */
  const failedFiles = new Map();
  // What each file wrote to stderr: a file that crashes says why only there.
  const stderr = new Map();
  // The suites each file's running test sits in, by depth, to say where a failure is.
  const trails = new Map();

  for await (const { type, data } of source) {
    const file = relative(data.file);
    const isFile = data.file !== undefined && data.name === data.file;
    if (type === 'test:stderr') {
      stderr.set(file, (stderr.get(file) ?? '') + data.message);
    } else if (type === 'test:start' && !isFile) {
      const trail = trails.get(file) ?? [];
      trail[data.nesting] = data.name;
      trail.length = data.nesting + 1;
      trails.set(file, trail);
    } else if (type === 'test:fail' && !isFile) {
      // A suite fails when one of its tests did, and that test was reported already.
      if (data.details?.error?.failureType === 'subtestsFailed') continue;
      filesWithFailedTests.add(file);
      const where = [...(trails.get(file) ?? []).slice(0, data.nesting), data.name].join(' > ');
      const report = `FAIL ${file} > ${where}\n${describeError(data.details?.error)}\n`;
      failures.push(report);
      yield report;
    } else if (type === 'test:complete' && isFile) {
      filesDone++;
      const passed = data.details?.passed !== false;
      if (!passed) failedFiles.set(file, data.details?.error);
      const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1);
      yield `[${filesDone}/${total ?? '?'}] ${passed ? 'ok  ' : 'FAIL'} ${file} (${seconds} s)\n`;
    } else if (type === 'test:diagnostic' && data.nesting === 0) {
      yield `${data.message}\n`;
    }
  }
  for (const [file, error] of failedFiles) {
    if (filesWithFailedTests.has(file)) continue;
    const output = (stderr.get(file) ?? '').trimEnd().split('\n').slice(-40).join('\n');
    failures.push(`FAIL ${file} (outside its tests)\n${describeError(error)}\n${indent(output)}\n`);
  }
  if (failures.length > 0) yield `\n${failures.length} failed:\n${failures.join('\n')}`;
}
