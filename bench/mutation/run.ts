/**
 * Mutation testing of the rule-holding files (StrykerJS with its TAP runner): each rule is broken
 * in a copy of the code, one change at a time, and the tests that cover it are run; a change no
 * test notices (a survivor) is a rule a regression could break unseen.
 *
 *   node --import tsx bench/mutation/run.ts [group ...]     (groups: see GROUPS; default all)
 *
 * Prepares one migrated template database (embedded PostgreSQL, or DATABASE_URL's server) as
 * `npm test` does, then runs Stryker group by group, printing each group's per-file scores and
 * every mutant no test detected (bench/mutation/scores.ts; the reports stay in reports/mutation).
 * A benchmark, not part of CI: a group takes minutes to an hour.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { LogLevel, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded.ts';
import { adminQuery, createTemplate, templateName } from '../../test/support/template.ts';
import { EXCLUDED_IN_USE_CASES, GROUPS } from './groups.ts';
import { reportOf, scoreTable } from './scores.ts';

const chosen = process.argv.slice(2);
for (const name of chosen) {
  if (!GROUPS[name]) throw new Error(`Unknown group "${name}"; groups: ${Object.keys(GROUPS).join(', ')}`);
}
const groups = chosen.length > 0 ? chosen : Object.keys(GROUPS);

const external = process.env.DATABASE_URL;
const clusterDir = external ? undefined : await mkdtemp(path.join(tmpdir(), 'tms-mutation-pg-'));
const embedded = clusterDir
  ? await startEmbeddedPostgres({ directory: clusterDir, ephemeral: true })
  : undefined;
const adminUrl = external ?? embedded!.adminUrl;
const template = templateName();
try {
  await createTemplate(adminUrl, template);
  // The test files read these, as under `npm test`.
  Object.assign(process.env, {
    TMS_TEST_ADMIN_URL: adminUrl,
    TMS_TEST_TEMPLATE: template,
    SOLVER_THREADS: '1',
  });
  await mkdir('reports/mutation', { recursive: true });

  for (const name of groups) {
    const group = GROUPS[name]!;
    const started = Date.now();
    process.stdout.write(`\n== ${name}: ${group.mutate.join(', ')}\n`);
    const options: PartialStrykerOptions = {
      mutate: group.mutate,
      testRunner: 'tap',
      tap: {
        testFiles: group.tests,
        nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx', '--test-reporter=tap', '{{testFile}}'],
        forceBail: true,
      },
      coverageAnalysis: 'perTest',
      mutator: { excludedMutations: group.kind === 'use case' ? EXCLUDED_IN_USE_CASES : [] },
      concurrency: Number(process.env.CONCURRENCY) || Math.max(1, availableParallelism()),
      timeoutMS: 60_000,
      reporters: ['progress', 'json'],
      jsonReporter: { fileName: reportOf(name) },
      // Stryker rewrites tsconfig.json through TypeScript's JavaScript API, which TypeScript 7 no
      // longer has; nothing here needs it (tsx runs the sources), so it is pointed at no file.
      tsconfigFile: 'bench/mutation/no-tsconfig.json',
      tempDirName: '.stryker-tmp',
      cleanTempDir: true,
      incremental: false,
      logLevel: 'warn' as LogLevel,
      fileLogLevel: 'off' as LogLevel,
    };
    await new Stryker(options).runMutationTest();
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    process.stdout.write(`${name}: ${minutes} min\n${scoreTable([name])}`);
  }
} finally {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template}`).catch(() => {});
  await embedded?.stop();
  if (clusterDir) await rm(clusterDir, { recursive: true, force: true });
}
process.stdout.write(`\nAll groups run:\n${scoreTable(groups)}`);
