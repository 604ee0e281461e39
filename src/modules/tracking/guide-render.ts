/**
 * How the OTEP guide (guide.ts) is rendered: its small structured document to Markdown, and to a
 * self-contained HTML page (inline CSS, no script) that reads on a phone and from the keyboard.
 */
import { escapeHtml } from '../../platform/html.ts';
import type { Language } from '../../platform/i18n/index.ts';

/** Inline text may use `code` spans and [links](url); nothing else is interpreted. */
export type Block =
  | { kind: 'heading'; level: 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[]; ordered?: boolean }
  | { kind: 'table'; columns: string[]; rows: string[][] }
  /** `label`: what the block is, for the region a reader scrolls it in (default: its section's heading). */
  | { kind: 'code'; text: string; language: string; label?: string };

export interface GuideDocument {
  title: string;
  blocks: Block[];
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

const markdownCell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
      return block.text;
    case 'list':
      return block.items.map((item, index) => `${block.ordered ? `${index + 1}.` : '-'} ${item}`).join('\n');
    case 'table': {
      const line = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
      return [line(block.columns), line(block.columns.map(() => '---')), ...block.rows.map(line)].join('\n');
    }
    case 'code':
      return `\`\`\`${block.language}\n${block.text}\n\`\`\``;
  }
}

export function renderMarkdown(document: GuideDocument): string {
  return `${[`# ${document.title}`, ...document.blocks.map(blockMarkdown)].join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// HTML
// ---------------------------------------------------------------------------------------------

/** `code` spans first (their content is literal), then [links](url) in the rest. */
function inlineHtml(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part).replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>'),
    )
    .join('');
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * A block wider than a phone scrolls sideways in a box of its own: the box takes keyboard focus
 * (so it can be scrolled without a pointer) and is a region named by `label`.
 */
const scrollBox = (tag: 'div' | 'pre', className: string, label: string, content: string) =>
  `<${tag}${className ? ` class="${className}"` : ''} tabindex="0" role="region" aria-label="${escapeHtml(label)}">${content}</${tag}>`;

/** `section`: the heading the block stands under, which names a scrolling box without a label of its own. */
function blockHtml(block: Block, section: string): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level} id="${slug(block.text)}">${inlineHtml(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${inlineHtml(block.text)}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${tag}>`;
    }
    case 'table': {
      const head = block.columns.map((column) => `<th scope="col">${inlineHtml(column)}</th>`).join('');
      const rows = block.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${inlineHtml(cell)}</td>`).join('')}</tr>`)
        .join('\n');
      return scrollBox(
        'div',
        'table-wrap',
        `${section} (table)`,
        `<table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>`,
      );
    }
    case 'code':
      return scrollBox(
        'pre',
        '',
        block.label ?? `${section} (${block.language.toUpperCase()})`,
        `<code class="language-${block.language}">${escapeHtml(block.text)}</code>`,
      );
  }
}

/** The page around the content: its words follow the reader's language; the reference is English. */
const PAGE_WORDS: Record<Language, { contents: string; alsoAs: string; englishOnly: string }> = {
  en: { contents: 'Contents', alsoAs: 'Also as', englishOnly: '' },
  'zh-Hans': { contents: '目录', alsoAs: '其他格式', englishOnly: '本参考文档以英文撰写。' },
  'zh-Hant': { contents: '目錄', alsoAs: '其他格式', englishOnly: '本參考文件以英文撰寫。' },
  fr: { contents: 'Sommaire', alsoAs: 'Aussi en', englishOnly: 'Cette référence est rédigée en anglais.' },
  de: { contents: 'Inhalt', alsoAs: 'Auch als', englishOnly: 'Diese Referenz ist auf Englisch verfasst.' },
  es: {
    contents: 'Contenido',
    alsoAs: 'También en',
    englishOnly: 'Esta referencia está redactada en inglés.',
  },
};

const STYLE = `
:root { color-scheme: light dark; --text: #1c2128; --muted: #57606a; --page: #fff; --line: #d0d7de; --link: #0a58ca; --tint: #f4f6f8; }
@media (prefers-color-scheme: dark) {
  :root { --text: #e6edf3; --muted: #9da7b3; --page: #0d1117; --line: #30363d; --link: #6cb6ff; --tint: #161b22; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--text); font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header, nav, main { max-width: 62rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.5rem; }
h1 { font-size: 1.8rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
a { color: var(--link); }
.meta { color: var(--muted); margin: .25rem 0; }
nav ol { columns: 2 14rem; padding-left: 1.2rem; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--tint); padding: .1em .3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--tint); padding: .8rem 1rem; border-radius: 6px; overflow-x: auto; line-height: 1.45; }
pre code { padding: 0; background: none; overflow-wrap: normal; }
.table-wrap { overflow-x: auto; margin: .8rem 0; }
pre:focus-visible, .table-wrap:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
table { border-collapse: collapse; font-size: .92rem; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid var(--line); }
th { white-space: nowrap; }
main { padding-bottom: 3rem; }
`;

/** The blocks in order, each knowing the heading it stands under (the title before the first). */
function blocksHtml(document: GuideDocument): string {
  let section = document.title;
  const named = new Map<string, number>();
  return document.blocks
    .map((block) => {
      if (block.kind === 'heading') section = plainText(block.text);
      // Two boxes under one heading are told apart by their number.
      const seen = (named.get(section) ?? 0) + 1;
      if (block.kind === 'table' || (block.kind === 'code' && block.label === undefined)) {
        named.set(section, seen);
      }
      return blockHtml(block, seen > 1 ? `${section} ${seen}` : section);
    })
    .join('\n');
}

/** Inline text as read aloud: without its `code` marks and with the words of its [links](url). */
const plainText = (text: string) => text.replace(/`/g, '').replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1');

export function renderHtml(
  document: GuideDocument,
  lang: Language,
  alternates: [label: string, url: string][],
): string {
  const words = PAGE_WORDS[lang];
  const sections = document.blocks.filter(
    (block): block is Extract<Block, { kind: 'heading' }> => block.kind === 'heading' && block.level === 2,
  );
  const contents =
    sections.length < 3
      ? ''
      : `<nav aria-label="${escapeHtml(words.contents)}"><h2>${escapeHtml(words.contents)}</h2><ol>${sections
          .map((block) => `<li><a href="#${slug(block.text)}">${inlineHtml(block.text)}</a></li>`)
          .join('')}</ol></nav>`;
  const alsoAs = alternates
    .map(([label, url]) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`)
    .join(' · ');
  const englishOnly = words.englishOnly ? `<p class="meta">${escapeHtml(words.englishOnly)}</p>` : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1 lang="en">${escapeHtml(document.title)}</h1>
<p class="meta">${escapeHtml(words.alsoAs)}: ${alsoAs}</p>
${englishOnly}
</header>
${contents}
<main lang="en">
${blocksHtml(document)}
</main>
</body>
</html>
`;
}
