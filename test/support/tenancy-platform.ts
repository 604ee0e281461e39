import assert from 'node:assert/strict';
import { ACCOUNT_KINDS } from '../../src/platform/catalog/operation.ts';
import { login } from './fixtures.ts';
import {
  a,
  adminOfB,
  api,
  appOfA,
  b,
  type Checks,
  deliveryOfA,
  orderAsA,
  orderOfA,
  providerKeyOfB,
  providerOfA,
  tokenOfA,
  tokensOfB,
} from './tenancy.ts';

const eventsOfA = async () =>
  (await api.get(`/api/v1/otep/trackings/${orderOfA.tracking_number}`)).body.data.events.length;
const pushToA = (key: string) =>
  api.post(
    '/api/v1/otep/ingest',
    {
      otep_version: '0.1',
      profile: 'parcel',
      subject: { tracking_number: orderOfA.tracking_number },
      events: [
        { occurred_at: '2026-11-02T12:00:00Z', status_code: 'in_transit', source: { type: 'carrier' } },
      ],
    },
    { headers: { 'x-otep-provider-key': key } },
  );

/** A pending write proposal of A (to cancel A's order), made by the first approvals check. */
let proposalOfA: Promise<number> | undefined;
const pendingProposalOfA = () => {
  proposalOfA ??= api
    .post(
      '/api/v1/agent/approvals',
      { tool: 'cancel_order', arguments: { order_id: orderOfA.id }, reason: 'tenancy' },
      { token: tokenOfA },
    )
    .then((answer) => {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.proposal.id as number;
    });
  return proposalOfA;
};
const proposalOfAStaysPending = (action: 'approve' | 'reject') => async () => {
  const id = await pendingProposalOfA();
  const answer = await api.post(
    `/api/v1/agent/approvals/${id}/${action}`,
    // Only a rejection takes a reason.
    action === 'reject' ? { reason: 'not mine' } : {},
    { token: adminOfB() },
  );
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'PROPOSAL_NOT_FOUND');
  const asA = await api.get('/api/v1/agent/approvals', { token: tokenOfA });
  assert.ok(asA.body.proposals.some((proposal: { id: number }) => proposal.id === id));
  assert.notEqual((await orderAsA()).status, 'CANCELLED');
};

/** An alliance of A's, A alone in it, granting everything: made by the first alliance check. */
let allianceOfA: Promise<number> | undefined;
const allianceIdOfA = () => {
  allianceOfA ??= (async () => {
    const created = await api.post('/api/v1/client/alliances', { name: 'A only' }, { token: tokenOfA });
    const id = created.body.alliance.id as number;
    await api.call('PATCH', `/api/v1/client/alliances/${id}/grants`, {
      token: tokenOfA,
      body: { track_packages: true, see_orders: true },
    });
    return id;
  })();
  return allianceOfA;
};
/** B's call on A's alliance is answered as for an alliance that does not exist, and changes nothing. */
const allianceRefused = (method: string, path: string, body?: unknown) => async () => {
  const id = await allianceIdOfA();
  const answer = await api.call(method, `/api/v1/client/alliances/${id}${path}`, {
    token: adminOfB(),
    body,
  });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'ALLIANCE_NOT_FOUND');
  const asA = await api.get(`/api/v1/client/alliances/${id}`, { token: tokenOfA });
  assert.equal(asA.body.alliance.name, 'A only');
  assert.equal(asA.body.alliance.member_count, 1);
  assert.equal(asA.body.alliance.my_grants.see_orders, true);
};

/** Alliances, tracking, approvals, modules, settings, webhooks and apps: what B must not reach of A. */
export const platformChecks: Checks = {
  list_alliances: async () => {
    const id = await allianceIdOfA();
    const answer = await api.get('/api/v1/client/alliances', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.alliances.every((alliance: { id: number }) => alliance.id !== id));
  },
  get_alliance: allianceRefused('GET', ''),
  list_alliance_members: allianceRefused('GET', '/members'),
  list_accessible_clients: async () => {
    await allianceIdOfA();
    const answer = await api.get('/api/v1/client/accessible-clients', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.clients, []);
  },
  create_alliance: async () => {
    const made = await api.post('/api/v1/client/alliances', { name: 'B only' }, { token: adminOfB() });
    assert.equal(made.status, 200);
    const asA = await api.get(`/api/v1/client/alliances/${made.body.alliance.id}`, { token: tokenOfA });
    assert.equal(asA.body.error_code, 'ALLIANCE_NOT_FOUND');
  },
  rename_alliance: allianceRefused('PATCH', '', { name: 'Taken by B' }),
  invite_to_alliance: allianceRefused('POST', '/invitations', { business_code: 'bravo' }),
  accept_alliance_invitation: allianceRefused('POST', '/accept'),
  decline_alliance_invitation: allianceRefused('POST', '/decline'),
  leave_alliance: allianceRefused('POST', '/leave'),
  remove_alliance_member: allianceRefused('DELETE', '/members/alpha'),
  dissolve_alliance: allianceRefused('DELETE', ''),
  set_alliance_grants: allianceRefused('PATCH', '/grants', { track_packages: false }),
  get_tracking_detail: async () => {
    await allianceIdOfA();
    const answer = await api.get(`/api/v1/client/trackings/${orderOfA.tracking_number}`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.view, 'public');
    assert.equal(answer.body.timeline.subject.order_id, undefined);
  },
  run_graphql_query: async () => {
    // A GraphQL document run as B reads and writes only what B's own calls may.
    const answer = await api.post(
      '/api/v1/developer/graphql',
      {
        query: `query($id: Int!) { order(order_id: $id) { order { id } } }`,
        variables: { id: orderOfA.id },
      },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.errors[0].extensions.error_code, 'ORDER_NOT_FOUND', JSON.stringify(answer.body));
    const cancel = await api.post(
      '/api/v1/developer/graphql',
      {
        query: `mutation($id: Int!) { cancelOrder(order_id: $id) { order { status } } }`,
        variables: { id: orderOfA.id },
      },
      { token: adminOfB() },
    );
    assert.equal(cancel.body.errors[0].extensions.error_code, 'ORDER_NOT_FOUND', JSON.stringify(cancel.body));
    assert.notEqual((await orderAsA()).status, 'CANCELLED');
  },
  propose_write: async () => {
    // B may propose a call on A's order; its preview (and, approved, its run) meets A's wall.
    const answer = await api.post(
      '/api/v1/agent/approvals',
      { tool: 'cancel_order', arguments: { order_id: orderOfA.id }, reason: 'probe' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.proposal.preview.error_code, 'ORDER_NOT_FOUND');
    const approved = await api.post(
      `/api/v1/agent/approvals/${answer.body.proposal.id}/approve`,
      {},
      {
        token: tokensOfB.employee!,
      },
    );
    assert.equal(approved.body.proposal.outcome.error_code, 'ORDER_NOT_FOUND', JSON.stringify(approved.body));
    assert.notEqual((await orderAsA()).status, 'CANCELLED');
  },
  list_pending_approvals: async () => {
    const id = await pendingProposalOfA();
    const answer = await api.get('/api/v1/agent/approvals', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.proposals.every((proposal: { id: number }) => proposal.id !== id));
  },
  approve_pending_write: proposalOfAStaysPending('approve'),
  reject_pending_write: proposalOfAStaysPending('reject'),
  set_platform_module: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      const answer = await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
        token: tokensOfB[kind],
        body: { available: false },
      });
      assert.equal(answer.status, 403, kind);
    }
    assert.equal((await api.get('/api/v1/broker-order-assignments', { token: tokenOfA })).status, 200);
  },
  set_business_module: async () => {
    const answer = await api.call(
      'PUT',
      `/api/v1/platform/businesses/${a.businessId}/modules/contractor_assignment`,
      {
        token: adminOfB(),
        body: { enabled: false },
      },
    );
    assert.equal(answer.status, 403);
    const me = await api.get('/api/v1/user/me', { token: tokenOfA });
    assert.equal(me.body.business.modules.contractor_assignment, true);
  },
  create_tracking_provider: async () => {
    const answer = await api.post(
      '/api/v1/client/otep/providers',
      { name: 'B pusher' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    const pushed = await pushToA(answer.body.provider.key);
    assert.equal(pushed.status, 422);
  },
  get_tracking_providers: async () => {
    const answer = await api.get('/api/v1/client/otep/providers', { token: adminOfB() });
    assert.ok(answer.body.providers.every((p: { id: number }) => p.id !== providerOfA.id));
  },
  revoke_tracking_provider: async () => {
    const answer = await api.post(
      `/api/v1/client/otep/providers/${providerOfA.id}/revoke`,
      {},
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404);
    assert.equal((await pushToA(providerOfA.key)).status, 200, "A's own key still works");
  },
  otep_ingest: async () => {
    const before = await eventsOfA();
    const answer = await pushToA(providerKeyOfB);
    assert.equal(answer.status, 422);
    assert.equal(answer.body.details.errors[0].code, 'unknown_tracking_number');
    assert.equal(await eventsOfA(), before);
  },
  otep_ingest_epcis: async () => {
    const before = await eventsOfA();
    const epcis = (await api.get(`/api/v1/otep/trackings/${orderOfA.tracking_number}?format=epcis`)).body
      .data;
    const answer = await api.post('/api/v1/otep/ingest/epcis', epcis, {
      headers: { 'x-otep-provider-key': providerKeyOfB },
    });
    assert.equal(answer.status, 422);
    assert.equal(await eventsOfA(), before);
  },
  set_customer_price_visibility: async () => {
    const answer = await api.call('PUT', `/api/v1/client/customers/${a.userIds.customer}/price-visibility`, {
      token: adminOfB(),
      body: { hidden: { local_delivery: true } },
    });
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  get_customer_price_visibility: async () => {
    const answer = await api.get(`/api/v1/client/customers/${a.userIds.customer}/price-visibility`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 422);
  },
  get_customer_settings: async () => {
    const answer = await api.get('/api/v1/customer/settings', { token: tokensOfB.customer });
    assert.equal(answer.body.customer_id, b.userIds.customer);
  },
  pay_order: async () => {
    for (const token of [adminOfB(), tokensOfB.customer!]) {
      const answer = await api.post(
        `/api/v1/payments/orders/${orderOfA.id}`,
        { method: 'card', card_token: 'tok_visa' },
        { token },
      );
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    }
  },
  add_account_credit: async () => {
    const answer = await api.post(
      `/api/v1/client/customers/${a.userIds.customer}/credits`,
      { amount: 100, currency: 'EUR', reason: 'gift' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  get_account_credits: async () => {
    const answer = await api.get('/api/v1/customer/credits', { token: tokensOfB.customer });
    assert.deepEqual(answer.body.ledger, []);
  },
  get_webhook_settings: async () => {
    const foreign = await api.get(`/api/v1/webhook-settings?customer_id=${a.userIds.customer}`, {
      token: adminOfB(),
    });
    assert.equal(foreign.status, 422);
    const own = await api.get('/api/v1/webhook-settings', { token: adminOfB() });
    assert.equal(own.body.urls['order.created'], '');
  },
  update_webhook_settings: async () => {
    const answer = await api.call('PUT', '/api/v1/webhook-settings', {
      token: adminOfB(),
      body: { customer_id: a.userIds.customer, urls: { 'order.created': 'https://b.example/hook' } },
    });
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
  },
  save_identity_provider: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      const answer = await api.call('PUT', '/api/v1/platform/identity-providers/google', {
        token: tokensOfB[kind],
        body: { preset: 'google' },
      });
      assert.equal(answer.status, 403, kind);
    }
  },
  get_identity_providers: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      assert.equal(
        (await api.get('/api/v1/platform/identity-providers', { token: tokensOfB[kind] })).status,
        403,
      );
    }
  },
  save_app: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      const answer = await api.call('PUT', `/api/v1/platform/apps/${appOfA}`, {
        token: tokensOfB[kind],
        body: { name: 'Taken over', type: 'customer', schema_version: 1, allowed_roles: ['customer'] },
      });
      assert.equal(answer.status, 403, kind);
    }
  },
  get_apps: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      assert.equal((await api.get('/api/v1/platform/apps', { token: tokensOfB[kind] })).status, 403);
    }
  },
  save_app_assignment: async () => {
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
      const answer = await api.call('PUT', `/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
        token: tokensOfB[kind],
        body: { enabled: false },
      });
      assert.equal(answer.status, 403, kind);
    }
    assert.equal((await api.get(`/api/v1/apps/${appOfA}/clients/${a.code}/bootstrap`)).status, 200);
  },
  get_app_assignment: async () => {
    const answer = await api.get(`/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'APP_NOT_FOUND');
    const own = await api.get(`/api/v1/platform/apps/${appOfA}/clients/${a.code}`, { token: tokenOfA });
    assert.equal(own.status, 200);
  },
  get_app_assignments: async () => {
    const answer = await api.get('/api/v1/platform/app-assignments', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.assignments.every((row: { client_code: string }) => row.client_code !== a.code));
  },
  get_webhook_delivery_logs: async () => {
    const answer = await api.get('/api/v1/webhook-deliveries', { token: adminOfB() });
    assert.ok(answer.body.deliveries.every((d: { id: number }) => d.id !== deliveryOfA));
  },
  replay_webhook_delivery: async () => {
    const answer = await api.post(
      `/api/v1/webhook-deliveries/${deliveryOfA}/replay`,
      {},
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'WEBHOOK_DELIVERY_NOT_FOUND');
  },
  test_webhook_delivery: async () => {
    // B has no settings of its own: A's secret is never used for B's test.
    const answer = await api.post(
      '/api/v1/webhook-settings/test',
      { url: 'https://b.example/hook' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error_code, 'WEBHOOK_SECRET_MISSING');
  },
  get_operation_events: async () => {
    const answer = await api.post(
      '/api/v1/tracking/operationevents',
      { order_ids: [orderOfA.id] },
      { token: adminOfB() },
    );
    assert.deepEqual(answer.body.events, []);
  },
  get_me: async () => {
    for (const kind of ACCOUNT_KINDS) {
      const me = await api.get('/api/v1/user/me', { token: tokensOfB[kind] });
      assert.equal(me.status, 200);
      assert.equal(me.body.user.id, b.userIds[kind]);
      const text = JSON.stringify(me.body);
      assert.ok(!text.includes(a.code), `${kind} of B sees business A: ${text}`);
      assert.ok(!text.includes(`@${a.code}.test`), `${kind} of B sees an account of A`);
    }
  },
  logout: async () => {
    const tokenOfA = await login(api, a.emails.client_admin);
    const spare = await login(api, b.emails.client_admin);
    assert.equal((await api.post('/api/v1/user/logout', {}, { token: spare })).status, 200);
    assert.equal((await api.get('/api/v1/user/me', { token: tokenOfA })).status, 200);
  },
};
