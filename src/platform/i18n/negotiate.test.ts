import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorMessage, negotiateLanguage } from './index.ts';

describe('negotiateLanguage', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'en'],
    ['', 'en'],
    ['*', 'en'],
    ['fr', 'fr'],
    ['fr-CA,fr;q=0.9', 'fr'],
    ['ja,de;q=0.5', 'de'],
    ['zh', 'zh-Hans'],
    ['zh-CN', 'zh-Hans'],
    ['zh-Hans-CN', 'zh-Hans'],
    ['zh-TW', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['zh-Hant', 'zh-Hant'],
    ['en;q=0.1,es;q=0.9', 'es'],
    ['pt-BR,ja', 'en'],
  ];
  for (const [header, expected] of cases) {
    it(`maps ${JSON.stringify(header)} to ${expected}`, () =>
      assert.equal(negotiateLanguage(header), expected));
  }
});

describe('errorMessage', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    assert.equal(
      errorMessage('RATE_LIMITED', 'es', { seconds: 12 }),
      'Demasiados intentos. Vuelva a intentarlo dentro de 12 segundos.',
    );
    assert.equal(errorMessage('RATE_LIMITED', 'en'), 'Too many attempts. Try again in {seconds} seconds.');
  });
});
