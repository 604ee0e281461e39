import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, knob, percentile, say } from './support.ts';

// How long `npm start` takes until /api/health answers 200: a first start (an empty data
// directory: initdb, migrations, the demo seed) and a restart on the data it left. Each start is
// the command `npm start` runs (node bin/run.mjs serve; in a checkout without it, node --import tsx
// src/main.ts serve) in a process group of its
// own, timed from spawn; the moments it prints (database up, migrated, listening) tell where
// the time goes. "The command line alone" is the same node answering `--version` (with
// `bin/run.mjs`, which since the built code is split loads no more than the command line; in a
// checkout without it, importing src/app.ts and src/serve.ts): the floor of any command.
//
//   RUNS=5 node --import tsx bench/start.ts [--compare <checkout>]
//
// With `--compare <another checkout>` (an earlier commit), each run times that checkout's starts
// too, in turn with this one's, each on its own data directory, so both meet the same load.

const RUNS = knob('RUNS', 5);
const HERE = path.resolve(import.meta.dirname, '..');
const compareAt = process.argv.indexOf('--compare');
const ROOTS = compareAt > 0 ? [HERE, path.resolve(process.argv[compareAt + 1]!)] : [HERE];

/** What `npm start` runs in a checkout, with `args` for the command line. */
function command(root: string, args: string[]): string[] {
  return existsSync(path.join(root, 'bin', 'run.mjs'))
    ? ['bin/run.mjs', ...args]
    : ['--import', 'tsx', 'src/main.ts', ...args];
}

interface Start {
  total: number;
  marks: Record<string, number>;
}

// The demo's details are printed once the service listens, so listening ends the seed too.
const MARKS: Array<[string, RegExp]> = [
  ['database up', /Embedded PostgreSQL .*started/],
  ['migrated', /Applied migrations/],
  ['listening', /TMS listening on/],
];

async function start(root: string, dataDir: string): Promise<Start> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MQTT_PORT: '0',
    TMS_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const began = performance.now();
  const child = spawn(process.execPath, command(root, ['serve']), {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const marks: Record<string, number> = {};
  let output = '';
  const watch = (chunk: Buffer) => {
    output += chunk;
    for (const [name, pattern] of MARKS) {
      if (marks[name] === undefined && pattern.test(output)) marks[name] = performance.now() - began;
    }
  };
  child.stdout.on('data', watch);
  child.stderr.on('data', watch);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));
  // Until the service listens, the port it holds answers 503 (starting).
  for (;;) {
    if (gone) throw new Error(`the service exited before it answered:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((answer) => answer.status === 200)
      .catch(() => false);
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const total = performance.now() - began;
  process.kill(-child.pid!, 'SIGTERM');
  if ((await exited) !== 0) throw new Error(`the service did not stop cleanly:\n${output}`);
  return { total, marks };
}

async function load(root: string): Promise<number> {
  const began = performance.now();
  const args = existsSync(path.join(root, 'bin', 'run.mjs'))
    ? command(root, ['--version'])
    : [
        '--import',
        'tsx',
        '--input-type=module',
        '--eval',
        "await import('./src/app.ts'); await import('./src/serve.ts')",
      ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - began;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
// A mark printed after /api/health answered (listening, on a fast start) has no value: blank.
const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '' : (value / 1000).toFixed(2);

function row(name: string, starts: Start[]) {
  const cells = ['total', ...MARKS.map(([mark]) => mark)].map((mark) =>
    ms(
      mark === 'total'
        ? median(starts.map((s) => s.total))
        : median(starts.flatMap((s) => (s.marks[mark] === undefined ? [] : [s.marks[mark]!]))),
    ),
  );
  const all = starts.map((s) => ms(s.total)).join(', ');
  return `| ${name} | ${cells.join(' | ')} | ${all} |`;
}

const results = ROOTS.map(() => ({ firsts: [] as Start[], restarts: [] as Start[], loads: [] as number[] }));
const dirs: string[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const [n, root] of ROOTS.entries()) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'tms-bench-start-'));
      dirs.push(dataDir);
      const { firsts, restarts, loads } = results[n]!;
      firsts.push(await start(root, dataDir));
      restarts.push(await start(root, dataDir));
      loads.push(await load(root));
      say(
        `run ${run}, ${root}: first start ${ms(firsts.at(-1)!.total)} s, restart ${ms(restarts.at(-1)!.total)} s, ` +
          `the command line ${ms(loads.at(-1))} s`,
      );
    }
  }
} finally {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

const lines = [
  `Seconds from spawn, median of ${RUNS} runs (each mark: when the service printed it).`,
  '',
  `| checkout | start | /api/health 200 | ${MARKS.map(([mark]) => mark).join(' | ')} | every run |`,
  `|---|---|---|${MARKS.map(() => '---|').join('')}---|`,
];
for (const [n, root] of ROOTS.entries()) {
  const { firsts, restarts, loads } = results[n]!;
  const name = n === 0 ? 'this' : root;
  lines.push(
    row(`${name} | first (empty data directory)`, firsts),
    row(`${name} | restart (existing data)`, restarts),
    `| ${name} | the command line alone | ${ms(median(loads))} | ${MARKS.map(() => '').join(' | ')} | ${loads.map(ms).join(', ')} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
