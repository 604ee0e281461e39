/**
 * Markdown tables from run.ts's JSON lines: per instance class and overall, the mean, median and
 * worst gap to the best known cost, the mean time and iterations, and how many plans the checker
 * found valid.
 *
 *   node --import tsx bench/vrp/summary.ts results.jsonl [more.jsonl ...]
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

const lines: Line[] = process.argv
  .slice(2)
  .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
  .map((line) => JSON.parse(line) as Line);
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
