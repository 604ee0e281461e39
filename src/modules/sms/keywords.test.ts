import assert from 'node:assert/strict';
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
