import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import {
  a,
  adminOfB,
  api,
  b,
  type Checks,
  orderAsA,
  orderOfA,
  server,
  tokenOfA,
  tokensOfB,
} from './tenancy.ts';

const refusedById =
  (path: string, body: unknown = {}) =>
  async () => {
    const before = await orderAsA();
    const answer = await api.post(`/api/v1/client/orders/${orderOfA.id}/${path}`, body, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    assert.deepEqual(await orderAsA(), before);
  };

/** A return reason of A, made by the first return-reason check. */
let reasonOfA: Promise<void> | undefined;
const returnReasonOfA = () => {
  reasonOfA ??= api
    .call('PUT', '/api/v1/client/return-reasons/a_only', {
      token: tokenOfA,
      body: { labels: { en: 'A only' } },
    })
    .then((answer) => assert.equal(answer.status, 200, JSON.stringify(answer.body)));
  return reasonOfA;
};
const reasonsOfA = async () =>
  (await api.get('/api/v1/client/return-reasons', { token: tokenOfA })).body.reasons.map(
    (reason: { code: string; label: string }) => `${reason.code}:${reason.label}`,
  );

/** Order chat on for both businesses, and a message of A's on A's order, made by the first chat check. */
let chatOfA: Promise<number> | undefined;
const chatReady = () => {
  chatOfA ??= (async () => {
    for (const token of [tokenOfA, adminOfB()]) {
      await api.call('PUT', '/api/v1/client/feature-families/order_chat', {
        token,
        body: { enabled: true },
      });
      await api.call('PUT', '/api/v1/client/order-chat/settings', {
        token,
        body: { customer_chat: false },
      });
    }
    const posted = await api.post(
      `/api/v1/order-chats/${orderOfA.id}/messages`,
      { text: 'only for A' },
      { token: tokenOfA },
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    return posted.body.message.id as number;
  })();
  return chatOfA;
};
const chatAsA = async () => (await api.get(`/api/v1/order-chats/${orderOfA.id}`, { token: tokenOfA })).body;
/** B's staff reaching A's order's conversation: 404, and A's conversation unchanged. */
const chatRefused = (method: string, path: string, body?: unknown) => async () => {
  await chatReady();
  const before = await chatAsA();
  const answer = await api.call(method, `/api/v1/order-chats/${orderOfA.id}${path}`, {
    token: adminOfB(),
    body,
  });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
  assert.deepEqual(await chatAsA(), before);
};

/** Orders, their chat and return reasons: what B must not reach of A. */
export const orderChecks: Checks = {
  get_feature_families: async () => {
    await chatReady();
    await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
      token: tokenOfA,
      body: { enabled: true },
    });
    const answer = await api.get('/api/v1/client/feature-families', { token: adminOfB() });
    assert.equal(answer.body.business_id, b.businessId);
    const agent = answer.body.families.find((f: { family: string }) => f.family === 'operations_agent');
    assert.equal(agent.enabled, false);
  },
  set_feature_family: async () => {
    await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
      token: adminOfB(),
      body: { enabled: true },
    });
    const asA = await api.get('/api/v1/client/feature-families', { token: tokenOfA });
    const sms = asA.body.families.find((f: { family: string }) => f.family === 'sms_marketing');
    assert.equal(sms.enabled, false);
  },
  set_feature_family_revoked: async () => {
    await chatReady();
    const answer = await api.call(
      'PUT',
      `/api/v1/platform/businesses/${a.businessId}/feature-families/order_chat`,
      { token: adminOfB(), body: { revoked: true } },
    );
    assert.equal(answer.status, 403);
    assert.equal((await api.get('/api/v1/order-chats', { token: tokenOfA })).status, 200);
  },
  set_order_chat_settings: async () => {
    await chatReady();
    await api.call('PUT', '/api/v1/client/order-chat/settings', {
      token: adminOfB(),
      body: { customer_chat: true },
    });
    assert.equal((await chatAsA()).customer_chat, false);
  },
  list_order_chats: async () => {
    await chatReady();
    for (const token of [adminOfB(), tokensOfB.driver!, tokensOfB.customer!]) {
      const answer = await api.get('/api/v1/order-chats', { token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.chats.every((chat: { order_id: number }) => chat.order_id !== orderOfA.id));
    }
    const named = await api.get(`/api/v1/order-chats?business_id=${a.businessId}`, {
      token: tokensOfB.contractor,
    });
    assert.equal(named.status, 403, JSON.stringify(named.body));
  },
  get_order_chat: chatRefused('GET', ''),
  post_order_chat_message: chatRefused('POST', '/messages', { text: 'from B' }),
  mark_order_chat_read: chatRefused('POST', '/read', {}),
  close_order_chat: chatRefused('POST', '/close', {}),
  reopen_order_chat: chatRefused('POST', '/reopen', {}),
  set_order_customer_chat: chatRefused('PUT', '/customer-chat', { customer_chat: true }),
  list_return_reasons: async () => {
    await returnReasonOfA();
    const answer = await api.get('/api/v1/client/return-reasons', { token: adminOfB() });
    assert.ok(answer.body.reasons.every((reason: { code: string }) => reason.code !== 'a_only'));
  },
  save_return_reason: async () => {
    await returnReasonOfA();
    // B's reason of the same code is B's own; A's is untouched.
    await api.call('PUT', '/api/v1/client/return-reasons/a_only', {
      token: adminOfB(),
      body: { labels: { en: 'B' } },
    });
    assert.ok((await reasonsOfA()).includes('a_only:A only'));
  },
  delete_return_reason: async () => {
    await returnReasonOfA();
    await api.call('DELETE', '/api/v1/client/return-reasons/a_only', { token: adminOfB() });
    assert.ok((await reasonsOfA()).includes('a_only:A only'));
  },
  get_order_audit_timeline: async () => {
    const answer = await api.get(`/api/v1/client/orders/${orderOfA.id}/audit-timeline`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
  },
  create_order: async () => {
    const answer = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: '1 B street' }, customer_id: a.userIds.customer },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  bulk_create_orders: async () => {
    const answer = await api.post(
      '/api/v1/client/orders/bulk',
      {
        orders: [
          { dropoff: { line1: 'x' }, customer_id: a.userIds.customer },
          { order_ref: orderOfA.order_ref, dropoff: { line1: 'y' } },
        ],
      },
      { token: adminOfB() },
    );
    assert.equal(answer.body.results[0].error_code, 'CUSTOMER_NOT_FOUND');
    // References are per business: B may reuse A's reference without touching A's order.
    assert.equal(answer.body.results[1].success, true);
    assert.equal((await orderAsA()).dropoff.line1, '1 A street');
  },
  get_orders: async () => {
    const all = await api.get('/api/v1/client/orders', { token: adminOfB() });
    assert.ok(all.body.orders.every((order: { id: number }) => order.id !== orderOfA.id));
    const byNumber = await api.get(`/api/v1/client/orders?tracking_number=${orderOfA.tracking_number}`, {
      token: adminOfB(),
    });
    assert.equal(byNumber.body.total, 0);
    // B's contractor cannot name A's business to look into it.
    const named = await api.get(`/api/v1/client/orders?business_id=${a.businessId}`, {
      token: tokensOfB.contractor,
    });
    assert.equal(named.status, 403);
    assert.equal(named.body.error_code, 'FORBIDDEN');
  },
  find_order: async () => {
    // A reference only A uses (B reuses 'only-in-a' on purpose in bulk_create_orders).
    const own = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'find-me-in-a', dropoff: { line1: 'x' } },
      { token: tokenOfA },
    );
    assert.equal(own.status, 200);
    assert.equal(
      (await api.get('/api/v1/client/orders/find?order_ref=find-me-in-a', { token: tokenOfA })).status,
      200,
    );
    for (const query of ['order_ref=find-me-in-a', `tracking_number=${orderOfA.tracking_number}`]) {
      assert.equal((await api.get(`/api/v1/client/orders/find?${query}`, { token: adminOfB() })).status, 404);
    }
  },
  get_order_detail: async () => {
    assert.equal((await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: adminOfB() })).status, 404);
  },
  cancel_order: refusedById('cancel'),
  hold_order: refusedById('hold'),
  release_order: refusedById('release'),
  update_order_status: refusedById('status', { status: 'PICKED_UP' }),
  upload_proof: async () => {
    const image = new PNG({ width: 2, height: 2 });
    const answer = await fetch(`${server.baseUrl}/api/v1/driver/orders/${orderOfA.id}/proofs?kind=photo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminOfB()}`, 'content-type': 'image/png' },
      body: PNG.sync.write(image),
    });
    assert.equal(answer.status, 404);
    assert.equal(((await answer.json()) as { error_code: string }).error_code, 'ORDER_NOT_FOUND');
  },
  reroute_to_address: refusedById('reroute', { dropoff: { line1: 'Elsewhere' } }),
  set_order_location: async () => {
    const before = await orderAsA();
    const answer = await api.call('PUT', `/api/v1/client/orders/${orderOfA.id}/location`, {
      token: adminOfB(),
      body: { lat: 1, lng: 1 },
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    assert.deepEqual(await orderAsA(), before);
  },
  get_orders_needing_location: async () => {
    const answer = await api.get('/api/v1/client/orders/needs-location', { token: adminOfB() });
    assert.ok(answer.body.orders.every((row: { order: { id: number } }) => row.order.id !== orderOfA.id));
  },
  update_delivery_instruction: refusedById('delivery-instruction', { delivery_instruction: 'leave it' }),
  update_order_note: refusedById('note', { note: 'mine now' }),
  update_time_window_by_refs: async () => {
    const before = await orderAsA();
    const answer = await api.post(
      '/api/v1/client/orders/time-window',
      { order_refs: ['only-in-a'], time_window: { start: '08:00', end: '09:00' } },
      { token: adminOfB() },
    );
    // B has an order with the same reference (see bulk_create_orders); only B's may change.
    assert.equal(answer.status, 200);
    assert.deepEqual(await orderAsA(), before);
  },
  order_snapshot: async () => {
    const answer = await api.get('/api/v1/client/orders/snapshot?date=2026-11-03', { token: adminOfB() });
    assert.equal(answer.body.total, 0);
  },
  list_exceptions: async () => {
    const answer = await api.get('/api/v1/client/orders/exceptions', { token: adminOfB() });
    assert.ok(answer.body.exceptions.every((e: { order: { id: number } }) => e.order.id !== orderOfA.id));
  },
};
