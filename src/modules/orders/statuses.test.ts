import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  canMove,
  DISPATCHABLE,
  ORDER_STATUS_IDS,
  ORDER_STATUSES,
  type OrderStatus,
  TERMINAL_STATUSES,
  TRANSITIONS,
} from './statuses.ts';

/** The lifecycle table of docs/orders.md, row by row: id, status, the statuses it may become. */
function documentedTable(): Array<{ id: number; status: string; moves: string[] }> {
  const page = readFileSync(new URL('../../../docs/orders.md', import.meta.url), 'utf8');
  return [...page.matchAll(/^\| (\d+) \| `(\w+)` \| [^|]+ \|([^|]*)\|$/gm)].map(([, id, status, moves]) => ({
    id: Number(id),
    status: status!,
    moves: [...moves!.matchAll(/`(\w+)`/g)].map(([, to]) => to!),
  }));
}

describe('the order lifecycle table', () => {
  it('is the table docs/orders.md shows, ids and moves alike', () => {
    const documented = documentedTable();
    assert.deepEqual(documented.map((row) => row.status).sort(), [...ORDER_STATUSES].sort());
    for (const row of documented) {
      const status = row.status as OrderStatus;
      assert.equal(ORDER_STATUS_IDS[status], row.id, `${status}'s id`);
      assert.deepEqual([...TRANSITIONS[status]], row.moves, `what ${status} may become`);
    }
  });

  it('numbers the statuses 1 to 10 in the order the interface lists them', () => {
    assert.deepEqual(
      ORDER_STATUSES.map((status) => ORDER_STATUS_IDS[status]),
      ORDER_STATUSES.map((_, index) => index + 1),
    );
  });

  it('allows exactly the moves of the table, and every other move of the 100 is refused', () => {
    let refused = 0;
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const listed = TRANSITIONS[from].includes(to);
        assert.equal(canMove(from, to), listed, `${from} -> ${to}`);
        if (!listed) refused++;
      }
    }
    const allowed = ORDER_STATUSES.reduce((sum, status) => sum + TRANSITIONS[status].length, 0);
    assert.equal(refused, 100 - allowed);
    assert.ok(!canMove('NEW_ORDER', 'DELIVERED'), 'an order is never delivered before it is picked up');
  });

  it('dispatches the orders hold_order may take out of dispatch, no more and no fewer', () => {
    assert.deepEqual(
      DISPATCHABLE,
      ORDER_STATUSES.filter((status) => canMove(status, 'HOLD')),
    );
  });

  it('ends in the statuses no move leaves: delivered, returned, cancelled', () => {
    assert.deepEqual(TERMINAL_STATUSES, ['DELIVERED', 'RETURNED', 'CANCELLED']);
    for (const status of ORDER_STATUSES) {
      assert.ok(!canMove(status, status), `${status} never moves to itself`);
    }
  });
});
