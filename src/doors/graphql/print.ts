/**
 * Writes schema.graphql at the repository root from the operation catalog (`npm run graphql:schema`).
 * No database is needed: only the catalog's schemas are read.
 */
import { writeFile } from 'node:fs/promises';
import { createCatalog } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { createServices } from '../../services.ts';
import { printGraphqlSchema } from './schema.ts';

const SCHEMA_FILE = new URL('../../../schema.graphql', import.meta.url);

const catalog = createCatalog(createServices(loadConfig({}), systemClock));
await writeFile(SCHEMA_FILE, printGraphqlSchema(catalog));
process.stdout.write(`Wrote ${SCHEMA_FILE.pathname}\n`);
