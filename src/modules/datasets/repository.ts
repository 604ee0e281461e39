import { type Insertable, sql } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import { trigramLookup } from '../../platform/db/trigram.ts';
import type { Condition } from './schema.ts';
import type { DatasetsTables, FieldSpec } from './tables.ts';

type Db = Queryable<DatasetsTables>;

// Groups -------------------------------------------------------------------------------------

export async function insertGroup(
  db: Db,
  businessId: number,
  values: { name: string; description?: string },
  at: Date,
) {
  const row = await db
    .insertInto('dataset_groups')
    .values({
      business_id: businessId,
      name: values.name,
      description: values.description ?? null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateGroup(
  db: Db,
  businessId: number,
  id: number,
  values: { name?: string; description?: string | null },
  at: Date,
) {
  return db
    .updateTable('dataset_groups')
    .set({ ...values, updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deleteGroup(db: Db, businessId: number, id: number) {
  return db
    .deleteFrom('dataset_groups')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/** Takes the datasets out of a group (before it is deleted); answers how many. */
export async function ungroupDatasets(db: Db, businessId: number, groupId: number, at: Date) {
  const rows = await db
    .updateTable('datasets')
    .set({ group_id: null, updated_at: at })
    .where('business_id', '=', businessId)
    .where('group_id', '=', groupId)
    .returning('id')
    .execute();
  return rows.length;
}

/** The business's groups with how many datasets each holds, by name. */
export function groupsOf(
  db: Db,
  businessId: number,
  page: { limit: number; offset: number; ids?: number[] },
) {
  return db
    .selectFrom('dataset_groups as g')
    .selectAll('g')
    .select((eb) =>
      eb
        .selectFrom('datasets as d')
        .whereRef('d.group_id', '=', 'g.id')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .as('dataset_count'),
    )
    .where('g.business_id', '=', businessId)
    .$if(page.ids !== undefined, (q) => q.where('g.id', 'in', page.ids!.length ? page.ids! : [-1]))
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countGroups(db: Db, businessId: number) {
  const row = await db
    .selectFrom('dataset_groups')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * The group, locked for this transaction: shared while a dataset moves into it (a delete waits),
 * exclusive while it is deleted (a move waits); undefined when not the business's.
 */
export function lockGroup(db: Db, businessId: number, id: number, mode: 'share' | 'update' = 'share') {
  const query = db
    .selectFrom('dataset_groups')
    .select(['id', 'name'])
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
}

// Datasets -----------------------------------------------------------------------------------

type DatasetValues = {
  name: string;
  description: string | null;
  group_id: number | null;
  fields: FieldSpec[];
};

export async function insertDataset(db: Db, businessId: number, values: DatasetValues, at: Date) {
  const row = await db
    .insertInto('datasets')
    .values({
      ...values,
      fields: jsonb(values.fields),
      business_id: businessId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateDataset(
  db: Db,
  businessId: number,
  id: number,
  values: Partial<DatasetValues>,
  at: Date,
) {
  const { fields, ...rest } = values;
  return db
    .updateTable('datasets')
    .set({ ...rest, ...(fields ? { fields: jsonb(fields) } : {}), updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deleteDataset(db: Db, businessId: number, id: number) {
  return db
    .deleteFrom('datasets')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/** The dataset, locked for the writes of this transaction (a schema change waits for record writes). */
export function datasetForWrite(db: Db, businessId: number, id: number, mode: 'share' | 'update') {
  const query = db
    .selectFrom('datasets')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
}

/** The business's datasets with their group's name and record count, by name. */
export function datasetsOf(
  db: Db,
  businessId: number,
  filter: { groupId?: number; ids?: number[]; limit: number; offset: number },
) {
  return db
    .selectFrom('datasets as d')
    .leftJoin('dataset_groups as g', 'g.id', 'd.group_id')
    .selectAll('d')
    .select('g.name as group_name')
    .select((eb) =>
      eb
        .selectFrom('dataset_records as r')
        .whereRef('r.dataset_id', '=', 'd.id')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .as('record_count'),
    )
    .where('d.business_id', '=', businessId)
    .$if(filter.groupId !== undefined, (q) => q.where('d.group_id', '=', filter.groupId!))
    .$if(filter.ids !== undefined, (q) => q.where('d.id', 'in', filter.ids!.length ? filter.ids! : [-1]))
    .orderBy(sql`lower(d.name)`)
    .orderBy('d.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

export async function countDatasets(db: Db, businessId: number, groupId?: number) {
  const row = await db
    .selectFrom('datasets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('business_id', '=', businessId)
    .$if(groupId !== undefined, (q) => q.where('group_id', '=', groupId!))
    .executeTakeFirstOrThrow();
  return row.count;
}

/** How many records of a dataset are in each geocoding status. */
export function geocodingCounts(db: Db, datasetId: number) {
  return db
    .selectFrom('dataset_records')
    .select(['geocoding_status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('dataset_id', '=', datasetId)
    .groupBy('geocoding_status')
    .execute();
}

// Records ------------------------------------------------------------------------------------

type RecordRow = DatasetsTables['dataset_records'];
export type RecordValues = Omit<
  Insertable<RecordRow>,
  'id' | 'business_id' | 'dataset_id' | 'import_key' | 'import_row' | 'created_at' | 'updated_at'
>;

export async function insertRecord(
  db: Db,
  dataset: { businessId: number; id: number },
  values: RecordValues,
  at: Date,
) {
  const id = await insertImportedRecord(db, dataset, values, at);
  return id!;
}

/**
 * Writes a record; with `imported`, as that row of that import: when the row is saved already (a
 * run of the same import beside this one), nothing is written and the answer is undefined.
 */
export async function insertImportedRecord(
  db: Db,
  dataset: { businessId: number; id: number },
  values: RecordValues,
  at: Date,
  imported?: { key: string; row: number },
): Promise<number | undefined> {
  const row = await db
    .insertInto('dataset_records')
    .values({
      ...values,
      data: jsonb(values.data),
      business_id: dataset.businessId,
      dataset_id: dataset.id,
      import_key: imported?.key ?? null,
      import_row: imported?.row ?? null,
      created_at: at,
      updated_at: at,
    })
    .$if(imported !== undefined, (query) =>
      query.onConflict((conflict) =>
        conflict
          .columns(['business_id', 'dataset_id', 'import_key', 'import_row'])
          .where('import_key', 'is not', null)
          .doNothing(),
      ),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The rows of an import (by its key) that a dataset holds records of: row to record id. */
export async function importedRows(db: Db, dataset: { businessId: number; id: number }, key: string) {
  const rows = await db
    .selectFrom('dataset_records')
    .select(['import_row', 'id'])
    .where('business_id', '=', dataset.businessId)
    .where('dataset_id', '=', dataset.id)
    .where('import_key', '=', key)
    .execute();
  return new Map(rows.map((row) => [row.import_row!, row.id]));
}

export function updateRecord(
  db: Db,
  dataset: { businessId: number; id: number },
  id: number,
  values: Partial<RecordValues>,
  at: Date,
) {
  const { data, ...rest } = values;
  return db
    .updateTable('dataset_records')
    .set({ ...rest, ...(data ? { data: jsonb(data) } : {}), updated_at: at })
    .where('business_id', '=', dataset.businessId)
    .where('dataset_id', '=', dataset.id)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deleteRecord(db: Db, dataset: { businessId: number; id: number }, id: number) {
  return db
    .deleteFrom('dataset_records')
    .where('business_id', '=', dataset.businessId)
    .where('dataset_id', '=', dataset.id)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function recordOf(db: Db, dataset: { businessId: number; id: number }, id: number) {
  return db
    .selectFrom('dataset_records')
    .selectAll()
    .where('business_id', '=', dataset.businessId)
    .where('dataset_id', '=', dataset.id)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countRecords(db: Db, datasetId: number) {
  const row = await db
    .selectFrom('dataset_records')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('dataset_id', '=', datasetId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The records of a dataset after `afterId`, by id, for a schema change to check them all. */
export function recordsAfter(db: Db, datasetId: number, afterId: number, limit: number) {
  return db
    .selectFrom('dataset_records')
    .select(['id', 'data'])
    .where('dataset_id', '=', datasetId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Drops removed fields' values from every record of a dataset (a schema change removed them). */
export async function dropValues(db: Db, datasetId: number, names: string[], at: Date) {
  if (names.length === 0) return;
  await db
    .updateTable('dataset_records')
    .set({ data: sql`data - ${sql.val(names)}::text[]`, updated_at: at })
    .where('dataset_id', '=', datasetId)
    .execute();
}

/** Forgets the points of a dataset's records: its location field is gone. */
export async function unplaceRecords(db: Db, datasetId: number, at: Date) {
  await db
    .updateTable('dataset_records')
    .set({
      lat: null,
      lng: null,
      address_text: null,
      geocoding_status: 'none',
      geocoding_provider: null,
      geocoding_confidence: null,
      updated_at: at,
    })
    .where('dataset_id', '=', datasetId)
    .execute();
}

/** Keeps each record's search text in step with a schema whose field types changed. */
export async function setSearchText(db: Db, datasetId: number, id: number, searchText: string) {
  await db
    .updateTable('dataset_records')
    .set({ search_text: searchText })
    .where('dataset_id', '=', datasetId)
    .where('id', '=', id)
    .execute();
}

/** How alike words and a record must be to match (trigram word similarity, 0 to 1), as the address search. */
const MIN_SIMILARITY = 0.4;
/** Mean Earth radius, metres (IUGG), for great-circle distances. */
const EARTH_RADIUS_M = 6_371_008.8;

export interface RecordSearch {
  datasetId: number;
  businessId: number;
  words?: string;
  where: Array<{ field: FieldSpec; condition: Condition }>;
  near?: { lat: number; lng: number; radius_m: number };
  order: 'relevance' | 'distance' | 'newest';
  /** Only records with a point (a map layer's). */
  placed?: boolean;
}

/** The great-circle distance from the record's point to `near`, in metres (haversine). */
function distanceTo(near: { lat: number; lng: number }) {
  const lat = sql`${near.lat}::float8`;
  const lng = sql`${near.lng}::float8`;
  return sql<number>`(${sql.lit(EARTH_RADIUS_M)}::float8 * 2 * asin(least(1, sqrt(
    power(sin(radians(r.lat - ${lat}) / 2), 2) +
    cos(radians(${lat})) * cos(radians(r.lat)) * power(sin(radians(r.lng - ${lng}) / 2), 2)
  ))))`;
}

const wordScore = (words: string) => sql<number>`word_similarity(${words.toLowerCase()}, r.search_text)`;
const RANGES = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** The conditions of a search over the records (`r`), as one SQL condition. */
function conditionsOf(search: RecordSearch) {
  const parts = [sql`r.business_id = ${search.businessId}`, sql`r.dataset_id = ${search.datasetId}`];
  for (const { field, condition } of search.where) {
    const name = field.name;
    const text = sql`(r.data ->> ${name})`;
    // Values were checked on write, so a number field casts; a date is YYYY-MM-DD and compares as text.
    const typed = field.type === 'number' ? sql`(r.data ->> ${name})::numeric` : text;
    const bind = (value: unknown) => (field.type === 'number' ? sql`${value}::numeric` : sql`${value}`);
    if (condition.eq !== undefined) {
      parts.push(sql`r.data @> ${JSON.stringify({ [name]: condition.eq })}::jsonb`);
    }
    if (condition.in !== undefined) {
      parts.push(
        field.type === 'number'
          ? sql`${typed} = any(${condition.in.map(Number)}::numeric[])`
          : sql`${text} = any(${condition.in.map(String)}::text[])`,
      );
    }
    for (const [op, symbol] of Object.entries(RANGES) as Array<[keyof typeof RANGES, string]>) {
      const bound = condition[op];
      if (bound !== undefined) parts.push(sql`${typed} ${sql.raw(symbol)} ${bind(bound)}`);
    }
  }
  if (search.words) parts.push(sql`${wordScore(search.words)} >= ${MIN_SIMILARITY}::float8`);
  if (search.placed) parts.push(sql`r.lat is not null and r.lng is not null`);
  if (search.near) {
    parts.push(sql`r.lat is not null and ${distanceTo(search.near)} <= ${search.near.radius_m}::float8`);
  }
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

export async function countMatches(db: Db, search: RecordSearch) {
  const row = await db
    .selectFrom('dataset_records as r')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(conditionsOf(search))
    .executeTakeFirstOrThrow();
  return row.count;
}

export function matches(db: Db, search: RecordSearch, page: { limit: number; offset: number }) {
  const score = search.words ? wordScore(search.words) : sql<number | null>`null::float8`;
  const distance = search.near ? distanceTo(search.near) : sql<number | null>`null::float8`;
  let query = db
    .selectFrom('dataset_records as r')
    .selectAll('r')
    .select([score.as('score'), distance.as('distance_m')])
    .where(conditionsOf(search));
  if (search.order === 'distance' && search.near) query = query.orderBy(sql`distance_m`);
  if (search.order === 'relevance' && search.words) query = query.orderBy(sql`score`, 'desc');
  return query.orderBy('r.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

/** Placed records of the business whose address looks like the words, best first, with their dataset. */
export function placesLike(db: Db, businessId: number, words: string, limit: number) {
  const score = sql<number>`word_similarity(${words.toLowerCase()}, lower(r.address_text))`;
  return db
    .selectFrom('dataset_records as r')
    .innerJoin('datasets as d', 'd.id', 'r.dataset_id')
    .select([
      'r.id',
      'r.dataset_id',
      'r.data',
      'r.address_text',
      'r.lat',
      'r.lng',
      'd.name as dataset_name',
      'd.fields',
      score.as('score'),
    ])
    .where('r.business_id', '=', businessId)
    .where('r.lat', 'is not', null)
    .where('r.address_text', 'is not', null)
    .where(score, '>=', MIN_SIMILARITY)
    .orderBy(score, 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * For each of the words (lower-cased), in their order, the business's placed records whose address
 * is at least `minScore` like them, the `limit` best (ties: newest first), with their dataset:
 * `placesLike` of many addresses in one statement, answered by the trigram index of placed
 * addresses (migration 0062) instead of scoring every placed record. The records are read in a
 * subquery of the words alone (OFFSET 0 keeps the business out of it): otherwise the planner,
 * with the few rows a new dataset's statistics show, reads every placed record of the business
 * by its index and scores each, which an import growing the dataset pays for on every row.
 */
export async function placesLikeEach(
  db: Db,
  businessId: number,
  words: string[],
  limit: number,
  minScore: number,
) {
  if (words.length === 0) return [];
  return trigramLookup(db, minScore, async (trx) => {
    const { rows } = await sql<{
      query: number;
      id: number;
      dataset_id: number;
      data: Record<string, unknown>;
      address_text: string;
      lat: number;
      lng: number;
      dataset_name: string;
      fields: FieldSpec[];
      score: number;
    }>`
      SELECT q.n - 1 AS query, p.*
        FROM unnest(${words}::text[]) WITH ORDINALITY AS q (words, n)
       CROSS JOIN LATERAL (
             SELECT r.id, r.dataset_id, r.data, r.address_text, r.lat, r.lng, d.name AS dataset_name,
                    d.fields, word_similarity(q.words, lower(r.address_text)) AS score
               FROM (SELECT * FROM dataset_records
                      WHERE q.words <% lower(address_text) AND lat IS NOT NULL AND address_text IS NOT NULL
                     OFFSET 0) AS r
               JOIN datasets d ON d.id = r.dataset_id
              WHERE r.business_id = ${businessId}
              ORDER BY score DESC, r.id DESC
              LIMIT ${limit}) AS p
       ORDER BY q.n, p.score DESC, p.id DESC`.execute(trx);
    const answers = words.map((): Omit<(typeof rows)[number], 'query'>[] => []);
    for (const { query, ...place } of rows) answers[query]!.push(place);
    return answers;
  });
}

// Background placing -------------------------------------------------------------------------

/** Which of these records of the business wait for the public geocoder. */
export async function pendingRecordIds(db: Db, businessId: number, ids: number[]) {
  const rows = await db
    .selectFrom('dataset_records')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .where('geocoding_status', '=', 'pending')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** These records, as far as they still wait, with their address and their dataset's fields. */
export function pendingRecords(db: Db, businessId: number, ids: number[]) {
  return db
    .selectFrom('dataset_records as r')
    .innerJoin('datasets as d', 'd.id', 'r.dataset_id')
    .select(['r.id', 'r.address_text', 'r.data', 'd.fields'])
    .where('r.business_id', '=', businessId)
    .where('r.id', 'in', ids.length ? ids : [-1])
    .where('r.geocoding_status', '=', 'pending')
    .orderBy('r.id')
    .execute();
}

/**
 * Settles waiting records: placed where the geocoder found them, `not_found` when it did not know
 * the address, `unavailable` when it gave up (found undefined). Only records still waiting for the
 * same address change: one edited meanwhile keeps what its edit gave it.
 */
export function settlePending(
  db: Db,
  businessId: number,
  ids: number[],
  found: { lat: number; lng: number; provider: string; confidence: number } | null | undefined,
  at: Date,
  addressText?: string,
) {
  const placed = found
    ? {
        lat: found.lat,
        lng: found.lng,
        geocoding_status: 'geocoded' as const,
        geocoding_provider: found.provider,
        geocoding_confidence: found.confidence,
      }
    : { geocoding_status: found === null ? ('not_found' as const) : ('unavailable' as const) };
  return db
    .updateTable('dataset_records')
    .set({ ...placed, updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', 'in', ids.length ? ids : [-1])
    .where('geocoding_status', '=', 'pending')
    .$if(addressText !== undefined, (q) => q.where('address_text', '=', addressText!))
    .execute();
}
