/**
 * Run by the build (bin/run.mjs) from the built files: converts every operation's schemas to JSON
 * Schema once, into a file beside those files, which each start of that build takes instead of
 * converting them again (doors/json-schema.ts, takeConvertedSchemas). The schemas do not depend
 * on the configuration (the committed contracts are made the same way): no database, no settings.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createCatalog } from './app.ts';
import { loadConfig } from './config.ts';
import { CONVERTED_SCHEMAS_FILE, convertedSchemasOf } from './doors/json-schema.ts';
import { systemClock } from './platform/clock.ts';
import { besideBuild } from './platform/project.ts';
import { createServices } from './services.ts';

const catalog = createCatalog(createServices(loadConfig({}), systemClock));
// Written aside and moved into place: a start never reads half a file.
const file = besideBuild(CONVERTED_SCHEMAS_FILE)!;
const partial = besideBuild(`${CONVERTED_SCHEMAS_FILE}.${process.pid}.tmp`)!;
writeFileSync(partial, JSON.stringify(convertedSchemasOf(catalog.list())));
renameSync(partial, file);
