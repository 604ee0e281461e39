import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStorable, unstorableFields } from './text.ts';

describe('text the service can store', () => {
  it('refuses NUL and unpaired surrogates, and keeps paired ones (emoji)', () => {
    assert.equal(isStorable('Café 🚚 北京'), true);
    assert.equal(isStorable('a\u0000b'), false);
    assert.equal(isStorable('\ud800'), false);
    assert.equal(isStorable('x\udc00'), false);
    assert.equal(isStorable('\udc00\ud800'), false);
  });

  it('names every field that holds one, keys included, at any depth', () => {
    const value = { a: 'ok', b: ['fine', 'bad\u0000'], c: { d: { e: '\ud83d' } }, 'k\u0000': 1 };
    assert.deepEqual(unstorableFields(value).sort(), ['b.1', 'c.d.e', 'k\u0000'].sort());
    assert.deepEqual(unstorableFields('\u0000'), ['(body)']);
    assert.deepEqual(unstorableFields({ q: 'x\u0000' }, 'variables'), ['variables.q']);
  });

  it('walks a body nested far deeper than the call stack would allow', () => {
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    assert.equal(unstorableFields(deep).length, 1);
  });
});
