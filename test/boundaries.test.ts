import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The rules that keep the house in shape, checked on the source itself (docs/architecture.md,
// "Boundaries"): the platform names no module, a module is entered only through its index.ts,
// modules depend on each other without cycles, no file imports itself back, and a module queries
// only the tables it declares.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface SourceFile {
  /** Relative to the repository, with forward slashes: src/modules/orders/service.ts. */
  path: string;
  text: string;
}

function sourceFiles(dir = join(ROOT, 'src')): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [{ path: relative(ROOT, full).split('\\').join('/'), text: readFileSync(full, 'utf8') }];
  });
}

/** The project files a file imports (static and dynamic), as repository paths. */
function importsOf(file: SourceFile): string[] {
  const specifiers = [...file.text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => join(dirname(file.path), specifier).split('\\').join('/'));
}

const moduleOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(path)?.[1];

/** Table names each module declares in its tables.ts, from the platform's own too. */
function tableOwners(files: SourceFile[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of files) {
    if (!file.path.endsWith('/tables.ts') && !file.path.endsWith('/audit.ts')) continue;
    const owner = moduleOf(file.path) ?? 'platform';
    for (const block of file.text.matchAll(/export interface \w+Tables \{([\s\S]*?)\n\}/g)) {
      for (const table of block[1]!.matchAll(/^ {2}([a-z_]+): \{/gm)) owners.set(table[1]!, owner);
    }
  }
  return owners;
}

/** Tables a file names in its queries: the query builder's table arguments and raw SQL. */
function tablesQueried(text: string): string[] {
  const builder = text.matchAll(
    /\.(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto)\(\s*'([a-z_]+)/g,
  );
  const raw = [...text.matchAll(/sql`([^`]*)`/g)].flatMap((m) =>
    [...m[1]!.matchAll(/\b(?:from|join|into|update)\s+([a-z_]+)/gi)].map((t) => t[1]!),
  );
  return [...[...builder].map((m) => m[1]!), ...raw];
}

export function boundaryViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  const owners = tableOwners(files);
  const moduleGraph = new Map<string, Set<string>>();
  for (const file of files) {
    const mine = moduleOf(file.path);
    for (const target of importsOf(file)) {
      const theirs = moduleOf(target);
      if (file.path.startsWith('src/platform/') && !target.startsWith('src/platform/')) {
        violations.push(`${file.path} is platform code and imports ${target}`);
      }
      const screen = file.path.startsWith('src/web/');
      if (screen && !target.startsWith('src/web/')) {
        violations.push(
          `${file.path} is a screen and imports ${target}; screens reach the service through its API`,
        );
      }
      if (!screen && target.startsWith('src/web/') && !/^src\/web\/[^/]+\/texts\//.test(target)) {
        violations.push(`${file.path} imports ${target}; of the screens, the service reads only their words`);
      }
      // An entry outside the modules (a solver thread) may load a solver folder alone: pure code,
      // without the module around it.
      const solverOnly = !mine && target.startsWith(`src/modules/${theirs}/solver/`);
      if (theirs && theirs !== mine && !solverOnly) {
        if (target !== `src/modules/${theirs}/index.ts`) {
          violations.push(`${file.path} reaches into ${target}; import src/modules/${theirs}/index.ts`);
        }
        if (mine) moduleGraph.set(mine, (moduleGraph.get(mine) ?? new Set()).add(theirs));
      }
    }
    if (mine) {
      for (const table of tablesQueried(file.text)) {
        const owner = owners.get(table);
        if (owner && owner !== mine) violations.push(`${file.path} queries ${table}, a table of ${owner}`);
      }
    }
  }
  for (const cycle of cyclesOf(moduleGraph)) violations.push(`modules depend on each other: ${cycle}`);
  const fileGraph = new Map(files.map((file) => [file.path, new Set(importsOf(file))]));
  for (const cycle of cyclesOf(fileGraph)) violations.push(`files import each other: ${cycle}`);
  return violations;
}

/**
 * A solver folder (src/modules/<module>/solver/, e.g. dispatch's route builder and packing's
 * loading and carton solvers) holds pure functions: it imports only files inside that folder or
 * the platform, and no node built-in or package, so it runs anywhere (a worker thread, a bench).
 */
export function solverPurityViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const folder = /^(src\/modules\/[^/]+\/solver)\//.exec(file.path)?.[1];
    if (!folder) continue;
    for (const target of importsOf(file)) {
      if (!target.startsWith(`${folder}/`) && !target.startsWith('src/platform/')) {
        violations.push(`${file.path} is solver code and imports ${target}`);
      }
    }
    // A package or built-in: `from 'x'`, `import('x')` or a bare `import 'x'` (not a call like from('x')).
    const bare = /\bfrom\s+'([^.'][^']*)'|\bimport\s*\(\s*'([^.'][^']*)'|^\s*import\s+'([^.'][^']*)'/gm;
    for (const m of file.text.matchAll(bare)) {
      violations.push(`${file.path} is solver code and imports ${m[1] ?? m[2] ?? m[3]}`);
    }
  }
  return violations;
}

/** One description per cycle found by depth-first search ("a -> b -> a"). */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node].join(' -> '));
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

/**
 * The module each migration belongs to. A migration creates and alters its own module's tables;
 * one that reaches into another module's is listed below with its reason (docs/architecture.md).
 */
const MIGRATION_OWNERS: Record<string, string> = {
  '0001_accounts.sql': 'accounts',
  '0002_operation_audit.sql': 'platform',
  '0003_orders.sql': 'orders',
  '0004_dispatch.sql': 'dispatch',
  '0005_contractor_rules.sql': 'contractors',
  '0006_contractor_fleets.sql': 'dispatch',
  '0007_broker_order_assignments.sql': 'contractors',
  '0008_tracking.sql': 'tracking',
  '0009_documents.sql': 'documents',
  '0010_shipping.sql': 'shipping',
  '0011_price_visibility.sql': 'pricing',
  '0012_payments.sql': 'payments',
  '0013_outbox.sql': 'platform',
  '0014_webhooks.sql': 'webhooks',
  '0015_apps.sql': 'apps',
  '0016_route_stops_follow_orders.sql': 'dispatch',
  '0017_driver_registrations.sql': 'accounts',
  '0018_agent_write_proposals.sql': 'approvals',
  '0019_address_book.sql': 'addresses',
  '0020_return_reasons.sql': 'orders',
  '0021_datasets.sql': 'datasets',
  '0022_alliances.sql': 'alliances',
  '0023_analytics.sql': 'analytics',
  '0024_route_stop_legs.sql': 'dispatch',
  '0025_warehouses.sql': 'warehouses',
  '0026_order_chat.sql': 'chat',
  '0027_warehouse_scans.sql': 'warehouses',
  '0028_working_day.sql': 'dispatch',
  '0029_driver_work.sql': 'dispatch',
  '0030_proof_files.sql': 'proofs',
  '0031_plan_edits.sql': 'dispatch',
  '0032_dispatch_settings.sql': 'dispatch',
  '0033_skills.sql': 'skills',
  '0034_approval_page_sessions.sql': 'approvals',
  '0036_maps.sql': 'maps',
  '0037_fleets.sql': 'fleets',
  '0038_open_routes.sql': 'dispatch',
  '0039_route_board.sql': 'fleets',
  '0040_riders.sql': 'riders',
  '0041_instant_orders.sql': 'orders',
  '0042_operations_agent.sql': 'agent',
  '0043_proposal_origin.sql': 'approvals',
  '0044_packing.sql': 'packing',
  '0045_lockers.sql': 'lockers',
  '0046_reservations.sql': 'reservations',
  '0047_consolidation.sql': 'consolidation',
  '0048_third_party.sql': 'third-party',
  '0049_outbox_leases.sql': 'platform',
  '0050_order_origin.sql': 'orders',
  '0051_sms_marketing.sql': 'sms',
  '0052_sms_link_keys.sql': 'sms',
  '0054_sms_reports.sql': 'sms',
  '0053_sms_sending.sql': 'sms',
  '0056_sms_early_reports.sql': 'sms',
  '0055_label_reading.sql': 'ocr',
  '0057_partitioned_history.sql': 'tracking',
  '0058_business_keys.sql': 'platform',
  '0059_jobs.sql': 'jobs',
  '0060_dispatch_board_versions.sql': 'dispatch',
  '0061_address_matching.sql': 'addresses',
  '0062_dataset_place_matching.sql': 'datasets',
  '0063_dataset_import_rows.sql': 'datasets',
  '0064_event_keys_without_reference.sql': 'tracking',
  '0065_route_plan_versions.sql': 'dispatch',
  '0066_route_depots.sql': 'dispatch',
  '0067_rider_offers_on_route.sql': 'riders',
  '0068_locker_stops.sql': 'dispatch',
  '0069_load_plan_staleness.sql': 'packing',
  '0070_loading_by_hand.sql': 'packing',
};

/**
 * The migrations that create or alter another module's table: each an exception, with its reason.
 * `<migration> *` covers every table: a schema-wide change the platform makes for all modules.
 */
const CROSS_MODULE_MIGRATIONS: Record<string, string> = {
  '0004_dispatch.sql orders': "an order's route_id refers to dispatch's routes",
  '0006_contractor_fleets.sql orders': 'an order on a route names its driver (driver_user_id)',
  '0007_broker_order_assignments.sql platform_modules':
    "the accounts module's switches got their platform level with the first switchable module",
  '0015_apps.sql access_tokens':
    'app sessions are tokens bound to one business (business_scope_id, kind app)',
  '0026_order_chat.sql business_families':
    "the opt-in families' switches sit beside the accounts module's module switches, and came with the first family",
  '0057_partitioned_history.sql operation_audit':
    "the platform's audit became partitioned by month with the tracking history, by one rebuild written once",
  '0058_business_keys.sql *':
    'the keys of every business-owned table include business_id, so the schema can be sharded by business (docs/scaling.md)',
};

function migrationViolations(owners: Map<string, string>): string[] {
  const dir = join(ROOT, 'migrations');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .flatMap((name) => {
      const module = MIGRATION_OWNERS[name];
      if (!module) return [`migrations/${name} names no owning module in test/boundaries.test.ts`];
      const sqlText = readFileSync(join(dir, name), 'utf8').replace(/--.*$/gm, '');
      const touched = [
        ...sqlText.matchAll(/\b(?:create|alter) table\s+(?:if (?:not )?exists\s+)?([a-z_]+)/gi),
      ];
      return touched.flatMap(([, table]) => {
        const owner = owners.get(table!);
        const excepted = CROSS_MODULE_MIGRATIONS[`${name} ${table}`] ?? CROSS_MODULE_MIGRATIONS[`${name} *`];
        if (!owner || owner === module || excepted) return [];
        return [`migrations/${name} (${module}) alters ${table}, a table of ${owner}`];
      });
    });
}

describe('module boundaries', () => {
  test('the source keeps every rule', () => {
    assert.deepEqual(boundaryViolations(sourceFiles()), []);
  });

  test("screens import only screens' code, and the service only their words", () => {
    assert.deepEqual(
      boundaryViolations([
        { path: 'src/web/dispatch/a.ts', text: "import { b } from '../../modules/dispatch/index.ts';" },
        { path: 'src/web/dispatch/c.ts', text: "import { d } from '../shared/api.ts';" },
        { path: 'src/doors/pages/e.ts', text: "import { f } from '../../web/dispatch/console.ts';" },
        { path: 'src/doors/pages/g.ts', text: "import { h } from '../../web/dispatch/texts/index.ts';" },
      ]),
      [
        'src/web/dispatch/a.ts is a screen and imports src/modules/dispatch/index.ts; screens reach the service through its API',
        'src/doors/pages/e.ts imports src/web/dispatch/console.ts; of the screens, the service reads only their words',
      ],
    );
  });

  test('solver folders are pure: no imports from outside them but the platform, no built-ins', () => {
    assert.deepEqual(solverPurityViolations(sourceFiles()), []);
    const broken = solverPurityViolations([
      { path: 'src/modules/packing/solver/loading/a.ts', text: "import { b } from '../../service.ts';" },
      { path: 'src/modules/packing/solver/loading/c.ts', text: "import { readFileSync } from 'node:fs';" },
      { path: 'src/modules/packing/solver/loading/d.ts', text: "import { e } from '../geometry.ts';" },
      { path: 'src/modules/packing/solver/loading/f.ts', text: "const g = from('catalog', list);" },
      {
        path: 'src/modules/packing/solver/loading/h.ts',
        text: "const w = await import('node:worker_threads');",
      },
    ]);
    assert.deepEqual(broken, [
      'src/modules/packing/solver/loading/a.ts is solver code and imports src/modules/packing/service.ts',
      'src/modules/packing/solver/loading/c.ts is solver code and imports node:fs',
      'src/modules/packing/solver/loading/h.ts is solver code and imports node:worker_threads',
    ]);
  });

  test("a migration alters its own module's tables, or is a documented exception", () => {
    assert.deepEqual(migrationViolations(tableOwners(sourceFiles())), []);
  });

  test('no source, script, benchmark or test file is longer than 700 lines', () => {
    const code = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
        // A generated file (*.gen.ts, gitignored: npm run web:types) is written, not read.
        .filter(
          (entry) => entry.isFile() && /\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.gen.ts'),
        )
        .map((entry) => join(entry.parentPath, entry.name));
    const long = ['src', 'bench', 'bin', 'test']
      .flatMap(code)
      .map((file) => ({
        file: relative(ROOT, file),
        lines: readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      // A generated file (the web apps' API types, gitignored) is not written by hand.
      .filter(({ file, lines }) => lines > 700 && !file.endsWith('.gen.ts'))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    assert.deepEqual(
      long,
      [],
      'Over the 700-line cap: split the file by use case (a *-operations.ts, *-repository.ts or service part beside it), see CONTRIBUTING.md',
    );
  });

  test('every module declares its public interface', () => {
    const modules = readdirSync(join(ROOT, 'src/modules'));
    const files = new Set(sourceFiles().map((file) => file.path));
    assert.deepEqual(
      modules.filter((name) => !files.has(`src/modules/${name}/index.ts`)),
      [],
    );
  });

  test('each rule catches its breach', () => {
    const tables = {
      path: 'src/modules/accounts/tables.ts',
      text: 'export interface AccountsTables {\n  users: {\n    id: number;\n  };\n}',
    };
    const orderTables = {
      path: 'src/modules/orders/tables.ts',
      text: 'export interface OrdersTables {\n  orders: {\n    id: number;\n  };\n}',
    };
    const broken = boundaryViolations([
      tables,
      orderTables,
      { path: 'src/platform/x.ts', text: "import { a } from '../modules/orders/index.ts';" },
      {
        path: 'src/modules/orders/repository.ts',
        text: "import { b } from '../accounts/repository.ts';\ndb.selectFrom('orders').innerJoin('users as u', 'u.id', 'o.user_id');\nsql`select 1 from users`;",
      },
      { path: 'src/modules/accounts/index.ts', text: "import { c } from '../orders/index.ts';" },
      { path: 'src/modules/orders/index.ts', text: "import { d } from '../accounts/index.ts';" },
      // A module may not enter another's solver folder; an entry outside the modules may.
      { path: 'src/modules/orders/plan.ts', text: "import { e } from '../dispatch/solver/solve.ts';" },
      { path: 'src/solver-worker.ts', text: "import { f } from './modules/dispatch/solver/solve.ts';" },
    ]);
    const expected = [
      'src/platform/x.ts is platform code',
      'reaches into src/modules/accounts/repository.ts',
      'queries users, a table of accounts',
      'modules depend on each other',
      'files import each other',
    ];
    for (const phrase of expected) {
      assert.ok(
        broken.some((violation) => violation.includes(phrase)),
        `${phrase} in ${broken.join('\n')}`,
      );
    }
    assert.equal(broken.filter((violation) => violation.includes('queries users')).length, 2);
    assert.ok(broken.some((violation) => violation.startsWith('src/modules/orders/plan.ts reaches into')));
    assert.ok(!broken.some((violation) => violation.startsWith('src/solver-worker.ts')), broken.join('\n'));
  });
});
