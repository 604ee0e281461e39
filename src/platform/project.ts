import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by bin/run.mjs in the built file: the checkout it was built from. */
declare const TMS_PROJECT_ROOT: string | undefined;

/**
 * The project's folder (the one holding package.json, migrations/ and docs/), found from this
 * module whether it runs from its source file or from the single built file `npm start` loads.
 */
export const PROJECT_ROOT = (() => {
  if (typeof TMS_PROJECT_ROOT === 'string') return TMS_PROJECT_ROOT;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json')) || folder.split(path.sep).includes('node_modules')) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
  return folder;
})();

/**
 * A file built beside the service's own files (bin/run.mjs writes them all into one folder), when
 * the service runs built (`npm start`); undefined when it runs from its sources.
 */
export function besideBuild(file: string): URL | undefined {
  return typeof TMS_PROJECT_ROOT === 'string' ? new URL(`./${file}`, import.meta.url) : undefined;
}
