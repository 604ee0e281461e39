import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT } from '../../platform/project.ts';

/**
 * The screens' front-end apps (src/web/<app>/main.ts), bundled by esbuild into files named by
 * their content and served from this service under `/assets/web/`: a page's shell names its app's
 * script and stylesheet, so a new build is a new address and an old one is cached for good.
 */
export const WEB_ASSETS = '/assets/web';

export interface WebApp {
  script: string;
  stylesheet: string | undefined;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

const files = new Map<string, { body: Uint8Array; type: string }>();
const built = new Map<string, Promise<WebApp>>();

/**
 * An app, bundled on first use (the service starts without waiting for it) and kept for the
 * process's life: the sources do not change under a running service.
 */
export function webApp(name: string): Promise<WebApp> {
  let app = built.get(name);
  if (!app) {
    app = bundle(name);
    // A failed build is tried again at the next page, not kept.
    app.catch(() => built.delete(name));
    built.set(name, app);
  }
  return app;
}

/** The apps: each folder of src/web with a main.ts. */
function appNames(): string[] {
  const root = path.join(PROJECT_ROOT, 'src', 'web');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, 'main.ts')))
    .map((entry) => entry.name);
}

async function bundle(name: string): Promise<WebApp> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [{ in: path.join(PROJECT_ROOT, 'src', 'web', name, 'main.ts'), out: name }],
    bundle: true,
    write: false,
    outdir: '/out',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: WEB_ASSETS,
    format: 'iife',
    target: ['chrome109', 'firefox115', 'safari15.6'],
    minify: true,
    sourcemap: 'linked',
    loader: { '.png': 'file', '.svg': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    logLevel: 'silent',
  });
  let script: string | undefined;
  let stylesheet: string | undefined;
  for (const output of result.outputFiles) {
    const file = path.basename(output.path);
    const type = TYPES[path.extname(file)] ?? 'text/plain; charset=utf-8';
    files.set(`${WEB_ASSETS}/${file}`, { body: output.contents, type });
    if (file.endsWith('.js')) script = `${WEB_ASSETS}/${file}`;
    if (file.endsWith('.css')) stylesheet = `${WEB_ASSETS}/${file}`;
  }
  if (!script) throw new Error(`The ${name} app built no script`);
  return { script, stylesheet };
}

/**
 * Serves what the apps' builds wrote: each address names its content, so it never changes. A file
 * this instance has not built yet (the page came from another instance behind the same address)
 * is built here: the same sources give the same names.
 */
export function registerWebAssets(app: FastifyInstance): void {
  app.get(`${WEB_ASSETS}/:file`, async (request, reply) => {
    const address = request.url.split('?')[0]!;
    if (!files.has(address)) await Promise.allSettled(appNames().map(webApp));
    const file = files.get(address);
    if (!file) return reply.callNotFound();
    return reply
      .type(file.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(file.body));
  });
}
