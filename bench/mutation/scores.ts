/**
 * Scores of a mutation run, per file, from the JSON reports Stryker wrote (reports/mutation/*.json):
 *
 *   node --import tsx bench/mutation/scores.ts [group ...]
 *
 * A mutant is detected when a test failed (killed) or the tests hung (timed out). One that breaks
 * compiling or loading the module is invalid, as in Stryker's own score, and counted apart.
 */
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GROUPS } from './groups.ts';

interface ReportedMutant {
  mutatorName: string;
  status: string;
  replacement?: string;
  location: { start: { line: number } };
}

interface Report {
  files: Record<string, { mutants: ReportedMutant[] }>;
}

export const reportOf = (group: string) => `reports/mutation/${group}.json`;

/** The score table's rows and every mutant no test detected, from one group's report. */
export function scoresOf(report: Report, root = process.cwd()): { rows: string[]; undetected: string[] } {
  const rows: string[] = [];
  const undetected: string[] = [];
  for (const [name, { mutants }] of Object.entries(report.files)) {
    const file = name.startsWith(root) ? name.slice(root.length + 1) : name;
    const count = (statuses: string[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
    const detected = count(['Killed', 'Timeout']);
    const survived = count(['Survived']);
    const noCoverage = count(['NoCoverage']);
    const invalid = count(['CompileError', 'RuntimeError']);
    const valid = detected + survived + noCoverage;
    const score = valid === 0 ? '-' : `${((100 * detected) / valid).toFixed(1)} %`;
    rows.push(`| ${file} | ${valid} | ${detected} | ${survived} | ${noCoverage} | ${invalid} | ${score} |`);
    for (const mutant of mutants) {
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
      const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 100);
      undetected.push(
        `${file}:${mutant.location.start.line} ${mutant.mutatorName} (${mutant.status}): ${replacement}`,
      );
    }
  }
  return { rows, undetected };
}

export function scoreTable(groups: string[]): string {
  const rows: string[] = [];
  const undetected: string[] = [];
  for (const group of groups) {
    if (!existsSync(reportOf(group))) continue;
    const scores = scoresOf(JSON.parse(readFileSync(reportOf(group), 'utf8')) as Report);
    rows.push(...scores.rows);
    undetected.push(...scores.undetected);
  }
  return (
    '| File | Valid mutants | Killed or timed out | Survived | Not covered | Invalid | Score |\n' +
    `|---|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n` +
    (undetected.length > 0 ? `\nNot detected:\n${undetected.join('\n')}\n` : '')
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const chosen = process.argv.slice(2);
  process.stdout.write(scoreTable(chosen.length > 0 ? chosen : Object.keys(GROUPS)));
}
