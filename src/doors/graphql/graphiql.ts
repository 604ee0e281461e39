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

/**
 * Starts GraphiQL on the page's endpoint; a file of its own, as the policy allows no inline script.
 * GraphiQL's CodeMirror editors come without a name, and the query editor scrolls in a box that
 * takes no focus: each editor's text box is named after the pane it is in (Query Editor,
 * Variables, Headers, Result Window) and each scrolling box is made focusable and named, as the
 * editors appear (GraphiQL makes some only when first shown).
 */
const START_SCRIPT = `(() => {
  const root = document.getElementById('graphiql');
  const fetcher = GraphiQL.createFetcher({ url: root.dataset.endpoint });
  const paneOf = (element) => {
    const editor = element.closest('.graphiql-editor');
    const tools = element.closest('.graphiql-editor-tool');
    if (tools && editor) return tools.querySelector('.graphiql-editor') === editor ? 'Variables' : 'Headers';
    const pane = element.closest('section[aria-label]');
    return pane ? pane.getAttribute('aria-label') : 'Editor';
  };
  const name = () => {
    for (const box of root.querySelectorAll('.CodeMirror textarea:not([aria-label])')) {
      box.setAttribute('aria-label', paneOf(box));
    }
    for (const scroller of root.querySelectorAll('.CodeMirror-scroll:not([role])')) {
      scroller.setAttribute('tabindex', '0');
      scroller.setAttribute('role', 'region');
      scroller.setAttribute('aria-label', paneOf(scroller) + ' (scrolling view)');
    }
  };
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      name();
    });
  }).observe(root, { childList: true, subtree: true });
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true }));
})();
`;

/**
 * The page's own corrections to GraphiQL's theme, so its text reaches WCAG AA's 4.5:1 contrast on
 * the editors' white and on the result's tint. Its secondary and tertiary text (line numbers,
 * comments, punctuation, the logo, icons) is drawn at 76% and 50% of its neutral colour: at 90%
 * here, in light and dark alike. The light theme's syntax colours (names, arguments, strings,
 * numbers, errors) are its own hues, darker; the dark theme's are light enough as they are (its
 * rules are more specific and win). The page has one main landmark and a heading for screen readers.
 */
const THEME = `html, body, main, #graphiql { height: 100%; margin: 0; }
.graphiql-container, .CodeMirror-info, .CodeMirror-lint-tooltip, .graphiql-dialog, .graphiql-dialog-overlay,
.graphiql-tooltip, [data-radix-popper-content-wrapper] {
  --alpha-secondary: .9; --alpha-tertiary: .9;
  --color-primary: 320, 95%, 38%; --color-secondary: 242, 51%, 55%; --color-tertiary: 188, 100%, 27%;
  --color-info: 208, 100%, 37%; --color-success: 158, 60%, 28%; --color-warning: 36, 100%, 29%;
  --color-error: 13, 93%, 40%;
}
.CodeMirror-scroll:focus-visible { outline: 2px solid hsl(var(--color-primary)); outline-offset: -2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }`;

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
<style>${THEME}</style>
</head>
<body>
<main>
<h1 class="visually-hidden">GraphiQL</h1>
<div id="graphiql" data-endpoint="${endpoint}">Loading GraphiQL…</div>
</main>
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
