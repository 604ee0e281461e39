import { type Insertable, sql, type Updateable } from 'kysely';
import { jsonb, type Queryable } from '../../platform/db/database.ts';
import type { ZoneGeometry } from './schemas.ts';
import type { MapsTables } from './tables.ts';

type Db = Queryable<MapsTables>;
type MapRow = MapsTables['maps'];

const MAP_COLUMNS = [
  'id',
  'business_id',
  'name',
  'style',
  'layers',
  'visibility',
  'embed_origins',
  'published_at',
  'created_at',
  'updated_at',
] as const;

export async function insertMap(db: Db, row: Insertable<MapRow>): Promise<number> {
  const inserted = await db
    .insertInto('maps')
    .values({ ...row, style: jsonb(row.style), layers: jsonb(row.layers) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The business's maps, newest first; only `ids` when given. `lock`: held for a change. */
export function mapsOf(
  db: Db,
  businessId: number,
  options: { ids?: number[]; limit: number; offset: number; lock?: boolean },
) {
  return db
    .selectFrom('maps')
    .select(MAP_COLUMNS)
    .where('business_id', '=', businessId)
    .$if(options.ids !== undefined, (q) => q.where('id', 'in', options.ids!.length ? options.ids! : [-1]))
    .$if(options.lock === true, (q) => q.forUpdate())
    .orderBy('id', 'desc')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export async function countMaps(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('maps')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Changes a map of the business; false when it has none with this id. */
export async function updateMap(db: Db, businessId: number, id: number, changes: Updateable<MapRow>) {
  const { style, layers, ...rest } = changes;
  const updated = await db
    .updateTable('maps')
    .set({
      ...rest,
      ...(style === undefined ? {} : { style: jsonb(style) }),
      ...(layers === undefined ? {} : { layers: jsonb(layers) }),
    })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

export async function deleteMap(db: Db, businessId: number, id: number) {
  const deleted = await db
    .deleteFrom('maps')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

/** The published map whose link has this digest. */
export function mapByLink(db: Db, linkHash: Buffer) {
  return db
    .selectFrom('maps')
    .select(MAP_COLUMNS)
    .where('link_hash', '=', linkHash)
    .where('visibility', '=', 'public')
    .executeTakeFirst();
}

/** The first key of the business's advisory locks on its maps and zones (the second is the business). */
const MAPS_LOCK = 0x4d415053;

/** Holds the business's maps and zones for additions until the transaction ends (their limits). */
export async function lockBusinessMaps(db: Db, businessId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${MAPS_LOCK}, ${businessId}::integer)`.execute(db);
}

// ----- service zones -----

const ZONE_COLUMNS = ['id', 'name', 'geometry', 'vertices', 'created_at', 'updated_at'] as const;

export async function insertZone(
  db: Db,
  row: { business_id: number; name: string; geometry: ZoneGeometry; vertices: number; at: Date },
): Promise<number> {
  const inserted = await db
    .insertInto('service_zones')
    .values({
      business_id: row.business_id,
      name: row.name,
      geometry: jsonb(row.geometry),
      vertices: row.vertices,
      created_at: row.at,
      updated_at: row.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function replaceZone(
  db: Db,
  businessId: number,
  id: number,
  row: { name: string; geometry: ZoneGeometry; vertices: number; at: Date },
) {
  const updated = await db
    .updateTable('service_zones')
    .set({ name: row.name, geometry: jsonb(row.geometry), vertices: row.vertices, updated_at: row.at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

export async function deleteZone(db: Db, businessId: number, id: number) {
  const deleted = await db
    .deleteFrom('service_zones')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

/** The business's zones by id; only `ids` when given. */
export function zonesOf(db: Db, businessId: number, options: { ids?: readonly number[] } = {}) {
  return db
    .selectFrom('service_zones')
    .select(ZONE_COLUMNS)
    .where('business_id', '=', businessId)
    .$if(options.ids !== undefined, (q) =>
      q.where('id', 'in', options.ids!.length ? [...options.ids!] : [-1]),
    )
    .orderBy('id')
    .execute();
}

export async function countZones(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('service_zones')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
