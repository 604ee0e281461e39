import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DigestWords, digestSentence } from './words.ts';

const day = (ordersIn: number, ordersInChange: number): DigestWords => ({
  date: '2026-11-02',
  ordersIn,
  ordersInChange,
  delivered: 8,
  failed: 0,
  returned: 0,
  cancelled: 0,
  onTimePercent: null,
  onTimeChangePoints: null,
  routes: 2,
  drivers: 2,
  exceptions: 0,
});

describe("a digest's sentence", () => {
  it('words the change against the same day last week as a change, never as last week’s count', () => {
    assert.match(digestSentence(day(8, 0), 'en'), /8 orders in \(as many as on the same day last week\)/);
    assert.match(digestSentence(day(8, 3), 'en'), /8 orders in \(\+3 against the same day last week\)/);
    assert.match(digestSentence(day(2, -6), 'en'), /2 orders in \(-6 against the same day last week\)/);
    assert.match(digestSentence(day(8, 0), 'fr'), /\(autant que le même jour la semaine dernière\)/);
    assert.match(digestSentence(day(8, 0), 'zh-Hans'), /与上周同日持平/);
    for (const lang of ['en', 'fr', 'de', 'es', 'zh-Hans', 'zh-Hant'] as const) {
      assert.doesNotMatch(digestSentence(day(8, 0), lang), /\(0 |（比上.同日 0）/, lang);
    }
  });
});
