import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { DiskStorage } from './disk.ts';
import { S3Storage } from './s3.ts';
import type { FileStorage } from './storage.ts';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

/** What every storage must do, whatever holds the files. */
function contract(name: string, storage: () => FileStorage) {
  describe(`${name}: the storage contract`, () => {
    it('gives back the exact bytes with their content type', async () => {
      await storage().put('proofs/1/abc', PNG_BYTES, 'image/png');
      const found = await storage().get('proofs/1/abc');
      assert.ok(found);
      assert.ok(found.bytes.equals(PNG_BYTES));
      assert.equal(found.contentType, 'image/png');
    });

    it('answers null for a key that holds nothing', async () => {
      assert.equal(await storage().get('proofs/1/none'), null);
      assert.equal(await storage().get('nothing-here'), null);
    });

    it('keeps each key its own content type, and a put again replaces the file', async () => {
      await storage().put('proofs/2/photo', Buffer.from('jpeg bytes'), 'image/jpeg');
      await storage().put('proofs/2/other.webp', Buffer.from('webp bytes'), 'image/webp');
      assert.equal((await storage().get('proofs/2/photo'))?.contentType, 'image/jpeg');
      assert.equal((await storage().get('proofs/2/other.webp'))?.contentType, 'image/webp');
      await storage().put('proofs/2/photo', Buffer.from('png now'), 'image/png');
      const replaced = await storage().get('proofs/2/photo');
      assert.equal(replaced?.bytes.toString(), 'png now');
      assert.equal(replaced?.contentType, 'image/png');
    });

    it('forgets a deleted file, and deletes a missing one without complaint', async () => {
      await storage().put('labels/3/kept', PNG_BYTES, 'image/png');
      await storage().delete('labels/3/kept');
      assert.equal(await storage().get('labels/3/kept'), null);
      await storage().delete('labels/3/kept');
      await storage().delete('labels/3/never');
    });

    it('refuses keys that could leave its place', async () => {
      for (const key of ['../escape', 'a/../../b', '/absolute', 'a//b', 'a/./b', '', 'a\\b', 'sp ace']) {
        await assert.rejects(storage().put(key, PNG_BYTES, 'image/png'), /Bad storage key/, key);
        await assert.rejects(storage().get(key), /Bad storage key/, key);
      }
    });
  });
}

describe('file storage', () => {
  let directory: string;
  let disk: DiskStorage;
  let s3Directory: string;
  let s3rver: S3rver;
  let s3: S3Storage;

  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'tms-files-'));
    disk = new DiskStorage(path.join(directory, 'files'));
    s3Directory = await mkdtemp(path.join(tmpdir(), 'tms-s3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Directory, silent: true });
    const { port } = await s3rver.run();
    const settings = {
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'proofs',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      region: 'us-east-1',
      forcePathStyle: true,
    };
    const admin = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
    await admin.send(new CreateBucketCommand({ Bucket: settings.bucket }));
    admin.destroy();
    s3 = new S3Storage(settings);
  });

  after(async () => {
    s3.close();
    await s3rver.close();
    await rm(directory, { recursive: true, force: true });
    await rm(s3Directory, { recursive: true, force: true });
  });

  contract('disk', () => disk);
  contract('S3-compatible (s3rver)', () => s3);

  it('disk: keeps the bytes as they are under files/, and leaves no temporary file', async () => {
    await disk.put('proofs/9/kept', PNG_BYTES, 'image/png');
    const file = path.join(directory, 'files', 'proofs', '9', 'kept');
    assert.ok((await readFile(file)).equals(PNG_BYTES));
    assert.deepEqual((await readdir(path.dirname(file))).sort(), ['kept', 'kept.meta.json']);
  });

  it('disk: a file without its media type beside it is not whole yet, so not found', async () => {
    await disk.put('proofs/9/half', PNG_BYTES, 'image/png');
    await rm(path.join(directory, 'files', 'proofs', '9', 'half.meta.json'));
    assert.equal(await disk.get('proofs/9/half'), null);
    await assert.rejects(disk.get('proofs/9/half.meta.json'), /Bad storage key/);
  });
});
