/**
 * Markdown tables from run.ts's JSON lines: per instance class and overall, the mean, median and
 * worst gap to the best known cost, the mean time and iterations, and how many plans the checker
 * found valid.
 *
 *   node --import tsx bench/vrp/summary.ts results.jsonl [more.jsonl ...]
 *   node --import tsx bench/vrp/summary.ts --per-instance five.jsonl thirty.jsonl
 *
 * --per-instance prints one row per instance instead, one column per file (say, two budgets).
 */
import { readFileSync } from 'node:fs';

interface Line {
  instance: string;
  distance: number;
  best_known: number;
  best_known_vehicles: number | null;
  gap_percent: number;
  routes: number;
  unassigned: number;
  seconds: number;
  iterations: number;
  valid: boolean;
}

const perInstance = process.argv.includes('--per-instance');
const files = process.argv.slice(2).filter((arg) => arg !== '--per-instance');
const read = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
if (perInstance) {
  const runs = files.map(read);
  const names = [...new Set(runs.flatMap((run) => run.map((line) => line.instance)))].sort();
  console.log(
    `| instance | best known (vehicles) | ${files.map((file) => `${file}: distance (vehicles), gap, time`).join(' | ')} |`,
  );
  console.log(`| --- | --- | ${files.map(() => '---').join(' | ')} |`);
  for (const name of names) {
    const lines = runs.map((run) => run.find((line) => line.instance === name));
    const first = lines.find(Boolean)!;
    const cells = lines.map((line) =>
      line
        ? `${line.distance.toFixed(2)} (${line.routes}), ${line.gap_percent.toFixed(2)} %, ${line.seconds.toFixed(1)} s${line.unassigned ? `, ${line.unassigned} unserved` : ''}${line.valid ? '' : ' INVALID'}`
        : '',
    );
    console.log(
      `| ${name} | ${first.best_known} (${first.best_known_vehicles ?? '?'}) | ${cells.join(' | ')} |`,
    );
  }
  process.exit(0);
}

const lines: Line[] = files.flatMap(read);
// Solomon C101 -> C1, Li and Lim lrc201 -> lrc2.
const classOf = (name: string) => name.replace(/(\d)\d\d$/, '$1');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const row = (label: string, group: Line[]) => {
  const gaps = group.map((line) => line.gap_percent);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const vehicles = (pick: (line: Line) => number | null) =>
    mean(group.map((line) => pick(line) ?? Number.NaN)).toFixed(1);
  return `| ${label} | ${group.length} | ${mean(gaps).toFixed(2)} % | ${median(gaps).toFixed(2)} % | ${Math.max(...gaps).toFixed(2)} % | ${mean(group.map((line) => line.seconds)).toFixed(2)} s | ${Math.round(mean(group.map((line) => line.iterations))).toLocaleString('en')} | ${vehicles((line) => line.routes)} / ${vehicles((line) => line.best_known_vehicles)} | ${group.filter((line) => line.valid && line.unassigned === 0).length} / ${group.length} |`;
};
const classes = [...new Set(lines.map((line) => classOf(line.instance)))].sort();
console.log(
  '| class | instances | mean gap | median gap | worst gap | mean time | mean iterations | vehicles: ours / best known | valid, all served |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const name of classes)
  console.log(
    row(
      name,
      lines.filter((line) => classOf(line.instance) === name),
    ),
  );
console.log(row('**all**', lines));
