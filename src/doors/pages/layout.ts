import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, SafeHtml } from '../../platform/html.ts';
import { LANGUAGES, type Language } from '../../platform/i18n/index.ts';

// What the service's pages share: one look, one security policy, the language links.

/** Mobile first: one column; every colour pair keeps at least 4.5:1 contrast. */
export const BASE_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#1b1e23;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
main,footer{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.25rem;margin:.25rem 0}
h2{font-size:1rem;margin:0 0 .5rem}
p{margin:0 0 .5rem}
a{color:#1a56a8}
.card{background:#fff;border-radius:12px;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.meta{color:#4b5259;font-size:.875rem}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.25rem 1rem;margin:0}
dt{color:#4b5259}
dd{margin:0;overflow-wrap:anywhere}
form{display:flex;flex-wrap:wrap;gap:.5rem}
label{flex-basis:100%;font-weight:600}
input{flex:1 1 12rem;min-width:0;font:inherit;padding:.625rem .75rem;border:1px solid #767d85;border-radius:8px}
button{font:inherit;font-weight:600;padding:.625rem 1.25rem;border:0;border-radius:8px;background:#1a56a8;color:#fff}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #1b1e23;outline-offset:2px}
.languages{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0;font-size:.875rem}
`;

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
};

/** A page: its language, title, main content and footer, styled by the base and its own CSS. */
export function sendPage(
  reply: FastifyReply,
  page: {
    status: number;
    lang: Language;
    title: string;
    body: SafeHtml;
    footer: SafeHtml;
    css: string;
    /** Where images may load from (the tracking page's proof links); none by default. */
    imageSources?: readonly string[];
    /**
     * Stylesheets and scripts of this origin a page with a script loads (the dispatch console):
     * nothing else runs, and the script may only talk to this origin.
     */
    assets?: { stylesheets: readonly string[]; scripts: readonly string[] };
    /** The sites that may frame the page (a published map's embedding sites); none by default. */
    frameAncestors?: readonly string[];
  },
): FastifyReply {
  const css = BASE_CSS + page.css;
  const document = html`<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title}</title>
${(page.assets?.stylesheets ?? []).map((href) => html`<link rel="stylesheet" href="${href}">\n`)}<style>${new SafeHtml(css)}</style>
</head>
<body>
<main>
${page.body}
</main>
<footer>${page.footer}</footer>
${(page.assets?.scripts ?? []).map((src) => html`<script src="${src}"></script>\n`)}</body>
</html>
`;
  return reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .header('content-language', page.lang)
    .header('vary', 'accept-language')
    .header(
      'content-security-policy',
      cspFor(css, page.imageSources ?? [], page.assets !== undefined, page.frameAncestors ?? []),
    )
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(document.value);
}

/**
 * Only this stylesheet applies (by its hash), with this origin's when the page loads assets;
 * nothing loads or runs but images from the sources named and, on a page with assets, scripts of
 * this origin talking to this origin; forms go to this site only; only the sites named may frame it.
 */
function cspFor(
  css: string,
  imageSources: readonly string[],
  assets: boolean,
  frameAncestors: readonly string[],
): string {
  const inline = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  return (
    `default-src 'none'; style-src ${assets ? `'self' ${inline}` : inline}; ` +
    (assets ? "script-src 'self'; connect-src 'self'; " : '') +
    (imageSources.length > 0 ? `img-src ${imageSources.join(' ')}; ` : '') +
    `base-uri 'none'; form-action 'self'; frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`
  );
}

/** Links to the same page in every language; `href(lang)` builds each one. */
export function languageLinks(current: Language, label: string, href: (lang: Language) => string): SafeHtml {
  const links = LANGUAGES.map(
    (lang) =>
      html`<li><a href="${href(lang)}" hreflang="${lang}" lang="${lang}"${
        lang === current ? html` aria-current="page"` : ''
      }>${LANGUAGE_NAMES[lang]}</a></li>`,
  );
  return html`<nav aria-label="${label}"><ul class="languages">${links}</ul></nav>`;
}
