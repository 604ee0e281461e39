import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJson as bytesOrText, composedOfShared, shareJson } from './json.ts';

const toJson = (value: unknown) => bytesOrText(value).toString();

describe('toJson', () => {
  it('writes what JSON.stringify writes, shared parts or not', () => {
    const document = shareJson({
      events: [{ id: 'a', at: '2026-11-02T10:00:00+01:00' }],
      note: 'é "q" \u0000',
    });
    const answer = composedOfShared({
      result: true,
      data: {
        trackings: [
          { n: 1, data: document },
          { n: 2, data: document },
        ],
        not_found: ['X'],
      },
    });
    assert.equal(toJson(answer), JSON.stringify(answer));
    assert.equal(toJson(document), JSON.stringify(document));
    assert.equal(toJson({ plain: [1, null, 'x'] }), JSON.stringify({ plain: [1, null, 'x'] }));
    assert.equal(toJson('text'), '"text"');
    assert.equal(toJson(null), 'null');
  });

  it('leaves data that looks like a placeholder as it is', () => {
    const shared = shareJson({ kept: true });
    const answer = composedOfShared({ a: shared, text: '\u0000:0', other: '"\\u0000x:0"' });
    assert.equal(toJson(answer), JSON.stringify(answer));
  });
});
