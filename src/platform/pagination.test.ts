import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { envelopeOf, PER_PAGE, pageParams, pageWindow } from './pagination.ts';

describe('pagination', () => {
  const fields = z.object(pageParams);

  it('reads the first page of 50 rows when the caller names none, and up to 200', () => {
    assert.deepEqual(fields.parse({}), { page: 1, per_page: 50 });
    assert.deepEqual(fields.parse({ page: 4, per_page: 200 }), { page: 4, per_page: 200 });
    assert.deepEqual(PER_PAGE, { default: 50, max: 200 });
    for (const outside of [{ page: 0 }, { per_page: 0 }, { per_page: 201 }, { page: 1.5 }]) {
      assert.equal(fields.safeParse(outside).success, false, JSON.stringify(outside));
    }
  });

  it('gives the rows of a page and the envelope of its answer', () => {
    assert.deepEqual(pageWindow({ page: 1, per_page: 50 }), { limit: 50, offset: 0 });
    assert.deepEqual(pageWindow({ page: 3, per_page: 20 }), { limit: 20, offset: 40 });
    assert.deepEqual(envelopeOf({ page: 3, per_page: 20 }, 41), { total: 41, page: 3, per_page: 20 });
  });
});
