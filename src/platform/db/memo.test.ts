import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { type DatabaseHandle, openDatabase, TransactionMemo } from './database.ts';

describe('a value read once per transaction', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  before(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.url);
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  it('reads once within a transaction, again after forget, and never across transactions or outside one', async () => {
    const memo = new TransactionMemo<number>();
    let loads = 0;
    const load = async () => ++loads;
    await handle.db.transaction().execute(async (trx) => {
      assert.equal(await memo.read(trx, 'a', load), 1);
      assert.equal(await memo.read(trx, 'a', load), 1);
      assert.equal(await memo.read(trx, 'b', load), 2);
      memo.forget(trx);
      assert.equal(await memo.read(trx, 'a', load), 3);
    });
    await handle.db.transaction().execute(async (trx) => {
      assert.equal(await memo.read(trx, 'a', load), 4);
    });
    assert.equal(await memo.read(handle.db, 'a', load), 5);
    assert.equal(await memo.read(handle.db, 'a', load), 6);
  });
});
