import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../platform/clock.ts';
import { KEY_FILE, parseSigningKey, readOrCreateKeyFile } from './keys.ts';
import { canonicalStatement, DocumentsService } from './service.ts';

const SEED = Buffer.alloc(32, 7);

describe('document signing keys', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tms-document-keys-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('reads a base64 seed, a base64url seed and the same key as a PEM, with literal \\n', () => {
    const fromSeed = parseSigningKey(SEED.toString('base64'));
    assert.equal(parseSigningKey(SEED.toString('base64url')).keyId, fromSeed.keyId);
    const pem = fromSeed.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.equal(parseSigningKey(pem).keyId, fromSeed.keyId);
    assert.equal(parseSigningKey(pem.replaceAll('\n', '\\n')).keyId, fromSeed.keyId);
    assert.match(fromSeed.keyId, /^[0-9a-f]{16}$/);
    assert.match(fromSeed.publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
    const signature = sign(null, Buffer.from('x'), fromSeed.privateKey);
    assert.ok(verify(null, Buffer.from('x'), fromSeed.publicKeyPem, signature));
  });

  it('refuses a short seed, garbage and a key of another kind', () => {
    assert.throws(() => parseSigningKey(Buffer.alloc(16).toString('base64')), /32-byte/);
    assert.throws(() => parseSigningKey('not a key at all!'), /32-byte/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    assert.throws(() => parseSigningKey(rsa.export({ format: 'pem', type: 'pkcs8' }).toString()), /Ed25519/);
    assert.throws(
      () => parseSigningKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'),
      /PEM/,
    );
    assert.throws(
      () => new DocumentsService(new ManualClock(), { signingKey: 'short', dataDir: '/nonexistent' }),
      /DOCUMENT_SIGNING_KEY/,
    );
  });

  it('generates a key once, 0600 in the data directory, and reads it back', async () => {
    const dir = path.join(await tempDir(), 'data');
    const first = await readOrCreateKeyFile(dir);
    const { mode } = await stat(path.join(dir, KEY_FILE));
    assert.equal(mode & 0o777, 0o600);
    assert.equal((await readOrCreateKeyFile(dir)).keyId, first.keyId);
  });

  it('names the file when the kept key is unreadable', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, KEY_FILE), 'garbage\n', { mode: 0o600 });
    await assert.rejects(readOrCreateKeyFile(dir), new RegExp(`${KEY_FILE} must be a PKCS#8 PEM`));
  });

  it('gives processes starting together one key, and leaves no draft behind', async () => {
    const dir = await tempDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => readOrCreateKeyFile(dir)));
    assert.equal(new Set(keys.map((key) => key.keyId)).size, 1);
    assert.deepEqual(await readdir(dir), [KEY_FILE]);
  });

  it('prefers the configured key, and never touches the data directory then', async () => {
    const dir = await tempDir();
    const service = new DocumentsService(new ManualClock(), {
      signingKey: SEED.toString('base64'),
      dataDir: dir,
    });
    assert.equal((await service.signingKey()).keyId, parseSigningKey(SEED.toString('base64')).keyId);
    assert.deepEqual(await readdir(dir), []);
  });

  it('signs a statement whose fields cannot run into each other', async () => {
    const statement = canonicalStatement({
      sha256: 'a'.repeat(64),
      kind: 'label',
      issuedAt: new Date('2026-11-02T09:30:00Z'),
      reference: 'TMS:1:2',
    });
    assert.equal(statement, `tms-document:v1:${'a'.repeat(64)}:label:2026-11-02T09:30:00.000Z:TMS:1:2`);
    // Only the last field may hold a colon: a kind with one is refused before anything is stored.
    const service = new DocumentsService(new ManualClock(), {
      signingKey: SEED.toString('base64'),
      dataDir: '/nonexistent',
    });
    const db = {} as Parameters<DocumentsService['issue']>[0];
    await assert.rejects(
      service.issue(db, { businessId: 1, kind: 'la:bel', reference: 'TMS1', bytes: Buffer.from('%PDF-') }),
      /Bad document kind/,
    );
  });
});
