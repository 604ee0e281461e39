import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(name));
const GRAPHIQL_DIR = path.dirname(require.resolve('graphiql/package.json'));
const GRAPHIQL_VERSION: string = require('graphiql/package.json').version;

/**
 * The files the page needs, from the npm packages the service depends on: nothing is loaded from
 * another origin, so the page works offline and its policy allows no remote source.
 */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': {
    file: path.join(packageDir('react'), 'umd', 'react.production.min.js'),
    type: 'text/javascript',
  },
  'react-dom.js': {
    file: path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
    type: 'text/javascript',
  },
  'graphiql.js': { file: path.join(GRAPHIQL_DIR, 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.css': { file: path.join(GRAPHIQL_DIR, 'graphiql.min.css'), type: 'text/css' },
};

/** Starts GraphiQL on the page's endpoint; a file of its own, as the policy allows no inline script. */
const START_SCRIPT = `(() => {
  const root = document.getElementById('graphiql');
  const fetcher = GraphiQL.createFetcher({ url: root.dataset.endpoint });
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true }));
})();
`;

/**
 * GraphiQL's editors set inline styles, hence 'unsafe-inline' for styles only; its icons and fonts
 * are data: URLs. Scripts come from this origin alone.
 */
const POLICY =
  "default-src 'none'; base-uri 'none'; connect-src 'self'; font-src 'self' data:; form-action 'none'; " +
  "frame-ancestors 'self'; img-src 'self' data:; script-src 'self'; style-src 'self' 'unsafe-inline'";

/** GraphiQL at `path`, talking to the GraphQL endpoint at `endpoint`. */
export function registerGraphiql(app: FastifyInstance, page: string, endpoint: string): void {
  const assets = `${page}/${GRAPHIQL_VERSION}`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL</title>
<link rel="stylesheet" href="${assets}/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql" data-endpoint="${endpoint}">Loading GraphiQL…</div>
<script src="${assets}/react.js"></script>
<script src="${assets}/react-dom.js"></script>
<script src="${assets}/graphiql.js"></script>
<script src="${assets}/start.js"></script>
</body>
</html>
`;
  app.get(page, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', POLICY)
      .header('cache-control', 'no-cache')
      .send(html),
  );

  const files = new Map<string, { body: Buffer | string; type: string }>(
    Object.entries(ASSETS).map(([name, asset]) => [
      name,
      { body: readFileSync(asset.file), type: asset.type },
    ]),
  );
  files.set('start.js', { body: START_SCRIPT, type: 'text/javascript' });
  app.get<{ Params: { file: string } }>(`${assets}/:file`, (request, reply) => {
    const asset = files.get(request.params.file);
    if (!asset) return reply.callNotFound();
    // The path names the version, so a file never changes under its address.
    return reply
      .type(`${asset.type}; charset=utf-8`)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(asset.body);
  });
}
