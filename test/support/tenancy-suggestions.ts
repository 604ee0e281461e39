import assert from 'node:assert/strict';
import { a, adminOfB, api, type Checks, tokenOfA } from './tenancy.ts';

// The dispatcher suggestions (the operations AI agent family): A's day, its suggestions and their
// ids, are out of B's reach, B's own family switched on or not.

/** The date of A's route (test/support/tenancy.ts). */
const DATE = '2026-11-04';

/** A's family on, and an unplanned order of A's beside its route: one insert_order suggestion for A; made once. */
let suggestionOfA: Promise<{ id: string; orderId: number }> | undefined;
const suggestedToA = () =>
  (suggestionOfA ??= (async () => {
    for (const token of [tokenOfA, adminOfB()]) {
      const on = await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
        token,
        body: { enabled: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const setUp = await api.call('PUT', '/api/v1/client/agent/settings', {
        token,
        body: { instructions: null },
      });
      assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
    }
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'a-waiting', scheduled_date: DATE, dropoff: { line1: 'y', lat: 48.861, lng: 2.361 } },
      { token: tokenOfA },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const read = await api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, { token: tokenOfA });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const found = read.body.suggestions.find(
      (s: { kind: string; order_id: number }) =>
        s.kind === 'insert_order' && s.order_id === created.body.order_id,
    );
    assert.ok(found, JSON.stringify(read.body));
    return { id: found.id, orderId: created.body.order_id };
  })());

/** A's suggestion as A reads it, unchanged, and no proposal queued in A. */
const suggestionOfAStays = async (id: string) => {
  const read = await api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, { token: tokenOfA });
  assert.ok(
    read.body.suggestions.some((s: { id: string }) => s.id === id),
    JSON.stringify(read.body),
  );
  const pending = await api.get('/api/v1/agent/approvals', { token: tokenOfA });
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  assert.equal(pending.body.total, 0, JSON.stringify(pending.body));
};

export const suggestionChecks: Checks = {
  get_dispatch_suggestions: async () => {
    const { id, orderId } = await suggestedToA();
    const read = await api.get(`/api/v1/dispatch/suggestions?date=${DATE}`, { token: adminOfB() });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const text = JSON.stringify(read.body);
    assert.ok(!text.includes(id), text);
    assert.ok(
      read.body.suggestions.every(
        (s: { order_id: number | null; driver_id: number | null }) =>
          s.order_id !== orderId && s.driver_id !== a.userIds.driver,
      ),
      text,
    );
  },
  propose_dispatch_suggestion: async () => {
    const { id } = await suggestedToA();
    const proposed = await api.post(
      `/api/v1/dispatch/suggestions/${id}/propose`,
      { date: DATE },
      { token: adminOfB() },
    );
    assert.equal(proposed.status, 404, JSON.stringify(proposed.body));
    assert.equal(proposed.body.error_code, 'SUGGESTION_NOT_FOUND');
    await suggestionOfAStays(id);
  },
};
