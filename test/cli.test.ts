import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from './support/database.ts';
import { client } from './support/http.ts';
import {
  launchServe,
  postgresProcessesOf,
  run,
  runInProcess,
  startServe,
  stopServe,
} from './support/process.ts';

/** The port of the PostgreSQL server running the cluster in `dataDir`, from its postmaster.pid. */
async function postgresPortOf(dataDir: string): Promise<number> {
  const lines = (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
  return Number(lines[3]);
}

describe('tms serve with the embedded database', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-cli-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('starts, seeds the demo once, stops cleanly on SIGTERM, keeps every row across a restart, and recovers the database server a killed service left behind', async () => {
    const first = await startServe({ TMS_DATA_DIR: dataDir });
    const api = client(first.baseUrl);
    assert.equal((await api.get('/api/health')).status, 200);

    const password = /Password for every demo account: (\S+)/.exec(first.output())?.[1];
    assert.ok(password, first.output());
    const saved = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    assert.equal(saved.password, password);
    assert.equal((await stat(path.join(dataDir, 'demo-credentials.json'))).mode & 0o777, 0o600);
    const emails = [
      'platform@demo.test',
      'admin@demo.test',
      'employee@demo.test',
      'contractor@demo.test',
      'customer@demo.test',
      'driver@demo.test',
    ];
    const tokens: string[] = [];
    for (const email of emails) {
      const answer = await api.post('/api/v1/user/login', { email, password });
      assert.equal(answer.status, 200, email);
      tokens.push(answer.body.access_token);
    }
    const servers = await postgresProcessesOf(dataDir);
    assert.equal(servers.length > 0, true);

    // A command run beside the service uses its database server and leaves it running.
    const added = await run(
      [
        'user',
        'create',
        '--email',
        'late@demo.test',
        '--name',
        'Late Comer',
        '--kind',
        'employee',
        '--business',
        'demo',
        '--password-stdin',
      ],
      { TMS_DATA_DIR: dataDir },
      'late-comer-password\n',
    );
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(await postgresProcessesOf(dataDir), servers);
    // It found the server through the note the service keeps in its data directory (owner only),
    // and says so.
    const note = path.join(dataDir, 'service.json');
    assert.equal((await stat(note)).mode & 0o777, 0o600);
    const { port } = JSON.parse(await readFile(note, 'utf8'));
    assert.equal(port, await postgresPortOf(dataDir));
    assert.ok(
      added.stderr.includes(`Using the running service's database (embedded, port ${port}, ${dataDir})`),
      added.stderr,
    );
    assert.doesNotMatch(added.stdout, /database/i);
    assert.equal(
      (await api.post('/api/v1/user/login', { email: 'late@demo.test', password: 'late-comer-password' }))
        .status,
      200,
    );

    assert.equal(await stopServe(first), 0);
    assert.deepEqual(await postgresProcessesOf(dataDir), []);
    assert.equal(existsSync(path.join(dataDir, 'service.json')), false, 'the note goes with the service');

    // With no service, a command starts the embedded server for itself, and stops it.
    const alone = await run(['business', 'create', '--code', 'alone', '--name', 'Alone'], {
      TMS_DATA_DIR: dataDir,
    });
    assert.equal(alone.code, 0, alone.stderr);
    assert.ok(alone.stderr.includes(`Starting the embedded database in ${dataDir}`), alone.stderr);
    assert.deepEqual(await postgresProcessesOf(dataDir), []);

    const second = await startServe({ TMS_DATA_DIR: dataDir });
    try {
      assert.ok(!second.output().includes(password), 'the password is printed only once');
      assert.match(second.output(), /Demo sign-in details are in/);
      const again = client(second.baseUrl);
      for (const token of tokens) assert.equal((await again.get('/api/v1/user/me', { token })).status, 200);
      assert.equal((await again.post('/api/v1/user/login', { email: emails[1], password })).status, 200);
    } catch (error) {
      await stopServe(second);
      throw error;
    }

    // The restarted service is then killed outright (one start fewer than a service of its own):
    // it leaves its database server behind, and the next start recovers it.
    const exited = new Promise((resolve) => second.child.on('exit', resolve));
    second.child.kill('SIGKILL');
    await exited;
    const orphans = await postgresProcessesOf(dataDir);
    assert.ok(orphans.length > 0, 'SIGKILL leaves the database server running');

    const next = await startServe({ TMS_DATA_DIR: dataDir });
    try {
      const api = client(next.baseUrl);
      assert.equal((await api.get('/api/health')).status, 200);
      assert.equal(
        (await api.post('/api/v1/user/login', { email: 'admin@demo.test', password })).status,
        200,
      );
      for (const pid of orphans) assert.ok(!(await postgresProcessesOf(dataDir)).includes(pid));
    } finally {
      assert.equal(await stopServe(next), 0);
    }
    assert.deepEqual(await postgresProcessesOf(dataDir), []);
  });

  it('ignores the note of a service that no longer runs, and starts the database itself', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid!;
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(path.join(dataDir, 'service.json'), JSON.stringify({ pid, port: 1 }), { mode: 0o600 });
    const added = await run(['business', 'create', '--code', 'after-crash', '--name', 'After Crash'], {
      TMS_DATA_DIR: dataDir,
    });
    assert.equal(added.code, 0, added.stderr);
    assert.ok(added.stderr.includes(`Starting the embedded database in ${dataDir}`), added.stderr);
    assert.deepEqual(await postgresProcessesOf(dataDir), []);
  });
});

// A real process connects to DATABASE_URL (migrate, serve); what the other commands do is checked
// with the command line called in this process.
describe('tms commands against DATABASE_URL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, TMS_DEMO_PASSWORD: 'demo-password-1' };
  });
  after(() => database.drop());

  it('migrates, seeds the demo only when asked and only once', async () => {
    const migrated = await run(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /up to date/);
    assert.ok(
      migrated.stderr.includes(`Using DATABASE_URL (${new URL(database.url).host})`),
      migrated.stderr,
    );

    const seeded = await runInProcess(['seed', '--demo'], env);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /admin@demo\.test/);
    assert.match(seeded.stdout, /demo-password-1/);
    const twice = await runInProcess(['seed', '--demo'], env);
    assert.match(twice.stdout, /already exists/);
  });

  it('says how many migrations it applied to an empty database, and up to date only when none was left', async () => {
    const empty = await createEmptyDatabase();
    try {
      const first = await runInProcess(['migrate'], { DATABASE_URL: empty.url });
      assert.equal(first.code, 0, first.stderr);
      const applied = /Applied (\d+) migrations \(0001_\w+ to (\d{4})_\w+\)\./.exec(first.stdout);
      assert.ok(applied, first.stdout);
      const files = (await readdir('migrations')).filter((file) => file.endsWith('.sql')).sort();
      assert.equal(Number(applied[1]), files.length);
      assert.equal(applied[2], files.at(-1)!.slice(0, 4));
      assert.doesNotMatch(first.stdout, /up to date/);
      const again = await runInProcess(['migrate'], { DATABASE_URL: empty.url });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /up to date: no migration to apply/);
    } finally {
      await empty.drop();
    }
  });

  it('rebuilds the analytics rollup of a business, telling its progress, the same each time', async () => {
    const rebuilt = await runInProcess(['analytics', 'rebuild', '--business', 'demo'], env);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /s orders created, by day/);
    const summary = /Rebuilt the analytics of demo in [\d.]+s: (.*)/.exec(rebuilt.stdout);
    assert.ok(summary, rebuilt.stdout);
    assert.match(summary[1]!, /[1-9]\d* daily rows/);
    const again = await runInProcess(['analytics', 'rebuild', '--business', 'demo'], env);
    assert.equal(/Rebuilt the analytics of demo in [\d.]+s: (.*)/.exec(again.stdout)?.[1], summary[1]);
    const unknown = await runInProcess(['analytics', 'rebuild', '--business', 'nowhere'], env);
    assert.equal(unknown.code, 1);
  });

  it('creates businesses, users and scoped tokens that the running service accepts', async () => {
    const business = await runInProcess(
      ['business', 'create', '--code', 'north', '--name', 'North Freight'],
      env,
    );
    assert.equal(business.code, 0, business.stderr);
    const user = await runInProcess(
      [
        'user',
        'create',
        '--email',
        'ops@north.test',
        '--name',
        'Olive Ops',
        '--kind',
        'employee',
        '--business',
        'north',
        '--password-stdin',
      ],
      env,
      'a-long-password\n',
    );
    assert.equal(user.code, 0, user.stderr);
    const duplicate = await runInProcess(
      [
        'user',
        'create',
        '--email',
        'OPS@north.test',
        '--name',
        'Dup',
        '--kind',
        'employee',
        '--business',
        'north',
      ],
      env,
    );
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already exists/);

    const unknownProfile = await runInProcess(
      ['token', 'create', '--user', 'ops@north.test', '--profile', 'most'],
      env,
    );
    assert.equal(unknownProfile.code, 1);
    assert.match(unknownProfile.stderr, /Allowed choices are .*ops-readonly/);
    const token = await runInProcess(
      ['token', 'create', '--user', 'ops@north.test', '--profile', 'support'],
      env,
    );
    assert.equal(token.code, 0, token.stderr);
    const bearer = token.stdout.trim();
    assert.match(bearer, /^tms_/);

    const running = await startServe(env);
    try {
      const api = client(running.baseUrl);
      const me = await api.get('/api/v1/user/me', { token: bearer });
      assert.equal(me.status, 200);
      assert.equal(me.body.business.code, 'north');
      assert.equal(me.body.token.profile, 'support');
      assert.deepEqual(me.body.token.scopes, [
        'orders:read',
        'analytics:read',
        'address:read',
        'approvals:read',
      ]);
      const signIn = await api.post('/api/v1/user/login', {
        email: 'ops@north.test',
        password: 'a-long-password',
      });
      assert.equal(signIn.status, 200);
    } finally {
      assert.equal(await stopServe(running), 0);
    }
  });

  it('never seeds an external database on start', async () => {
    const fresh = await createTestDatabase();
    try {
      const running = await startServe({ DATABASE_URL: fresh.url });
      try {
        const api = client(running.baseUrl);
        assert.equal((await api.get('/api/health')).status, 200);
        const answer = await api.post('/api/v1/user/login', {
          email: 'admin@demo.test',
          password: 'anything-at-all',
        });
        assert.equal(answer.status, 401);
        assert.ok(!running.output().includes('Demo data created'));
      } finally {
        await stopServe(running);
      }
    } finally {
      await fresh.drop();
    }
  });
});

describe('tms help and configuration errors', () => {
  it('explains every command without starting or reaching any database', async () => {
    const dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'tms-help-')), 'data');
    // Nothing listens there: a command that tried it would fail.
    const env = { TMS_DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const help = await run(['--help'], env);
    assert.equal(help.code, 0);
    assert.equal(help.stderr, '');
    assert.match(help.stdout, /TMS_DATA_DIR/);
    for (const command of ['serve', 'migrate', 'seed', 'user', 'token', 'business', 'analytics']) {
      assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
    }
    const tokenHelp = await run(['token', 'create', '--help'], env);
    assert.equal(tokenHelp.code, 0);
    assert.match(tokenHelp.stdout, /--profile <name>/);
    assert.match(tokenHelp.stdout, /ops-readonly/);
    const userHelp = await run(['user', 'create', '--help'], env);
    assert.match(userHelp.stdout, /client_admin/);
    assert.equal(existsSync(dataDir), false, 'no embedded database was made');
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('refuses a port already in use before it starts or seeds any database, naming PORT', async () => {
    const holder = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => holder.once('listening', resolve));
    const { port } = holder.address() as net.AddressInfo;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tms-port-'));
    try {
      const taken = await run(['serve'], { HOST: '127.0.0.1', PORT: String(port), TMS_DATA_DIR: dataDir });
      assert.equal(taken.code, 2, taken.stderr);
      assert.match(taken.stderr, new RegExp(`PORT=${port}: 127\\.0\\.0\\.1:${port} is already in use`));
      assert.doesNotMatch(taken.stdout, /admin@demo\.test|Demo/);
      assert.deepEqual(await readdir(dataDir), [], 'no database was created');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('answers 503 on its port while it starts (a first start), then serves there once it listens', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tms-starting-'));
    const running = await launchServe({ TMS_DATA_DIR: dataDir });
    running.listening.catch(() => {});
    try {
      // The first answer on the port comes from the held port (initdb and the seed are still ahead).
      let first: Response | undefined;
      while (!first) {
        first = await fetch(`${running.baseUrl}/api/health`, { signal: AbortSignal.timeout(30_000) }).catch(
          (error: Error) => {
            if (error.name === 'TimeoutError')
              throw new Error('the port held during the start never answered');
            return undefined;
          },
        );
        if (!first) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(first.status, 503);
      assert.equal(first.headers.get('retry-after'), '1');
      assert.deepEqual(await first.json(), { status: 'starting' });
      // A caller that keeps its connection open does not keep the service from taking the port.
      const lingering = net.connect(Number(new URL(running.baseUrl).port), '127.0.0.1');
      lingering.on('error', () => {});
      await running.listening;
      lingering.destroy();
      const health = await client(running.baseUrl).get('/api/health');
      assert.equal(health.status, 200);
      assert.equal(await stopServe(running), 0);
    } finally {
      running.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad setting with a message naming it', async () => {
    const bad = await run(['migrate'], { PORT: 'eighty', LOG_LEVEL: 'loud' });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /PORT="eighty": must be a whole number from 0 to 65535/);
    assert.match(bad.stderr, /LOG_LEVEL="loud"/);
  });
});
