/**
 * Writes docs/mcp-tools.md from the operation catalog (`npm run mcp:tools`). No database is
 * needed: only the catalog's declarations are read.
 */
import { writeFile } from 'node:fs/promises';
import { createCatalog, createServices } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { toolTables } from './tools.ts';

const TOOLS_FILE = new URL('../../../docs/mcp-tools.md', import.meta.url);

const catalog = createCatalog(createServices(loadConfig({}), systemClock));
await writeFile(TOOLS_FILE, toolTables(catalog));
process.stdout.write(`Wrote ${TOOLS_FILE.pathname}\n`);
