/**
 * Writes openapi.json at the repository root from the operation catalog (`npm run openapi`). Its
 * server is the relative `/api`: a client generated from the file calls the host it is given, not
 * a developer's loopback (the document served at /api/openapi.json names PUBLIC_BASE_URL instead).
 * No database is needed: only the catalog's schemas are read.
 */
import { writeFile } from 'node:fs/promises';
import { createCatalog } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { createServices } from '../../services.ts';
import { API_PREFIX } from '../rest/index.ts';
import { buildOpenApiDocument } from './document.ts';

const DOCUMENT_FILE = new URL('../../../openapi.json', import.meta.url);

const config = loadConfig({});
const catalog = createCatalog(createServices(config, systemClock));
const document = buildOpenApiDocument(catalog, { serverUrl: API_PREFIX });
await writeFile(DOCUMENT_FILE, `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`Wrote ${DOCUMENT_FILE.pathname}\n`);
