import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
  afterIdOf,
  cursorAfter,
  cursorEnvelopeOf,
  cursorPageParams,
  cursorWindow,
  envelopeOf,
  PER_PAGE,
  pageParams,
  pageWindow,
  readPage,
} from './pagination.ts';

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

  it('pages by cursor: the rows after the last row of the page before, wherever they sit now', () => {
    const cursor = cursorAfter(1042);
    assert.equal(afterIdOf(cursor), 1042);
    assert.deepEqual(cursorWindow({ page: 7, per_page: 20, cursor }), {
      limit: 20,
      offset: 0,
      afterId: 1042,
    });
    assert.deepEqual(cursorWindow({ page: 2, per_page: 20 }), { limit: 20, offset: 20 });
    const rows = (...ids: number[]) => ids.map((id) => ({ id }));
    const second = rows(...Array.from({ length: 19 }, (_, n) => 1041 - n * 2), 990);
    // 45 rows; 20 before the cursor's page: it is page 2, and one page follows.
    assert.deepEqual(
      cursorEnvelopeOf({ page: 1, per_page: 20, cursor }, { total: 45, before: 20, rows: second }),
      {
        total: 45,
        page: 2,
        per_page: 20,
        next_cursor: cursorAfter(990),
      },
    );
    const last = cursorEnvelopeOf(
      { page: 3, per_page: 20 },
      { total: 45, before: 40, rows: rows(16, 15, 14, 13, 12) },
    );
    assert.equal(last.next_cursor, null, 'the last page has no cursor');
    assert.equal(
      cursorEnvelopeOf({ page: 9, per_page: 20 }, { total: 45, before: 160, rows: [] }).next_cursor,
      null,
    );
  });

  it('reads a page and counts the rows ahead of a cursor in the order of the list', async () => {
    const ids = [9, 7, 5, 3, 1]; // newest first
    const read = {
      rows: async (afterId?: number) =>
        ids
          .filter((id) => afterId === undefined || id < afterId)
          .slice(0, 2)
          .map((id) => ({ id })),
      count: async (upToId?: number) => ids.filter((id) => upToId === undefined || id >= upToId).length,
    };
    const byCursor = await readPage({ limit: 2, offset: 0, afterId: 7 }, read);
    assert.deepEqual(byCursor, { rows: [{ id: 5 }, { id: 3 }], total: 5, before: 2 });
    assert.deepEqual(cursorEnvelopeOf({ page: 1, per_page: 2 }, byCursor), {
      total: 5,
      page: 2,
      per_page: 2,
      next_cursor: cursorAfter(3),
    });
    assert.equal((await readPage({ limit: 2, offset: 4 }, read)).before, 4);
  });

  it('refuses a cursor no page answered, in the refusal of a bad field', () => {
    const fields = z.object(cursorPageParams);
    for (const forged of [
      '',
      'r12',
      cursorAfter(12).slice(1),
      Buffer.from('r0').toString('base64url'),
      Buffer.from('r-3').toString('base64url'),
    ]) {
      assert.equal(afterIdOf(forged), undefined, forged);
      assert.equal(fields.safeParse({ cursor: forged }).success, false, forged);
    }
    assert.deepEqual(fields.parse({ cursor: cursorAfter(5) }), {
      page: 1,
      per_page: 50,
      cursor: cursorAfter(5),
    });
  });
});
