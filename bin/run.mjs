#!/usr/bin/env node
/**
 * Runs the service's command line from one JavaScript file built from the TypeScript sources,
 * rebuilt only when a source is newer: loading it takes a fraction of what compiling hundreds of
 * modules at every start through a loader does (see bench/README.md, "Starting and stopping").
 * The tests and the development scripts run the sources directly.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = path.join(ROOT, 'node_modules', '.cache', 'tms', 'main.mjs');

function newestSource() {
  let newest = statSync(path.join(ROOT, 'package.json')).mtimeMs;
  for (const entry of readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return -1;
  }
}

if (builtAt() < newestSource()) {
  const { build } = await import('esbuild');
  mkdirSync(path.dirname(BUILT), { recursive: true });
  // Written beside and renamed into place: two starts at once never load a half-written file.
  const partial = `${BUILT}.${randomBytes(4).toString('hex')}.tmp`;
  await build({
    entryPoints: [path.join(ROOT, 'src', 'main.ts')],
    outfile: partial,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  renameSync(partial, BUILT);
}
await import(pathToFileURL(BUILT).href);
