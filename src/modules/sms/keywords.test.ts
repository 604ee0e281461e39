import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { KEYWORDS, keywordOf, normaliseKeyword } from './keywords.ts';

test('STOP is read whatever its case, spaces, trailing punctuation and accents', () => {
  for (const text of [
    'STOP',
    ' stop ',
    'Stop.',
    'stop!!',
    'S T O P',
    '"Stop"',
    'ARRÊT',
    'arrêter',
    'Désinscrire',
  ])
    assert.equal(keywordOf(text), 'stop', text);
  for (const text of [
    'STOPP',
    'abmelden',
    'Ende',
    'baja',
    'Alto.',
    'cancelar',
    '退订',
    '取消订阅',
    '退訂',
    '取消訂閱。',
  ])
    assert.equal(keywordOf(text), 'stop', text);
});

test('HELP and START in every language', () => {
  for (const text of ['help', 'Info', 'aide', 'HILFE', 'ayuda', '帮助', '幫助'])
    assert.equal(keywordOf(text), 'help', text);
  for (const text of ['start', 'Yes', 'y', 'oui', 'Ja', 'si', 'Sí', '是', '好', 'unstop'])
    assert.equal(keywordOf(text), 'start', text);
});

test('a keyword inside a longer text, or a near miss, is no keyword', () => {
  for (const text of ['please stop sending', 'stopped', 'yes please', '', '   ', 'HELPME?', '退订了吗'])
    assert.equal(keywordOf(text), null, text);
});

test('every listed word is already in the form texts are read in, and belongs to one family', () => {
  const seen = new Map<string, string>();
  for (const [kind, languages] of Object.entries(KEYWORDS)) {
    for (const words of Object.values(languages)) {
      for (const word of words) {
        assert.equal(normaliseKeyword(word), word, `${word} is listed as it is read`);
        const other = seen.get(word);
        assert.ok(other === undefined || other === kind, `${word} is both ${other} and ${kind}`);
        seen.set(word, kind);
      }
    }
  }
});

test('docs/sms-marketing.md lists exactly the words the code reads, per family and language', () => {
  const docs = readFileSync(new URL('../../../docs/sms-marketing.md', import.meta.url), 'utf8');
  const section = docs.split('\n## Keywords\n')[1]!.split('\n## ')[0]!;
  const documented: Record<string, Record<string, string[]>> = { stop: {}, help: {}, start: {} };
  for (const line of section.split('\n')) {
    const cells = /^\| `([\w-]+)` \|(.*)\|$/.exec(line);
    if (!cells) continue;
    const [stop, help, start] = cells[2]!
      .split('|')
      .map((cell) => cell.split(',').map((word) => word.trim()));
    documented.stop![cells[1]!] = stop!;
    documented.help![cells[1]!] = help!;
    documented.start![cells[1]!] = start!;
  }
  assert.deepEqual(documented, JSON.parse(JSON.stringify(KEYWORDS)));
});
