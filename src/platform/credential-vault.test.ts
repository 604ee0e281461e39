import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CredentialVault } from './credential-vault.ts';

describe('provider credentials at rest', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-tp-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('seals under the configured key, opens only for the same connection and key', async () => {
    const vault = new CredentialVault({ key: 'a'.repeat(32), dataDir });
    const sealed = await vault.seal('secret-credential', 7);
    assert.ok(!sealed.includes('secret-credential'), 'not in clear');
    assert.equal(await vault.open(sealed, 7), 'secret-credential');
    await assert.rejects(vault.open(sealed, 8), 'another connection cannot open it');
    await assert.rejects(
      new CredentialVault({ key: 'b'.repeat(32), dataDir }).open(sealed, 7),
      'nor another key',
    );
  });

  it('generates one key in the data directory when none is configured, kept for the next start', async () => {
    const sealed = await new CredentialVault({ key: undefined, dataDir }).seal('kept', 1);
    const file = await stat(path.join(dataDir, 'third-party-credential-key'));
    assert.equal(file.mode & 0o777, 0o600);
    assert.equal(await new CredentialVault({ key: undefined, dataDir }).open(sealed, 1), 'kept');
  });
});
