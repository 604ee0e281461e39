import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { GROUPS } from '../bench/mutation/groups.ts';
import { scoresOf } from '../bench/mutation/scores.ts';

describe('the mutation run (bench/mutation)', () => {
  it('breaks rules of orders, fleets, reservations, approvals, lockers, pricing and contractors', () => {
    const modules = new Set(
      Object.values(GROUPS).flatMap((group) => group.mutate.map((file) => file.split('/')[2])),
    );
    for (const module of [
      'orders',
      'fleets',
      'reservations',
      'approvals',
      'lockers',
      'pricing',
      'contractors',
    ]) {
      assert.ok(modules.has(module), `no group mutates src/modules/${module}`);
    }
  });

  it('names files and tests that exist, so a rename cannot leave a group mutating nothing', () => {
    for (const [name, group] of Object.entries(GROUPS)) {
      for (const file of [...group.mutate, ...group.tests])
        assert.ok(existsSync(file), `${name}: ${file} is gone`);
      assert.ok(group.tests.length > 0, `${name} has no tests`);
    }
  });

  it('scores detected mutants over valid ones, listing each one no test noticed', () => {
    const mutant = (status: string, line: number) => ({
      mutatorName: 'ConditionalExpression',
      status,
      replacement: 'true',
      location: { start: { line } },
    });
    const report = {
      files: {
        '/repo/src/a.ts': {
          mutants: [
            mutant('Killed', 1),
            mutant('Timeout', 2),
            mutant('Survived', 3),
            mutant('NoCoverage', 4),
          ],
        },
        '/repo/src/b.ts': { mutants: [mutant('RuntimeError', 5), mutant('Ignored', 6), mutant('Killed', 7)] },
      },
    };
    const { rows, undetected } = scoresOf(report, '/repo');
    assert.deepEqual(rows, [
      '| src/a.ts | 4 | 2 | 1 | 1 | 0 | 50.0 % |',
      '| src/b.ts | 1 | 1 | 0 | 0 | 1 | 100.0 % |',
    ]);
    assert.deepEqual(undetected, [
      'src/a.ts:3 ConditionalExpression (Survived): true',
      'src/a.ts:4 ConditionalExpression (NoCoverage): true',
    ]);
  });
});
