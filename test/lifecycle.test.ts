import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, postgresProcessesOf } from './support/process.ts';

/**
 * Stopping `npm start` as a terminal does: Ctrl-C sends SIGINT to the whole foreground process
 * group (npm, which forwards it to node once more, and node), and a process manager sends SIGTERM
 * to the group. Whatever the moment, the embedded PostgreSQL server must stop with the service.
 */

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` leading a process group of its own, as a shell's foreground job does. */
async function npmStart(dataDir: string): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    // Any free port: other tests run services at the same time.
    MQTT_PORT: '0',
    TMS_DATA_DIR: dataDir,
    TMS_DEMO_PASSWORD: 'lifecycle-password',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, port, output: () => output, exited };
}

/** Waits, as long as it takes, until `ready` holds; fails only if the service exits first. */
async function until(started: Started, ready: () => Promise<boolean> | boolean): Promise<void> {
  let gone = false;
  void started.exited.then(() => (gone = true));
  while (!(await ready())) {
    if (gone) assert.fail(`the service exited before it was ready:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answersHealth(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** No server holds the cluster: its postmaster.pid is gone (or names a dead process), and none runs on it. */
async function assertDatabaseStopped(dataDir: string, output: string): Promise<void> {
  const lock = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (lock !== undefined) {
    const pid = Number.parseInt(lock.split('\n')[0] ?? '', 10);
    assert.ok(!isAlive(pid), `PostgreSQL (pid ${pid}) still holds ${dataDir}:\n${output}`);
  }
  assert.deepEqual(await postgresProcessesOf(dataDir), [], output);
}

describe('npm start stopped by its process group', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-lifecycle-'));
  });
  after(async () => {
    // Whatever a failed assertion left behind is stopped, so the next run finds no orphan.
    for (const pid of await postgresProcessesOf(dataDir)) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {}
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} to the group once it answers stops the service and its database, exit code 0`, async () => {
      const started = await npmStart(dataDir);
      await until(started, () => answersHealth(started.port));
      process.kill(-started.child.pid!, signal);
      const { code, signal: killedBy } = await started.exited;
      assert.equal(killedBy, null, started.output());
      assert.equal(code, 0, started.output());
      await assertDatabaseStopped(dataDir, started.output());
    });
  }

  it('a second SIGINT while it stops still leaves no database running', async () => {
    const started = await npmStart(dataDir);
    await until(started, () => answersHealth(started.port));
    process.kill(-started.child.pid!, 'SIGINT');
    process.kill(-started.child.pid!, 'SIGINT');
    const { code } = await started.exited;
    assert.equal(code, 0, started.output());
    await assertDatabaseStopped(dataDir, started.output());
  });

  it('SIGINT while it starts, with the database up and the HTTP server not yet, stops the database too', async () => {
    const started = await npmStart(dataDir);
    await until(started, () => /Embedded PostgreSQL .*started/.test(started.output()));
    process.kill(-started.child.pid!, 'SIGINT');
    const { code } = await started.exited;
    assert.equal(code, 0, started.output());
    await assertDatabaseStopped(dataDir, started.output());
    assert.ok(!(await answersHealth(started.port)));
  });

  it('a first start stopped while it seeds leaves no database running, and the next start seeds in full', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'tms-lifecycle-fresh-'));
    try {
      const started = await npmStart(fresh);
      await until(started, () => /Embedded PostgreSQL created/.test(started.output()));
      process.kill(-started.child.pid!, 'SIGINT');
      const { code } = await started.exited;
      assert.equal(code, 0, started.output());
      await assertDatabaseStopped(fresh, started.output());

      const next = await npmStart(fresh);
      await until(next, () => answersHealth(next.port));
      const login = await fetch(`http://127.0.0.1:${next.port}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.test', password: 'lifecycle-password' }),
      });
      assert.equal(login.status, 200, next.output());
      process.kill(-next.child.pid!, 'SIGTERM');
      assert.equal((await next.exited).code, 0, next.output());
      await assertDatabaseStopped(fresh, next.output());
    } finally {
      for (const pid of await postgresProcessesOf(fresh)) {
        try {
          process.kill(pid, 'SIGINT');
        } catch {}
      }
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
