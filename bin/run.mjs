#!/usr/bin/env node
/**
 * Runs the service's command line from one JavaScript file built from the TypeScript sources,
 * rebuilt only when a source is newer: loading it takes a fraction of what compiling hundreds of
 * modules at every start through a loader does (see bench/README.md, "Starting and stopping").
 * The tests and the development scripts run the sources directly.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// One build per checkout: checkouts sharing node_modules (a symlink, worktrees) would otherwise
// load each other's builds, and read each other's migrations.
const CHECKOUT = createHash('sha256').update(realpathSync(ROOT)).digest('hex').slice(0, 12);
const BUILT = path.join(ROOT, 'node_modules', '.cache', 'tms', CHECKOUT, 'main.mjs');

function newestSource() {
  // This file too: it says how the service is built.
  let newest = Math.max(
    statSync(path.join(ROOT, 'package.json')).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
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

/**
 * Packages built into the service's own files: pure JavaScript in hundreds of small modules, each
 * a file Node would otherwise find, read and link at every start (see bench/README.md, "Starting
 * the service"). The others stay packages: native code, files read beside their code, or classes
 * other packages must recognise as their own (graphql, zod).
 */
const BUILT_IN_PACKAGES = new Set([
  'kysely',
  'libphonenumber-js',
  'jose',
  'zod',
  'zod-to-json-schema',
  '@modelcontextprotocol/sdk',
]);

/** Entries built beside main.mjs: the threads the service starts (platform/workers.ts). */
const WORKER_ENTRIES = ['solver-worker', 'label-worker', 'demo-worker'];

if (builtAt() < newestSource()) {
  const { build } = await import('esbuild');
  const dir = path.dirname(BUILT);
  mkdirSync(dir, { recursive: true });
  // Written into a directory of its own and moved into place, main.mjs last: two starts at once
  // never load a half-written file, and a main.mjs newer than the sources finds its parts built.
  const partial = path.join(dir, `build-${randomBytes(4).toString('hex')}.tmp`);
  const { metafile } = await build({
    entryPoints: ['main', 'schema-cache', ...WORKER_ENTRIES].map((name) =>
      path.join(ROOT, 'src', `${name}.ts`),
    ),
    outdir: partial,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What the service imports only dynamically is a chunk of its own, with the packages it
    // needs: `tms serve` starts the database before the service's code and packages load (see
    // bench/README.md, "Starting the service"), and a command loads only what it runs.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    plugins: [
      {
        name: 'packages-outside',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) => {
            const name = specifier.startsWith('@')
              ? specifier.split('/').slice(0, 2).join('/')
              : specifier.split('/')[0];
            return BUILT_IN_PACKAGES.has(name) ? undefined : { path: specifier, external: true };
          });
        },
      },
    ],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Beside the files, not inside them: each start would read and scan megabytes of maps that only
    // --enable-source-maps reads.
    sourcemap: 'linked',
    // The built file lives under node_modules, which may be another checkout's: it is told its own.
    define: { TMS_PROJECT_ROOT: JSON.stringify(ROOT) },
    logLevel: 'warning',
  });
  // Chunks are named by their content, so an older build's running process keeps finding its own.
  const built = Object.keys(metafile.outputs).map((output) => path.basename(output));
  const entries = new Set(['main.mjs', 'schema-cache.mjs', ...WORKER_ENTRIES.map((name) => `${name}.mjs`)]);
  for (const file of built.filter((name) => !entries.has(name)))
    renameSync(path.join(partial, file), path.join(dir, file));
  for (const name of WORKER_ENTRIES)
    renameSync(path.join(partial, `${name}.mjs`), path.join(dir, `${name}.mjs`));
  // The operations' schemas converted once for this build (src/schema-cache.ts), before main.mjs
  // says the build is whole.
  renameSync(path.join(partial, 'schema-cache.mjs'), path.join(dir, 'schema-cache.mjs'));
  execFileSync(process.execPath, [path.join(dir, 'schema-cache.mjs')], { stdio: 'inherit' });
  renameSync(path.join(partial, 'main.mjs'), BUILT);
  rmSync(partial, { recursive: true, force: true });
  // Chunks of builds replaced more than a day ago: no process started from them still loads code.
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const file of readdirSync(dir)) {
    if (file.startsWith('chunk-') && !built.includes(file) && statSync(path.join(dir, file)).mtimeMs < dayAgo)
      rmSync(path.join(dir, file), { force: true });
  }
}
await import(pathToFileURL(BUILT).href);
