import { sql } from 'kysely';
import { inTransaction, type Queryable } from './database.ts';

/**
 * Runs a trigram lookup: `query` with pg_trgm's word similarity threshold at `threshold`, so that
 * `words <% text` means `word_similarity(words, text) >= threshold`, the form a GIN trigram index
 * on `text` answers (as `text %> words`) without scoring every row.
 *
 * The planner is also told to leave table scans aside: it counts a word similarity as cheap as an
 * addition, where one takes tens of microseconds on an address, so it would often score a whole
 * 10,000-entry book rather than read the index. Both settings are the transaction's (SET LOCAL):
 * on the pool the lookup gets a transaction of its own; in a caller's, table scans are allowed
 * again after it, and the threshold stays, harmless, as every lookup sets its own.
 */
export function trigramLookup<Tables, T>(
  db: Queryable<Tables>,
  threshold: number,
  query: (db: Queryable<Tables>) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    await sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true),
                     set_config('enable_seqscan', 'off', true)`.execute(trx);
    const answer = await query(trx);
    if (db.isTransaction) await sql`SET LOCAL enable_seqscan TO DEFAULT`.execute(trx);
    return answer;
  });
}
