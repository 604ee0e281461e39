/**
 * How long a `tms` command takes, from spawn to exit: `--help`, then a read (`migrate` on an
 * up-to-date schema) and a write (`business create`) with no service running, and again while
 * `tms serve` runs on the same data directory.
 *
 *   node --import tsx bench/cli.ts [--compare <other checkout>]
 *
 * With --compare, the same commands of another checkout (say the main branch's) run in turn with
 * this one's, each on its own data directory, so both see the same load on the machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, knob, percentile, say } from './support.ts';

const RUNS = knob('RUNS', 5);

interface Checkout {
  name: string;
  main: string;
  dataDir: string;
}

function environment(checkout: Checkout, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    TMS_DATA_DIR: checkout.dataDir,
    ...extra,
  };
  delete env.DATABASE_URL;
  return env;
}

/** Runs one command of the checkout; its time in milliseconds, spawn to exit. */
async function timed(checkout: Checkout, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', checkout.main, ...args], {
    cwd: path.dirname(path.dirname(checkout.main)),
    env: environment(checkout),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`${checkout.name}: tms ${args.join(' ')} exited with ${code}:\n${stderr}`);
  return elapsed;
}

/** `tms serve` on the checkout's data directory, once it listens (no time limit: a bench waits). */
async function startService(checkout: Checkout): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', checkout.main, 'serve'], {
    cwd: path.dirname(path.dirname(checkout.main)),
    env: environment(checkout, { PORT: String(await freePort()), MQTT_PORT: '0' }),
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('TMS listening on')) resolve();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      reject(new Error(`${checkout.name}: serve exited with ${code}:\n${output}`)),
    );
  });
  child.removeAllListeners('exit');
  return child;
}

async function stopService(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const compareAt = process.argv.indexOf('--compare');
const roots = [{ name: 'this checkout', root: path.resolve('.') }];
if (compareAt > 0) roots.push({ name: 'compared', root: path.resolve(process.argv[compareAt + 1]!) });
const checkouts: Checkout[] = [];
for (const { name, root } of roots) {
  checkouts.push({
    name,
    main: path.join(root, 'src/main.ts'),
    dataDir: await mkdtemp(path.join(tmpdir(), 'tms-bench-cli-')),
  });
}

const times = new Map<string, number[]>();
const record = (checkout: Checkout, what: string, ms: number) => {
  const key = `${checkout.name}\t${what}`;
  times.set(key, [...(times.get(key) ?? []), ms]);
};

/** Each case RUNS times, the checkouts in turn. */
async function measure(what: string, args: (run: number) => string[]): Promise<void> {
  say(`${what} ...`);
  for (let run = 0; run < RUNS; run++) {
    for (const checkout of checkouts) record(checkout, what, await timed(checkout, args(run)));
  }
}

try {
  say('Creating the clusters (not timed) ...');
  for (const checkout of checkouts) await timed(checkout, ['migrate']);

  await measure('--help', () => ['--help']);
  await measure('migrate, no service', () => ['migrate']);
  await measure('business create, no service', (run) => [
    'business',
    'create',
    '--code',
    `alone-${run}`,
    '--name',
    'A',
  ]);

  say('Starting the services (not timed) ...');
  const services = [];
  for (const checkout of checkouts) services.push(await startService(checkout));
  try {
    await measure('migrate, service running', () => ['migrate']);
    await measure('business create, service running', (run) => [
      'business',
      'create',
      '--code',
      `beside-${run}`,
      '--name',
      'B',
    ]);
  } finally {
    for (const service of services) await stopService(service);
  }

  console.log(`| command | ${checkouts.map((c) => `${c.name}: median (min-max)`).join(' | ')} |`);
  console.log(`|---|${checkouts.map(() => '---|').join('')}`);
  const cases = [...new Set([...times.keys()].map((key) => key.split('\t')[1]!))];
  for (const what of cases) {
    const cells = checkouts.map((checkout) => {
      const sorted = [...times.get(`${checkout.name}\t${what}`)!].sort((a, b) => a - b);
      const s = (ms: number) => (ms / 1000).toFixed(2);
      return `${s(percentile(sorted, 50))} s (${s(sorted[0]!)}-${s(sorted.at(-1)!)})`;
    });
    console.log(`| \`${what}\` | ${cells.join(' | ')} |`);
  }
} finally {
  for (const checkout of checkouts) await rm(checkout.dataDir, { recursive: true, force: true });
}
