import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CODEBOOK, INCIDENT_REASONS, PHASES, SOURCE_TYPES } from './codebook.ts';
import { codebookHtml, codebookJson, codebookMarkdown, guideHtml, guideMarkdown } from './guide.ts';
import { ISSUE_CODES } from './validator-messages.ts';

const BASE = 'https://tms.example.com';
const markdown = guideMarkdown(`${BASE}/`);
const html = guideHtml(BASE);

/** Every name the guide must document, as it appears in a code span. */
const NAMES = [
  ...CODEBOOK.map((entry) => entry.code),
  ...PHASES,
  ...SOURCE_TYPES,
  ...INCIDENT_REASONS,
  ...ISSUE_CODES,
];

describe('guideMarkdown', () => {
  it('documents every code, phase, source type, incident reason and issue code', () => {
    assert.deepEqual(
      NAMES.filter((name) => !markdown.includes(`\`${name}\``)),
      [],
    );
  });

  it('has the sections of the specification', () => {
    for (const section of [
      'Timeline envelope',
      'Event',
      'Subject identifiers',
      'Codebook',
      'Phases',
      'Terminal codes',
      'Source types',
      'Incident reasons',
      'Ordering and transitions',
      'Synthesized events',
      'Validator',
      'Ingest',
      'Output formats',
    ]) {
      assert.match(markdown, new RegExp(`^## ${section}$`, 'm'), section);
    }
    assert.match(markdown, /^### Conformance levels$/m);
  });

  it('has one codebook row per code and links the published resources without a doubled slash', () => {
    for (const [index, entry] of CODEBOOK.entries()) {
      assert.match(
        markdown,
        new RegExp(`^\\| ${index + 1} \\| \`${entry.code}\` \\| \`${entry.phase}\` \\|`, 'm'),
      );
    }
    for (const path of [
      '/api/otep-guide/schema.json',
      '/api/otep-guide/codebook.json',
      '/api/otep-guide.md',
    ]) {
      assert.ok(markdown.includes(`${BASE}${path}`), path);
    }
    assert.ok(!markdown.includes(`${BASE}//`));
  });

  it('shows a real validator answer', () => {
    assert.ok(markdown.includes('"code": "occurred_at_without_offset"'));
    assert.ok(markdown.includes('"path": "events[0].occurred_at"'));
  });
});

describe('guideHtml', () => {
  it('is one self-contained page: no scripts, no external styles, images or fonts', () => {
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(html, /<style>/);
    assert.doesNotMatch(html, /<script|<link |<img |@import|url\(/i);
    const targets = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    assert.deepEqual(
      targets.filter((target) => !target.startsWith('#') && !target.startsWith(`${BASE}/api/`)),
      [],
    );
  });

  it('renders the same sections as the Markdown, with a table of contents', () => {
    const markdownSections = [...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const htmlSections = [...html.matchAll(/<h2 id="[^"]+">(.+?)<\/h2>/g)].map((match) => match[1]);
    assert.deepEqual(htmlSections, markdownSections);
    for (const section of markdownSections) assert.ok(html.includes(`>${section}</a></li>`), section);
  });

  it('documents every name, escaping what would be markup', () => {
    assert.deepEqual(
      NAMES.filter((name) => !html.includes(`<code>${name}</code>`)),
      [],
    );
    assert.ok(html.includes('<code>otep:&lt;profile&gt;:&lt;code&gt;</code>'));
    assert.ok(!html.includes('<profile>'));
  });

  it("words the page around the reference in the reader's language", () => {
    const french = guideHtml(BASE, 'fr');
    assert.match(french, /<html lang="fr">/);
    assert.match(french, /<main lang="en">/);
    assert.ok(french.includes('Sommaire'));
    assert.ok(french.includes('Cette référence est rédigée en anglais.'));
    assert.ok(guideHtml(BASE, 'zh-Hant').includes('目錄'));
  });
});

describe('codebook renderings', () => {
  it('codebookJson has the 20 codes with every column', () => {
    const codebook = codebookJson();
    assert.equal(codebook.codes.length, 20);
    assert.equal(codebook.otep_version, '0.1');
    assert.equal(codebook.profile, 'parcel');
    assert.deepEqual(codebook.phases, [...PHASES]);
    assert.deepEqual(codebook.terminal_codes, ['delivered', 'returned', 'rejected', 'cancelled']);
    assert.deepEqual(codebook.aliases, { return_to_sender: 'returned', rejected_by_recipient: 'rejected' });
    assert.deepEqual(
      codebook.codes.find((entry) => entry.code === 'delivered'),
      {
        code: 'delivered',
        uri: 'otep:parcel:delivered',
        phase: 'delivered',
        terminal: true,
        pod: true,
        epcis_biz_step: 'receiving',
        epcis_disposition: 'received',
        iata_code: 'DLV',
        uncefact_rec24: 21,
        description: 'Delivered',
      },
    );
  });

  it('codebookMarkdown and codebookHtml list every code', () => {
    const table = codebookMarkdown();
    const page = codebookHtml(BASE, 'de');
    for (const entry of CODEBOOK) {
      assert.ok(table.includes(`\`${entry.code}\``), entry.code);
      assert.ok(page.includes(`<code>${entry.code}</code>`), entry.code);
    }
    assert.match(page, /<html lang="de">/);
  });
});

describe('docs/otep.md', () => {
  it('lists every issue code the validator reports', () => {
    const doc = readFileSync(new URL('../../../docs/otep.md', import.meta.url), 'utf8');
    assert.deepEqual(
      ISSUE_CODES.filter((code) => !doc.includes(`| \`${code}\` |`)),
      [],
    );
  });
});
