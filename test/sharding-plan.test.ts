import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import {
  CROSS_BUSINESS_REFERENCES,
  GLOBAL_UNIQUE_KEYS,
  PLACEMENTS,
  type Placement,
} from './support/sharding-plan.ts';

// The migrated schema against the plan for sharding by business on Citus (docs/scaling.md):
// Citus keeps a unique key on a distributed table only with the distribution column in it, a
// reference between distributed tables only between co-located rows (business_id on both sides),
// and no reference from a replicated or coordinator table to a distributed one.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface TableFacts {
  /** null: the table has no business_id; otherwise whether it is NOT NULL. */
  businessIdNotNull: boolean | null;
  primaryKey: string[];
}

interface UniqueKey {
  table: string;
  name: string;
  /** Key columns; expressions are left out. */
  columns: string[];
}

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
}

export interface Schema {
  tables: Map<string, TableFacts>;
  uniqueKeys: UniqueKey[];
  foreignKeys: ForeignKey[];
}

async function readSchema(client: pg.Client): Promise<Schema> {
  const tables = await client.query<{
    name: string;
    business_id_not_null: boolean | null;
    pk: string[] | null;
  }>(`
    SELECT c.relname AS name,
      (SELECT a.attnotnull FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped) AS business_id_not_null,
      (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM pg_constraint p
        CROSS JOIN unnest(p.conkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = p.conrelid AND a.attnum = k.attnum
        WHERE p.conrelid = c.oid AND p.contype = 'p') AS pk
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`);
  const unique = await client.query<UniqueKey>(`
    SELECT t.relname AS table, i.relname AS name,
      coalesce((SELECT array_agg(a.attname::text ORDER BY k.ord)
        FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
        WHERE k.ord <= x.indnkeyatts), '{}') AS columns
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND x.indisunique AND NOT x.indisprimary AND NOT t.relispartition`);
  const foreign = await client.query<ForeignKey>(`
    SELECT t.relname AS table, f.conname AS name, r.relname AS references,
      (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(f.conkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum) AS columns,
      (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(f.confkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum) AS "referencedColumns"
    FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND f.contype = 'f' AND NOT t.relispartition AND f.conparentid = 0`);
  return {
    tables: new Map(
      tables.rows.map((row) => [
        row.name,
        { businessIdNotNull: row.business_id_not_null, primaryKey: row.pk ?? [] },
      ]),
    ),
    uniqueKeys: unique.rows,
    foreignKeys: foreign.rows,
  };
}

/** Every way the schema breaks the plan, each naming the table and what to do. */
export function planViolations(schema: Schema, placements: Record<string, Placement>): string[] {
  const violations: string[] = [];
  const placed = (table: string) => placements[table]?.kind;
  for (const table of [...schema.tables.keys()].sort()) {
    if (!placements[table]) {
      violations.push(
        `${table} is not classified: add it to PLACEMENTS in test/support/sharding-plan.ts (distributed, reference or local, with why)`,
      );
    }
  }
  for (const table of Object.keys(placements).sort()) {
    if (!schema.tables.has(table)) {
      violations.push(
        `${table} is classified but no such table exists: remove it from test/support/sharding-plan.ts`,
      );
    }
  }
  for (const [table, facts] of schema.tables) {
    if (placed(table) !== 'distributed') continue;
    if (facts.businessIdNotNull === null) {
      violations.push(
        `${table} is distributed but has no business_id: add it, fill it from the parent row, make it NOT NULL, and have every insert supply it`,
      );
      continue;
    }
    if (!facts.businessIdNotNull) {
      violations.push(
        `${table}.business_id is nullable: make it NOT NULL, or classify ${table} as local with why`,
      );
    }
    if (!facts.primaryKey.includes('business_id')) {
      violations.push(
        `${table}'s primary key (${facts.primaryKey.join(', ')}) lacks business_id: make it (${facts.primaryKey.join(', ')}, business_id)`,
      );
    }
  }
  for (const key of schema.uniqueKeys) {
    if (placed(key.table) !== 'distributed') continue;
    if (key.columns.includes('business_id') || GLOBAL_UNIQUE_KEYS[key.name]) continue;
    violations.push(
      `${key.table}: unique key ${key.name} lacks business_id: add business_id to it (and to any ON CONFLICT on it), or, if it must be unique across businesses, declare it in GLOBAL_UNIQUE_KEYS with how the Citus step keeps it`,
    );
  }
  for (const fk of schema.foreignKeys) {
    const from = placed(fk.table);
    const to = placed(fk.references);
    if (from === 'distributed' && to === 'distributed') {
      if (CROSS_BUSINESS_REFERENCES[fk.name]) continue;
      const at = fk.columns.indexOf('business_id');
      if (at < 0 || fk.referencedColumns[at] !== 'business_id') {
        violations.push(
          `${fk.table}: ${fk.name} (${fk.columns.join(', ')}) -> ${fk.references} (${fk.referencedColumns.join(', ')}) is not co-located: make it (business_id, ${fk.columns.join(', ')}) REFERENCES ${fk.references} (business_id, ${fk.referencedColumns.join(', ')})`,
        );
      }
    } else if (from === 'reference' && to !== 'reference') {
      violations.push(
        `${fk.table} is a reference table and ${fk.name} refers to ${fk.references} (${to}): a copy on every node cannot refer to it; drop the reference or classify ${fk.table} otherwise`,
      );
    } else if (from === 'local' && to === 'distributed') {
      violations.push(
        `${fk.table} stays on the coordinator and ${fk.name} refers to ${fk.references}, which is distributed: drop the reference or distribute ${fk.table}`,
      );
    } else if (from === 'distributed' && to === 'local') {
      violations.push(
        `${fk.table} is distributed and ${fk.name} refers to ${fk.references}, which stays on the coordinator: make ${fk.references} a reference table or drop the reference`,
      );
    }
  }
  for (const [name, catalog] of [
    [Object.keys(GLOBAL_UNIQUE_KEYS), schema.uniqueKeys.map((key) => key.name)],
    [Object.keys(CROSS_BUSINESS_REFERENCES), schema.foreignKeys.map((fk) => fk.name)],
  ] as const) {
    for (const declared of name) {
      if (!catalog.includes(declared))
        violations.push(`${declared} is declared an exception but does not exist: remove it`);
    }
  }
  return violations;
}

/** Tables of one kind, each after the tables it refers to (Citus wants the referred table first). */
function inReferenceOrder(schema: Schema, tables: string[]): string[] {
  const wanted = new Set(tables);
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string) => {
    if (state.get(table) === 'done') return;
    assert.notEqual(state.get(table), 'visiting', `references between tables form a cycle through ${table}`);
    state.set(table, 'visiting');
    const referred = schema.foreignKeys
      .filter((fk) => fk.table === table && fk.references !== table && wanted.has(fk.references))
      .map((fk) => fk.references)
      .sort();
    for (const next of referred) visit(next);
    state.set(table, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered;
}

/** The statements of docs/scaling.md that place every table, in an order Citus accepts. */
export function citusCommands(schema: Schema, placements: Record<string, Placement>): string {
  const of = (kind: Placement['kind']) =>
    Object.keys(placements).filter((table) => placements[table]!.kind === kind);
  return [
    ...inReferenceOrder(schema, of('reference')).map((table) => `SELECT create_reference_table('${table}');`),
    ...inReferenceOrder(schema, of('distributed')).map(
      (table) => `SELECT create_distributed_table('${table}', 'business_id');`,
    ),
  ].join('\n');
}

describe('the schema is distributable by business', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let schema: Schema;
  before(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    schema = await readSchema(client);
  });
  after(async () => {
    await client?.end();
    await database?.drop();
  });

  test('every table is classified, and the migrated schema keeps the rules of its class', () => {
    assert.deepEqual(planViolations(schema, PLACEMENTS), []);
  });

  test('each broken rule names the table and the fix', () => {
    const broken: Schema = {
      tables: new Map([
        ['shelves', { businessIdNotNull: true, primaryKey: ['id'] }],
        ['boxes', { businessIdNotNull: false, primaryKey: ['business_id', 'id'] }],
        ['crates', { businessIdNotNull: null, primaryKey: ['id'] }],
        ['kinds', { businessIdNotNull: null, primaryKey: ['id'] }],
        ['loose', { businessIdNotNull: null, primaryKey: ['id'] }],
      ]),
      uniqueKeys: [{ table: 'boxes', name: 'boxes_label_key', columns: ['label'] }],
      foreignKeys: [
        {
          table: 'boxes',
          name: 'boxes_shelf_id_fkey',
          columns: ['shelf_id'],
          references: 'shelves',
          referencedColumns: ['id'],
        },
        {
          table: 'kinds',
          name: 'kinds_box_id_fkey',
          columns: ['box_id'],
          references: 'boxes',
          referencedColumns: ['id'],
        },
      ],
    };
    const violations = planViolations(broken, {
      shelves: { kind: 'distributed' },
      boxes: { kind: 'distributed' },
      crates: { kind: 'distributed' },
      kinds: { kind: 'reference', why: 'few' },
      gone: { kind: 'local', why: 'old' },
    });
    assert.deepEqual(violations, [
      'loose is not classified: add it to PLACEMENTS in test/support/sharding-plan.ts (distributed, reference or local, with why)',
      'gone is classified but no such table exists: remove it from test/support/sharding-plan.ts',
      "shelves's primary key (id) lacks business_id: make it (id, business_id)",
      'boxes.business_id is nullable: make it NOT NULL, or classify boxes as local with why',
      'crates is distributed but has no business_id: add it, fill it from the parent row, make it NOT NULL, and have every insert supply it',
      'boxes: unique key boxes_label_key lacks business_id: add business_id to it (and to any ON CONFLICT on it), or, if it must be unique across businesses, declare it in GLOBAL_UNIQUE_KEYS with how the Citus step keeps it',
      'boxes: boxes_shelf_id_fkey (shelf_id) -> shelves (id) is not co-located: make it (business_id, shelf_id) REFERENCES shelves (business_id, id)',
      'kinds is a reference table and kinds_box_id_fkey refers to boxes (distributed): a copy on every node cannot refer to it; drop the reference or classify kinds otherwise',
      ...Object.keys(GLOBAL_UNIQUE_KEYS).map(
        (name) => `${name} is declared an exception but does not exist: remove it`,
      ),
      ...Object.keys(CROSS_BUSINESS_REFERENCES).map(
        (name) => `${name} is declared an exception but does not exist: remove it`,
      ),
    ]);
  });

  test('docs/scaling.md places every table as the classification says, in an order Citus accepts', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'scaling.md'), 'utf8');
    const block =
      /<!-- citus-placement:start -->\n```sql\n([\s\S]*?)\n```\n<!-- citus-placement:end -->/.exec(doc)?.[1];
    const expected = citusCommands(schema, PLACEMENTS);
    assert.equal(block, expected, `docs/scaling.md's placement block should read:\n${expected}`);
  });
});
