import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** With `SCREENSHOTS=1`, a picture the service drew (SVG) as docs/pictures/{name}, as the docs show it. */
export async function pictureWhenAsked(name: string, content: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  const folder = path.resolve(import.meta.dirname, '..', '..', 'docs', 'pictures');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), content);
}
