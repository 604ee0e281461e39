import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** Running the real `tms` command line in child processes. */

const MAIN = path.resolve('src/main.ts');
/** What `npm start` runs: the service built from the sources (rebuilt when they changed). */
const BUILT_RUNNER = path.resolve('bin/run.mjs');

/** Where the service runs from: its TypeScript sources (through tsx), or built as `npm start` runs it. */
export type From = 'sources' | 'built';

/** The environment of a fresh shell: no database configured unless the test says so. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  // Database bounds a loaded machine's ordinary work fits in (the service's own are for 503s).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_TIMEOUT_MS: '60000',
    DATABASE_CONNECT_TIMEOUT_MS: '30000',
    ...extra,
  };
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

export async function run(args: string[], env: Record<string, string>, stdin?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: environment(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(stdin ?? '');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

/**
 * The same command line called in this process: what a command does, without a process start of
 * its own (loading the service's modules under the loader costs seconds a spawn). The exit code
 * is the one the process would end with.
 */
export async function runInProcess(args: string[], env: Record<string, string>, stdin?: string) {
  const { runCli } = await import('../../src/cli.ts');
  let stdout = '';
  let stderr = '';
  const code = await runCli([process.execPath, MAIN, ...args], {
    env: environment(env),
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: () => stdin ?? '',
  });
  return { code: code ?? 0, stdout, stderr };
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
}

/** A loopback port nothing listens on at this moment. */
export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts `tms serve` and waits until it says it listens. The wait is only a guard against a hung
 * start, made long enough for a first start on a loaded 2-core machine.
 */
export async function startServe(env: Record<string, string>, from: From = 'sources'): Promise<Running> {
  const launched = await launchServe(env, from);
  await launched.listening;
  return launched;
}

/** Spawns `tms serve` on a free port; `listening` settles once it says it listens (or it exits). */
export async function launchServe(
  env: Record<string, string>,
  from: From = 'sources',
): Promise<Running & { listening: Promise<void> }> {
  const port = await freePort();
  const command = from === 'built' ? [BUILT_RUNNER, 'serve'] : ['--import', 'tsx', MAIN, 'serve'];
  const child = spawn(process.execPath, command, {
    // The embedded MQTT broker on any free port: several services start at once in the tests.
    env: environment({ MQTT_PORT: '0', ...env, PORT: String(port) }),
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 5 min:\n${output}`)), 300_000);
    const watch = () => {
      if (output.includes('TMS listening on')) {
        clearTimeout(timer);
        child.removeListener('exit', exited);
        resolve();
      }
    };
    const exited = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    };
    child.stdout!.on('data', watch);
    child.on('exit', exited);
  });
  return { child, output: () => output, baseUrl: `http://127.0.0.1:${port}`, listening };
}

/** Starts `tms worker` (jobs only, no HTTP) and waits until it says it runs jobs. */
export async function startWorker(env: Record<string, string>): Promise<Omit<Running, 'baseUrl'>> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'worker'], { env: environment(env) });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in 5 min:\n${output}`)), 300_000);
    child.stdout!.on('data', () => {
      if (!output.includes('TMS worker running jobs')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, output: () => output };
}

export async function stopServe(running: Running): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => running.child.on('exit', resolve));
  running.child.kill('SIGTERM');
  return exited;
}

/** PostgreSQL processes serving the cluster in `dataDir`, found through /proc. */
export async function postgresProcessesOf(dataDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (command.includes('postgres') && command.includes(path.join(dataDir, 'pg'))) pids.push(Number(entry));
  }
  return pids;
}
