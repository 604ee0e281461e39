import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkKey, type FileStorage, type StoredFile } from './storage.ts';

/** What the service keeps beside each file: the media type it was stored with. */
const META_SUFFIX = '.meta.json';

/**
 * Files in a directory (`<TMS_DATA_DIR>/files`): each key is a file holding exactly the bytes,
 * with its media type beside it. Both are written to a temporary name and renamed into place,
 * the bytes first, so a reader never sees half a file.
 */
export class DiskStorage implements FileStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = path.resolve(directory);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeAtomically(file, bytes);
    await writeAtomically(`${file}${META_SUFFIX}`, JSON.stringify({ content_type: contentType }));
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.fileOf(key);
    // The media type is written last: a file without it is not whole yet.
    const meta = await readOrNull(`${file}${META_SUFFIX}`);
    if (meta === null) return null;
    const bytes = await readOrNull(file);
    if (bytes === null) return null;
    return {
      bytes,
      contentType: (JSON.parse(meta.toString('utf8')) as { content_type: string }).content_type,
    };
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    // The media type first: without it the file is not whole, so `get` stops answering it at once.
    await rm(`${file}${META_SUFFIX}`, { force: true });
    await rm(file, { force: true });
  }

  private fileOf(key: string): string {
    const file = path.resolve(this.root, checkKey(key));
    // The key's shape already keeps it inside; this holds the line whatever the shape becomes.
    if (!file.startsWith(this.root + path.sep) || file.endsWith(META_SUFFIX)) {
      throw new Error(`Bad storage key ${JSON.stringify(key)}`);
    }
    return file;
  }
}

async function writeAtomically(file: string, data: Buffer | string): Promise<void> {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(draft, data, { mode: 0o600 });
    await rename(draft, file);
  } catch (error) {
    await rm(draft, { force: true });
    throw error;
  }
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
