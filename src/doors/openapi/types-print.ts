/**
 * Writes the screens' API types (src/web/shared/api.gen.ts, not committed) from the committed
 * openapi.json (`npm run web:types`, run by `npm run check`): the apps call the public API
 * through these types, so a screen that calls an operation the contract does not have, or with
 * fields it does not take, does not compile.
 */
import { writeFile } from 'node:fs/promises';
import openapiTS from 'openapi-typescript';

const CONTRACT = new URL('../../../openapi.json', import.meta.url);
const TYPES_FILE = new URL('../../web/shared/api.gen.ts', import.meta.url);

await writeFile(
  TYPES_FILE,
  `// Generated from openapi.json by npm run web:types.\n${await openapiTS(CONTRACT)}`,
);
