import pg from 'pg';
import { percentile, say } from './support.ts';

// Where a benchmark's database time goes, statement by statement: loaded before a bench script
// (`node --import tsx --import ./bench/statement-times.ts bench/warehouse-scan.ts`), it times
// every query the process sends, from the call to its answer (so the loopback is included), and
// prints the statements that took the most time in all when the process exits. Setup statements
// run once and show as count 1.

const TOP = Number(process.env.STATEMENTS_TOP ?? 25);
const times = new Map<string, number[]>();
const query = pg.Client.prototype.query;

// biome-ignore lint/suspicious/noExplicitAny: node-postgres' query is overloaded; every form is passed on as is
pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
  const text: unknown = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  const started = performance.now();
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const result = (query as any).apply(this, args);
  if (typeof text === 'string' && typeof result?.then === 'function') {
    const record = () => {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
      const list = times.get(key) ?? [];
      list.push(performance.now() - started);
      times.set(key, list);
    };
    result.then(record, record);
  }
  return result;
};

process.on('exit', () => {
  const rows = [...times.entries()]
    .map(([statement, list]) => ({ statement, list: list.sort((a, b) => a - b) }))
    .map((row) => ({ ...row, total: row.list.reduce((sum, ms) => sum + ms, 0) }))
    .sort((a, b) => b.total - a.total)
    .slice(0, TOP);
  say('\n| statement | count | mean ms | p50 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
  for (const { statement, list, total } of rows) {
    const ms = (value: number) => value.toFixed(2);
    say(
      `| \`${statement.replaceAll('|', '\\|')}\` | ${list.length} | ${ms(total / list.length)} | ${ms(percentile(list, 50))} | ${ms(percentile(list, 99))} |`,
    );
  }
});
