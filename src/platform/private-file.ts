import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A file made once with what `make` gives (a generated key or secret, mode 0600) and read ever
 * after. Two processes starting together agree on one: the file appears whole through a hard
 * link, which fails if it already exists, and the loser reads the winner's.
 */
export async function readOrCreatePrivateFile(file: string, make: () => string): Promise<string> {
  const existing = await readIfThere(file);
  if (existing !== undefined) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, make(), { mode: 0o600 });
  await chmod(draft, 0o600);
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  return readFile(file, 'utf8');
}

function readIfThere(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}
