import { type Insertable, sql } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import { trigramLookup } from '../../platform/db/trigram.ts';
import type { AddressesTables } from './tables.ts';

type Row = AddressesTables['saved_addresses'];
/** An address's own columns; absent nullable ones are stored as null. */
export type AddressValues = Omit<
  Insertable<Row>,
  'id' | 'business_id' | 'customer_user_id' | 'search_text' | 'created_at' | 'updated_at'
>;

/** Whose book: the business's own (null) or one customer's. */
export type Book = { businessId: number; customerUserId: number | null };

export async function insertAddress(
  db: Queryable<AddressesTables>,
  book: Book,
  values: AddressValues,
  at: Date,
) {
  const row = await db
    .insertInto('saved_addresses')
    .values({
      ...values,
      business_id: book.businessId,
      customer_user_id: book.customerUserId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateAddress(
  db: Queryable<AddressesTables>,
  book: Book,
  id: number,
  values: Partial<AddressValues>,
  at: Date,
) {
  return db
    .updateTable('saved_addresses')
    .set({ ...values, updated_at: at })
    .where('business_id', '=', book.businessId)
    .where('customer_user_id', 'is not distinct from', book.customerUserId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deleteAddress(db: Queryable<AddressesTables>, book: Book, id: number) {
  return db
    .deleteFrom('saved_addresses')
    .where('business_id', '=', book.businessId)
    .where('customer_user_id', 'is not distinct from', book.customerUserId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function addressesOf(
  db: Queryable<AddressesTables>,
  book: Book,
  page: { limit: number; offset: number; ids?: number[] },
) {
  return db
    .selectFrom('saved_addresses')
    .selectAll()
    .where('business_id', '=', book.businessId)
    .where('customer_user_id', 'is not distinct from', book.customerUserId)
    .$if(page.ids !== undefined, (q) => q.where('id', 'in', page.ids!.length ? page.ids! : [-1]))
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** One address of any of these books of the business (null: its own book). */
export function addressInBooks(
  db: Queryable<AddressesTables>,
  businessId: number,
  books: Array<number | null>,
  id: number,
) {
  const customers = books.filter((book): book is number => book !== null);
  return db
    .selectFrom('saved_addresses')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        ...(books.includes(null) ? [eb('customer_user_id', 'is', null)] : []),
        ...(customers.length ? [eb('customer_user_id', 'in', customers)] : []),
      ]),
    )
    .executeTakeFirst();
}

export async function countAddresses(db: Queryable<AddressesTables>, book: Book) {
  const row = await db
    .selectFrom('saved_addresses')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', book.businessId)
    .where('customer_user_id', 'is not distinct from', book.customerUserId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** How alike words and an address must be to match (trigram word similarity, 0 to 1). */
const MIN_SIMILARITY = 0.4;

/**
 * The addresses of these books that look most like the words, best first: trigram word
 * similarity, so `rue de rivolli` still finds "12 Rue de Rivoli".
 */
export function searchAddresses(
  db: Queryable<AddressesTables>,
  businessId: number,
  customerUserIds: Array<number | null>,
  words: string,
  limit: number,
) {
  const text = words.toLowerCase();
  const own = customerUserIds.filter((id): id is number => id !== null);
  const score = sql<number>`word_similarity(${text}, search_text)`;
  return db
    .selectFrom('saved_addresses')
    .selectAll()
    .select(score.as('score'))
    .where('business_id', '=', businessId)
    .where((eb) =>
      eb.or([
        ...(customerUserIds.includes(null) ? [eb('customer_user_id', 'is', null)] : []),
        ...(own.length ? [eb('customer_user_id', 'in', own)] : []),
      ]),
    )
    .where(score, '>=', MIN_SIMILARITY)
    .orderBy(score, 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

type Poi = AddressesTables['points_of_interest'];
export type PoiValues = Omit<
  Insertable<Poi>,
  'id' | 'business_id' | 'search_text' | 'created_at' | 'updated_at'
>;

export async function insertPoi(
  db: Queryable<AddressesTables>,
  businessId: number,
  values: PoiValues,
  at: Date,
) {
  const row = await db
    .insertInto('points_of_interest')
    .values({
      ...values,
      opening_hours: jsonb(values.opening_hours),
      business_id: businessId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updatePoi(
  db: Queryable<AddressesTables>,
  businessId: number,
  id: number,
  values: Partial<PoiValues>,
  at: Date,
) {
  const { opening_hours, ...rest } = values;
  return db
    .updateTable('points_of_interest')
    .set({ ...rest, ...(opening_hours ? { opening_hours: jsonb(opening_hours) } : {}), updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deletePoi(db: Queryable<AddressesTables>, businessId: number, id: number) {
  return db
    .deleteFrom('points_of_interest')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function poisOf(
  db: Queryable<AddressesTables>,
  businessId: number,
  filter: { category?: string; ids?: number[]; limit: number; offset: number },
) {
  return db
    .selectFrom('points_of_interest')
    .selectAll()
    .where('business_id', '=', businessId)
    .$if(filter.category !== undefined, (q) => q.where('category', '=', filter.category as never))
    .$if(filter.ids !== undefined, (q) => q.where('id', 'in', filter.ids!.length ? filter.ids! : [-1]))
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

export async function countPois(db: Queryable<AddressesTables>, businessId: number, category?: string) {
  const row = await db
    .selectFrom('points_of_interest')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', businessId)
    .$if(category !== undefined, (q) => q.where('category', '=', category as never))
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The business's points of interest that look most like the words, best first. */
export function searchPois(db: Queryable<AddressesTables>, businessId: number, words: string, limit: number) {
  const score = sql<number>`word_similarity(${words.toLowerCase()}, search_text)`;
  return db
    .selectFrom('points_of_interest')
    .selectAll()
    .select(score.as('score'))
    .where('business_id', '=', businessId)
    .where(score, '>=', MIN_SIMILARITY)
    .orderBy(score, 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Words to place (lower-cased) and the country they are in, when known. */
export interface PlaceQuery {
  words: string;
  country: string | null;
}

/** Places a query may name, at most, each answer. */
const PLACES_PER_QUERY = 5;

/**
 * For each query, in the order of `queries`, the placed addresses of the business's own
 * book and its points of interest that the words may name, with how sure that is: the least of how
 * much of the words the place holds and how much of its street line the words hold (so "Lyon"
 * alone names no street of Lyon). The five surest of at least `minConfidence`, best first (ties:
 * the book before points of interest, newest first).
 *
 * One statement for every query, and no book scored row by row: a place is at least as sure as
 * the words are like its text, so the trigram indexes of both tables (migration 0061) hand over
 * only the places whose text holds the words at `minConfidence`. Scoring a 10,000-entry book for
 * each address took about half a second. Each table is read in a subquery of the words alone
 * (OFFSET 0 keeps the business out of it), so that the planner cannot read the business's whole
 * book by its index and score every entry instead, as it does when statistics are behind.
 */
export async function placesMatching(
  db: Queryable<AddressesTables>,
  businessId: number,
  queries: PlaceQuery[],
  minConfidence: number,
) {
  if (queries.length === 0) return [];
  const words = queries.map((query) => query.words);
  const countries = queries.map((query) => query.country);
  return trigramLookup(db, minConfidence, async (trx) => {
    const { rows } = await sql<{
      query: number;
      label: string;
      address_text: string;
      lat: number;
      lng: number;
      confidence: number;
    }>`
      SELECT q.n - 1 AS query, p.label, p.address_text, p.lat, p.lng, p.confidence
        FROM unnest(${words}::text[], ${countries}::text[]) WITH ORDINALITY AS q (words, country, n)
       CROSS JOIN LATERAL (
             SELECT source, id, label, address_text, lat, lng, confidence
               FROM (SELECT source, id, label, search_text AS address_text, lat, lng,
                            least(word_similarity(q.words, search_text),
                                  word_similarity(lower(line1), q.words)) AS confidence
                       FROM (SELECT 0 AS source, id, label, search_text, line1, lat, lng, country
                               FROM (SELECT * FROM saved_addresses WHERE q.words <% search_text OFFSET 0) AS book
                              WHERE business_id = ${businessId} AND customer_user_id IS NULL
                                AND lat IS NOT NULL AND lng IS NOT NULL
                             UNION ALL
                             SELECT 1, id, name, search_text, line1, lat, lng, country
                               FROM (SELECT * FROM points_of_interest WHERE q.words <% search_text OFFSET 0) AS poi
                              WHERE business_id = ${businessId}) AS places
                      WHERE q.country IS NULL OR places.country IS NULL OR places.country = q.country) AS scored
              WHERE confidence >= ${minConfidence}
              ORDER BY confidence DESC, source, id DESC
              LIMIT ${PLACES_PER_QUERY}) AS p
       ORDER BY q.n, p.confidence DESC, p.source, p.id DESC`.execute(trx);
    const answers = queries.map((): Omit<(typeof rows)[number], 'query'>[] => []);
    for (const { query, ...place } of rows) answers[query]!.push(place);
    return answers;
  });
}

/** The business's points of interest of these categories (all when none), oldest first, at most `limit`. */
export function poisForMap(
  db: Queryable<AddressesTables>,
  businessId: number,
  categories: readonly string[] | undefined,
  limit: number,
) {
  return db
    .selectFrom('points_of_interest')
    .select(['id', 'name', 'category', 'line1', 'postal_code', 'city', 'country', 'lat', 'lng'])
    .where('business_id', '=', businessId)
    .$if(categories !== undefined && categories.length > 0, (q) =>
      q.where('category', 'in', categories as AddressesTables['points_of_interest']['category'][]),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The business's own address book entries that have a point (never a customer's book), oldest first. */
export function placedAddressesOf(db: Queryable<AddressesTables>, businessId: number, limit: number) {
  return db
    .selectFrom('saved_addresses')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('customer_user_id', 'is', null)
    .where('lat', 'is not', null)
    .where('lng', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}
