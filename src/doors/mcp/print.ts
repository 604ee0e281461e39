/**
 * Writes docs/mcp-tools.md, and the tables of tool-list sizes and budgets in docs/mcp.md, from
 * the operation catalog (`npm run mcp:tools`). No database is needed: only the catalog's
 * declarations are read.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createCatalog } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { createServices } from '../../services.ts';
import { withListSizes } from './list-budgets.ts';
import { toolTables } from './tools.ts';

const TOOLS_FILE = new URL('../../../docs/mcp-tools.md', import.meta.url);
const MCP_FILE = new URL('../../../docs/mcp.md', import.meta.url);

const catalog = createCatalog(createServices(loadConfig({}), systemClock));
await writeFile(TOOLS_FILE, toolTables(catalog));
await writeFile(MCP_FILE, withListSizes(await readFile(MCP_FILE, 'utf8'), catalog));
process.stdout.write(
  `Wrote ${TOOLS_FILE.pathname} and the tool-list sizes and budgets in ${MCP_FILE.pathname}\n`,
);
