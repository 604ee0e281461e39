import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { knob, percentile, say } from './support.ts';

// How long `npm start` takes until /api/health answers 200: a first start (an empty data
// directory: initdb, migrations, the demo seed) and a restart on the data it left. Each start is
// the command `npm start` runs (node --import tsx src/main.ts serve) in a process group of its
// own, timed from spawn; the moments it prints (database up, demo ready, listening) tell where
// the time goes. LOAD is the same node loading the service's code and exiting: the floor of any
// start.
//
//   RUNS=5 node --import tsx bench/start.ts
//
// START_ROOT=<another checkout> times that checkout's start instead (an earlier commit, to compare).

const RUNS = knob('RUNS', 5);
const ROOT = path.resolve(process.env.START_ROOT ?? path.join(import.meta.dirname, '..'));

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Start {
  total: number;
  marks: Record<string, number>;
}

const MARKS: Array<[string, RegExp]> = [
  ['database up', /Embedded PostgreSQL .*started/],
  ['migrated', /Applied migrations|Demo data created|Demo sign-in details/],
  ['demo ready', /Demo data created|Demo sign-in details/],
  ['listening', /TMS listening on/],
];

async function start(dataDir: string): Promise<Start> {
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
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

async function load(): Promise<number> {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', "await import('./src/serve.ts')"],
    { cwd: ROOT, stdio: 'inherit' },
  );
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - began;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const ms = (value: number | undefined) => (value === undefined ? '' : (value / 1000).toFixed(2));

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

const firsts: Start[] = [];
const restarts: Start[] = [];
const loads: number[] = [];
const dirs: string[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tms-bench-start-'));
    dirs.push(dataDir);
    firsts.push(await start(dataDir));
    restarts.push(await start(dataDir));
    loads.push(await load());
    say(
      `run ${run}: first start ${ms(firsts.at(-1)!.total)} s, restart ${ms(restarts.at(-1)!.total)} s, ` +
        `loading the code ${ms(loads.at(-1))} s`,
    );
  }
} finally {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

process.stdout.write(
  [
    `Seconds from spawn, median of ${RUNS} runs (each mark: when the service printed it).`,
    '',
    `| start | /api/health 200 | ${MARKS.map(([mark]) => mark).join(' | ')} | every run |`,
    `|---|---|${MARKS.map(() => '---|').join('')}---|`,
    row('first (empty data directory)', firsts),
    row('restart (existing data)', restarts),
    `| loading the code only | ${ms(median(loads))} | ${MARKS.map(() => '').join(' | ')} | ${loads.map(ms).join(', ')} |`,
    '',
  ].join('\n'),
);
