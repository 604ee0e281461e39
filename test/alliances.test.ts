import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { z } from 'zod';
import { defineOperation } from '../src/platform/catalog/operation.ts';
import { Catalog } from '../src/platform/catalog/registry.ts';
import { alliedBusinessParam } from '../src/platform/schemas.ts';
import {
  createTenant,
  DROPOFF,
  deliverWithProof,
  issuedToken,
  login,
  type Tenant,
} from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Alliances: the member state machine and its refusals, and the grants at work across businesses,
 * checked in both directions: A grants B, B grants A nothing, C stays outside.
 */
describe('alliances', () => {
  let server: TestServer;
  let api: Client;
  let a: Tenant;
  let b: Tenant;
  let c: Tenant;
  const tokens: Record<string, string> = {};
  let orderOfA: { id: number; tracking_number: string };
  let orderOfB: { id: number; tracking_number: string };

  const v1 = '/api/v1/client';
  const refused = (answer: Answer, status: number, code: string) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.result, false);
    assert.equal(answer.body.error_code, code);
    assert.equal(typeof answer.body.message, 'string');
  };
  const ok = (answer: Answer) => {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const create = (name: string, token = tokens.adminA) => api.post(`${v1}/alliances`, { name }, { token });
  const invite = (id: number, code: string, token = tokens.adminA) =>
    api.post(`${v1}/alliances/${id}/invitations`, { business_code: code }, { token });
  const accept = (id: number, token: string) => api.post(`${v1}/alliances/${id}/accept`, {}, { token });
  const grant = (id: number, grants: Record<string, boolean>, token = tokens.adminA) =>
    api.call('PATCH', `${v1}/alliances/${id}/grants`, { token, body: grants });
  const detail = (number: string, token: string) => api.get(`${v1}/trackings/${number}`, { token });
  const accessible = async (token: string) =>
    ok(await api.get(`${v1}/accessible-clients`, { token })).clients as Array<{
      business_code: string;
      grants: Record<string, boolean>;
    }>;
  /** An alliance of A with B as an active member, A granting what is asked. */
  const allianceOfAAndB = async (grants: Record<string, boolean>) => {
    const id = ok(await create('A and B')).alliance.id;
    ok(await invite(id, b.code));
    ok(await accept(id, tokens.adminB!));
    ok(await grant(id, grants));
    return id;
  };
  const dissolve = (id: number) => api.call('DELETE', `${v1}/alliances/${id}`, { token: tokens.adminA });
  const tokenWith = async (tenant: Tenant, scopes: string[]) =>
    await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      scopes,
    });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    a = await createTenant(server.db, server.app.services, 'ally-a');
    b = await createTenant(server.db, server.app.services, 'ally-b');
    c = await createTenant(server.db, server.app.services, 'ally-c');
    for (const [name, tenant] of [
      ['A', a],
      ['B', b],
      ['C', c],
    ] as const) {
      tokens[`admin${name}`] = await login(api, tenant.emails.client_admin);
      tokens[`employee${name}`] = await login(api, tenant.emails.employee);
      tokens[`customer${name}`] = await login(api, tenant.emails.customer);
      tokens[`driver${name}`] = await login(api, tenant.emails.driver);
      tokens[`contractor${name}`] = await login(api, tenant.emails.contractor);
    }
    const order = async (token: string) => {
      const created = await api.post(
        `${v1}/orderCreate`,
        { dropoff: DROPOFF, currency: 'EUR', shipping_price: '12.50' },
        { token },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await deliverWithProof(api, token, server.clock, created.body.order_id);
      return { id: created.body.order_id as number, tracking_number: created.body.tracking_number as string };
    };
    orderOfA = await order(tokens.adminA!);
    orderOfB = await order(tokens.adminB!);
  });
  after(() => server.close());

  it('walks the member states, refusing what a state does not allow', async () => {
    const created = ok(await create('Paris network'));
    const id = created.alliance.id;
    assert.equal(created.alliance.my_role, 'owner');
    assert.equal(created.alliance.my_state, 'active');
    assert.equal(created.alliance.member_count, 1);
    assert.deepEqual(created.alliance.my_grants, {
      track_packages: false,
      see_orders: false,
      hand_over_orders: false,
    });
    const renamed = ok(
      await api.call('PATCH', `${v1}/alliances/${id}`, {
        token: tokens.adminA,
        body: { name: 'Île-de-France' },
      }),
    );
    assert.equal(renamed.alliance.name, 'Île-de-France');

    // Invitations: by code; twice, to a member, or to an unknown code, refused.
    assert.equal(ok(await invite(id, b.code)).invitation.state, 'invited');
    refused(await invite(id, b.code), 409, 'ALLIANCE_ALREADY_INVITED');
    refused(await invite(id, a.code), 409, 'ALLIANCE_ALREADY_MEMBER');
    refused(await invite(id, 'no-such-business'), 404, 'BUSINESS_NOT_FOUND');

    // The invited business sees the invitation, may not act as a member yet.
    const mine = ok(await api.get(`${v1}/alliances`, { token: tokens.adminB }));
    assert.deepEqual(
      mine.alliances.map((x: { id: number; my_state: string; my_role: string }) => [
        x.id,
        x.my_state,
        x.my_role,
      ]),
      [[id, 'invited', 'member']],
    );
    refused(await grant(id, { track_packages: true }, tokens.adminB), 409, 'ALLIANCE_INVITATION_PENDING');
    refused(
      await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminB }),
      409,
      'ALLIANCE_INVITATION_PENDING',
    );
    // Client admins speak for their business; an employee reads only.
    refused(await accept(id, tokens.employeeB!), 403, 'FORBIDDEN');
    assert.equal(
      ok(await api.get(`${v1}/alliances/${id}`, { token: tokens.employeeB })).alliance.my_state,
      'invited',
    );
    const accepted = ok(await accept(id, tokens.adminB!));
    assert.equal(accepted.alliance.my_state, 'active');
    assert.equal(accepted.alliance.member_count, 2);
    refused(await accept(id, tokens.adminB!), 409, 'ALLIANCE_ALREADY_MEMBER');
    refused(
      await api.post(`${v1}/alliances/${id}/decline`, {}, { token: tokens.adminB }),
      409,
      'ALLIANCE_NOT_INVITED',
    );

    // Owner-only changes, and the owner does not leave while others remain.
    refused(
      await api.call('PATCH', `${v1}/alliances/${id}`, { token: tokens.adminB, body: { name: 'Mine now' } }),
      403,
      'ALLIANCE_OWNER_ONLY',
    );
    refused(await invite(id, c.code, tokens.adminB), 403, 'ALLIANCE_OWNER_ONLY');
    refused(
      await api.call('DELETE', `${v1}/alliances/${id}`, { token: tokens.adminB }),
      403,
      'ALLIANCE_OWNER_ONLY',
    );
    refused(
      await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminA }),
      409,
      'ALLIANCE_OWNER_CANNOT_LEAVE',
    );
    refused(
      await api.call('DELETE', `${v1}/alliances/${id}/members/${a.code}`, { token: tokens.adminA }),
      409,
      'ALLIANCE_OWNER_CANNOT_LEAVE',
    );
    refused(
      await api.call('DELETE', `${v1}/alliances/${id}/members/${c.code}`, { token: tokens.adminA }),
      404,
      'ALLIANCE_MEMBER_NOT_FOUND',
    );

    // C, invited, declines; outside, it does not see the alliance at all.
    ok(await invite(id, c.code));
    assert.equal(
      ok(await api.post(`${v1}/alliances/${id}/decline`, {}, { token: tokens.adminC })).state,
      'declined',
    );
    refused(await api.get(`${v1}/alliances/${id}`, { token: tokens.adminC }), 404, 'ALLIANCE_NOT_FOUND');
    refused(
      await api.get(`${v1}/alliances/${id}/members`, { token: tokens.adminC }),
      404,
      'ALLIANCE_NOT_FOUND',
    );
    refused(await accept(id, tokens.adminC!), 404, 'ALLIANCE_NOT_FOUND');
    refused(
      await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminC }),
      404,
      'ALLIANCE_NOT_FOUND',
    );
    refused(await grant(id, { see_orders: true }, tokens.adminC), 404, 'ALLIANCE_NOT_FOUND');
    assert.equal(ok(await api.get(`${v1}/alliances`, { token: tokens.adminC })).total, 0);

    // The members, with what each grants.
    ok(await grant(id, { see_orders: true }, tokens.adminB));
    const members = ok(await api.get(`${v1}/alliances/${id}/members`, { token: tokens.employeeA }));
    assert.equal(members.total, 2);
    assert.deepEqual(
      members.members.map(
        (m: { business_code: string; role: string; state: string; grants: { see_orders: boolean } }) => [
          m.business_code,
          m.role,
          m.state,
          m.grants.see_orders,
        ],
      ),
      [
        [a.code, 'owner', 'active', false],
        [b.code, 'member', 'active', true],
      ],
    );

    // B leaves; the owner, alone, leaving dissolves it.
    assert.equal(
      ok(await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminB })).state,
      'left',
    );
    assert.equal(
      ok(await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminA })).state,
      'dissolved',
    );
    refused(await api.get(`${v1}/alliances/${id}`, { token: tokens.adminA }), 404, 'ALLIANCE_NOT_FOUND');
  });

  it('lets the owner remove a member and dissolve the alliance, ending every grant', async () => {
    const id = await allianceOfAAndB({ track_packages: true, see_orders: true });
    assert.deepEqual(
      (await accessible(tokens.adminB!)).map((x) => x.business_code),
      [a.code],
    );
    const removed = ok(
      await api.call('DELETE', `${v1}/alliances/${id}/members/${b.code}`, { token: tokens.adminA }),
    );
    assert.equal(removed.state, 'removed');
    assert.deepEqual(await accessible(tokens.adminB!), []);
    ok(await invite(id, b.code));
    ok(await accept(id, tokens.adminB!));
    // A new membership starts with nothing granted: A grants again, then dissolves.
    ok(await grant(id, { track_packages: true }));
    assert.deepEqual(
      (await accessible(tokens.adminB!)).map((x) => x.business_code),
      [a.code],
    );
    assert.equal(ok(await dissolve(id)).state, 'dissolved');
    assert.deepEqual(await accessible(tokens.adminB!), []);
    assert.equal((await detail(orderOfA.tracking_number, tokens.adminB!)).body.view, 'public');
  });

  it('shows an ally the full tracking of the granting business only, and only while granted', async () => {
    const id = ok(await create('Tracking partners')).alliance.id;
    ok(await invite(id, b.code));
    // Its own numbers, a business sees in full; another's, as the public does.
    const own = ok(await detail(orderOfA.tracking_number, tokens.employeeA!));
    assert.equal(own.view, 'own');
    const full = own.timeline;
    const delivered = full.events.find((e: { status_code: string }) => e.status_code === 'delivered');
    assert.equal(delivered.pod.recipient, 'Léa Martin');
    assert.equal(delivered.location.lat, DROPOFF.lat);
    const publicOnly = (answer: Answer) => {
      const body = ok(answer);
      assert.equal(body.view, 'public');
      const event = body.timeline.events.find((e: { status_code: string }) => e.status_code === 'delivered');
      assert.equal(event.pod.recipient, 'Léa M.');
      assert.equal(event.location.lat, undefined);
      assert.doesNotMatch(JSON.stringify(body), /\+33|Rivoli|Léa Martin/);
    };
    // Invited, not accepted: nothing, even with A's grant in place.
    ok(await grant(id, { track_packages: true }));
    publicOnly(await detail(orderOfA.tracking_number, tokens.adminB!));
    assert.deepEqual(await accessible(tokens.adminB!), []);

    ok(await accept(id, tokens.adminB!));
    const allied = ok(await detail(orderOfA.tracking_number, tokens.employeeB!));
    assert.equal(allied.view, 'allied');
    assert.deepEqual(allied.timeline, full);
    assert.deepEqual(await accessible(tokens.employeeB!), [
      {
        business_id: a.businessId,
        business_code: a.code,
        business_name: `Business ${a.code}`,
        grants: { track_packages: true, see_orders: false, hand_over_orders: false },
        alliances: [{ id, name: 'Tracking partners' }],
      },
    ]);
    // The other direction: B granted nothing.
    publicOnly(await detail(orderOfB.tracking_number, tokens.adminA!));
    assert.deepEqual(await accessible(tokens.adminA!), []);
    // A third business outside the alliance.
    publicOnly(await detail(orderOfA.tracking_number, tokens.adminC!));

    // Tokens: the ally's agent needs alliance:read besides orders:read for the full view.
    publicOnly(await detail(orderOfA.tracking_number, await tokenWith(b, ['orders:read'])));
    assert.equal(
      ok(await detail(orderOfA.tracking_number, await tokenWith(b, ['orders:read', 'alliance:read']))).view,
      'allied',
    );
    refused(
      await detail(orderOfA.tracking_number, await tokenWith(b, ['alliance:read'])),
      403,
      'INSUFFICIENT_SCOPE',
    );
    refused(await detail(orderOfA.tracking_number, tokens.customerB!), 403, 'FORBIDDEN');
    refused(await detail('NO-SUCH-NUMBER', tokens.adminB!), 404, 'TRACKING_NOT_FOUND');

    // Withdrawn: at once.
    ok(await grant(id, { track_packages: false }));
    publicOnly(await detail(orderOfA.tracking_number, tokens.adminB!));
    ok(await grant(id, { track_packages: true }));
    assert.equal(ok(await detail(orderOfA.tracking_number, tokens.adminB!)).view, 'allied');
    // Left: at once.
    ok(await api.post(`${v1}/alliances/${id}/leave`, {}, { token: tokens.adminB }));
    publicOnly(await detail(orderOfA.tracking_number, tokens.adminB!));
    ok(await dissolve(id));
  });

  it("lets an ally read the granting business's orders, read-only and without prices", async () => {
    const id = await allianceOfAAndB({ track_packages: true });
    const ordersOfA = (token: string, query = '') =>
      api.get(`${v1}/orders?business_id=${a.businessId}${query}`, { token });
    // Tracking shared, orders not.
    refused(await ordersOfA(tokens.adminB!), 403, 'CLIENT_NOT_ACCESSIBLE');
    ok(await grant(id, { see_orders: true }));

    const list = ok(await ordersOfA(tokens.employeeB!));
    assert.deepEqual(
      list.orders.map((order: { id: number }) => order.id),
      [orderOfA.id],
    );
    const seen = list.orders[0];
    assert.equal(seen.shipping_price, undefined);
    assert.equal(seen.price_hidden, true);
    const asOwner = ok(await api.get(`${v1}/orders/${orderOfA.id}`, { token: tokens.adminA }));
    assert.equal(asOwner.order.shipping_price, 12.5);
    const one = ok(
      await api.get(`${v1}/orders/${orderOfA.id}?business_id=${a.businessId}`, { token: tokens.adminB }),
    );
    assert.equal(one.order.id, orderOfA.id);
    assert.equal(one.order.shipping_price, undefined);
    const found = ok(
      await api.get(
        `${v1}/orders/find?tracking_number=${orderOfA.tracking_number}&business_id=${a.businessId}`,
        {
          token: tokens.adminB,
        },
      ),
    );
    assert.equal(found.order.id, orderOfA.id);
    // Without naming A, B reads its own orders only.
    refused(await api.get(`${v1}/orders/${orderOfA.id}`, { token: tokens.adminB }), 404, 'ORDER_NOT_FOUND');

    // Every write with B's token on A's order is refused, and changes nothing.
    const before = JSON.stringify(asOwner.order);
    const writes: Array<[string, string, unknown]> = [
      ['POST', `${v1}/orders/${orderOfA.id}/status`, { status: 'RETURNED', business_id: a.businessId }],
      ['POST', `${v1}/orders/${orderOfA.id}/note`, { note: 'mine', business_id: a.businessId }],
      [
        'POST',
        `${v1}/orders/${orderOfA.id}/delivery-instruction`,
        { delivery_instruction: 'x', business_id: a.businessId },
      ],
      [
        'POST',
        `${v1}/orders/${orderOfA.id}/reroute`,
        { dropoff: { line1: '1 B street' }, business_id: a.businessId },
      ],
    ];
    for (const [method, path, body] of writes) {
      // A write names no business: one that does is refused, rather than run in the caller's own.
      const naming = await api.call(method, path, { token: tokens.adminB, body });
      refused(naming, 422, 'VALIDATION_FAILED');
      assert.deepEqual(
        naming.body.details.fields.map((problem: { field: string }) => problem.field),
        ['business_id'],
      );
      // It acts in the caller's own business, where A's order is not found.
      const { business_id: _named, ...own } = body as Record<string, unknown>;
      refused(await api.call(method, path, { token: tokens.adminB, body: own }), 404, 'ORDER_NOT_FOUND');
    }
    assert.equal(
      JSON.stringify(ok(await api.get(`${v1}/orders/${orderOfA.id}`, { token: tokens.adminA })).order),
      before,
    );

    // Who may read: staff with alliance:read; not customers, not a narrower token, not C, not A of B.
    refused(await ordersOfA(tokens.customerB!), 403, 'CLIENT_NOT_ACCESSIBLE');
    refused(await ordersOfA(await tokenWith(b, ['orders:read'])), 403, 'INSUFFICIENT_SCOPE');
    ok(await ordersOfA(await tokenWith(b, ['orders:read', 'alliance:read'])));
    refused(await ordersOfA(tokens.adminC!), 403, 'CLIENT_NOT_ACCESSIBLE');
    refused(
      await api.get(`${v1}/orders?business_id=999999`, { token: tokens.adminB }),
      403,
      'CLIENT_NOT_ACCESSIBLE',
    );
    refused(
      await api.get(`${v1}/orders?business_id=${b.businessId}`, { token: tokens.adminA }),
      403,
      'CLIENT_NOT_ACCESSIBLE',
    );
    refused(
      await api.get(`${v1}/orders/${orderOfB.id}?business_id=${b.businessId}`, { token: tokens.adminA }),
      403,
      'CLIENT_NOT_ACCESSIBLE',
    );

    // Withdrawn: at once.
    ok(await grant(id, { see_orders: false }));
    refused(await ordersOfA(tokens.adminB!), 403, 'CLIENT_NOT_ACCESSIBLE');
    ok(await dissolve(id));
  });

  it('refuses the wrong account kind, a missing scope and bad input', async () => {
    for (const kind of ['customer', 'driver', 'contractor'] as const) {
      refused(await api.get(`${v1}/alliances`, { token: tokens[`${kind}A`] }), 403, 'FORBIDDEN');
    }
    refused(await create('By an employee', tokens.employeeA), 403, 'FORBIDDEN');
    // alliance-readonly reads alliances, writes none; ops-readonly reads none.
    const readonly = await issuedToken(server, {
      userId: a.userIds.client_admin,
      kind: 'agent',
      profile: 'alliance-readonly',
    });
    ok(await api.get(`${v1}/alliances`, { token: readonly }));
    ok(await api.get(`${v1}/accessible-clients`, { token: readonly }));
    refused(await create('Read-only', readonly), 403, 'INSUFFICIENT_SCOPE');
    const ops = await tokenWith(a, ['orders:read', 'orders:write']);
    refused(await api.get(`${v1}/alliances`, { token: ops }), 403, 'INSUFFICIENT_SCOPE');
    refused(await create('', tokens.adminA), 422, 'VALIDATION_FAILED');
    const bad = await api.get(`${v1}/alliances/not-a-number`, { token: tokens.adminA });
    refused(bad, 422, 'VALIDATION_FAILED');
    assert.ok(bad.body.details);
    refused(await grant(1, { track_packages: 'yes' } as never), 422, 'VALIDATION_FAILED');
    refused(await invite(1, ''), 422, 'VALIDATION_FAILED');
    refused(await api.get(`${v1}/alliances`), 401, 'UNAUTHENTICATED');
  });

  it('answers over GraphQL, with the same grants and refusals', async () => {
    const graphql = (token: string) =>
      new GraphQLClient(`${server.baseUrl}/api/graphql`, { headers: { authorization: `Bearer ${token}` } });
    const created = await graphql(tokens.adminA!).request<{ createAlliance: { alliance: { id: number } } }>(
      gql`
        mutation {
          createAlliance(name: "Over GraphQL") {
            alliance {
              id
            }
          }
        }
      `,
    );
    const id = created.createAlliance.alliance.id;
    ok(await invite(id, b.code));
    await graphql(tokens.adminB!).request(
      gql`
        mutation ($id: Int!) {
          acceptAllianceInvitation(alliance_id: $id) {
            alliance {
              my_state
            }
          }
        }
      `,
      { id },
    );
    const DETAIL = gql`
      query ($n: String!) {
        trackingDetail(tracking_number: $n) {
          view
        }
      }
    `;
    const viewOf = async (token: string, n: string) =>
      (await graphql(token).request<{ trackingDetail: { view: string } }>(DETAIL, { n })).trackingDetail.view;
    assert.equal(await viewOf(tokens.adminB!, orderOfA.tracking_number), 'public');
    await graphql(tokens.adminA!).request(
      gql`
        mutation ($id: Int!) {
          setAllianceGrants(alliance_id: $id, track_packages: true, see_orders: true) {
            alliance {
              my_grants {
                track_packages
                see_orders
              }
            }
          }
        }
      `,
      { id },
    );
    assert.equal(await viewOf(tokens.adminB!, orderOfA.tracking_number), 'allied');
    assert.equal(await viewOf(tokens.adminA!, orderOfB.tracking_number), 'public');
    const reads = await graphql(tokens.adminB!).request<{
      alliances: { total: number; alliances: Array<{ name: string; member_count: number }> };
      allianceMembers: { members: Array<{ business_code: string }> };
      accessibleClients: { clients: Array<{ business_code: string; grants: { see_orders: boolean } }> };
      orders: { orders: Array<{ id: number; shipping_price: number | null }> };
    }>(
      gql`
        query ($id: Int!, $a: Int!) {
          alliances {
            total
            alliances {
              name
              member_count
            }
          }
          allianceMembers(alliance_id: $id) {
            members {
              business_code
            }
          }
          accessibleClients {
            clients {
              business_code
              grants {
                see_orders
              }
            }
          }
          orders(business_id: $a) {
            orders {
              id
              shipping_price
            }
          }
        }
      `,
      { id, a: a.businessId },
    );
    assert.deepEqual(reads.alliances.alliances, [{ name: 'Over GraphQL', member_count: 2 }]);
    assert.deepEqual(
      reads.allianceMembers.members.map((m) => m.business_code),
      [a.code, b.code],
    );
    assert.deepEqual(reads.accessibleClients.clients, [
      { business_code: a.code, grants: { see_orders: true } },
    ]);
    assert.deepEqual(reads.orders.orders, [{ id: orderOfA.id, shipping_price: null }]);

    const refusal = async (token: string, document: string, variables?: Record<string, unknown>) => {
      try {
        await graphql(token).request(document, variables);
      } catch (error) {
        assert.ok(error instanceof ClientError, String(error));
        return error.response.errors?.[0]?.extensions?.error_code;
      }
      assert.fail('expected a GraphQL refusal');
    };
    const ORDERS_OF = 'query ($b: Int!) { orders(business_id: $b) { total } }';
    assert.equal(await refusal(tokens.adminA!, ORDERS_OF, { b: b.businessId }), 'CLIENT_NOT_ACCESSIBLE');
    assert.equal(await refusal(tokens.adminC!, ORDERS_OF, { b: a.businessId }), 'CLIENT_NOT_ACCESSIBLE');
    assert.equal(
      await refusal(tokens.adminC!, 'query ($id: Int!) { alliance(alliance_id: $id) { alliance { id } } }', {
        id,
      }),
      'ALLIANCE_NOT_FOUND',
    );
    assert.equal(
      await refusal(tokens.adminB!, 'mutation ($id: Int!) { dissolveAlliance(alliance_id: $id) { state } }', {
        id,
      }),
      'ALLIANCE_OWNER_ONLY',
    );
    assert.equal(
      await refusal(tokens.employeeA!, 'mutation { createAlliance(name: "x") { result } }'),
      'FORBIDDEN',
    );
    assert.equal(
      await refusal(tokens.adminA!, 'mutation { createAlliance(name: "") { result } }'),
      'VALIDATION_FAILED',
    );
    assert.equal(
      await refusal(await tokenWith(a, ['orders:read']), 'query { alliances { total } }'),
      'INSUFFICIENT_SCOPE',
    );
    // Revoked over GraphQL: B's next read is refused.
    await graphql(tokens.adminA!).request(
      'mutation ($id: Int!) { setAllianceGrants(alliance_id: $id, see_orders: false) { result } }',
      { id },
    );
    assert.equal(await refusal(tokens.adminB!, ORDERS_OF, { b: a.businessId }), 'CLIENT_NOT_ACCESSIBLE');
    ok(await dissolve(id));
  });

  it('offers the four read tools to agents, within the connection scopes', async () => {
    const id = await allianceOfAAndB({ track_packages: true });
    const connect = async (headers: Record<string, string>) => {
      const mcp = new McpClient({ name: 'alliance-test', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers } }),
      );
      return mcp;
    };
    const call = async (mcp: McpClient, name: string, args: Record<string, unknown> = {}) =>
      (await mcp.callTool({ name, arguments: args })) as CallToolResult & {
        structuredContent: Record<string, unknown> & { clients?: Array<{ business_code: string }> };
      };
    const agent = await connect({
      authorization: `Bearer ${tokens.adminB}`,
      'x-mcp-profile': 'alliance-readonly',
    });
    try {
      const names = (await agent.listTools()).tools.map((tool) => tool.name);
      for (const name of [
        'list_alliances',
        'get_alliance',
        'list_alliance_members',
        'list_accessible_clients',
      ]) {
        assert.ok(names.includes(name), name);
      }
      const shared = await call(agent, 'list_accessible_clients');
      assert.deepEqual(
        shared.structuredContent.clients?.map((client) => client.business_code),
        [a.code],
      );
      assert.equal(
        (await call(agent, 'get_alliance', { alliance_id: id })).structuredContent.alliance !== undefined,
        true,
      );
      // The ally's orders are out of an alliance-only connection's reach.
      const orders = await call(agent, 'get_orders', { business_id: a.businessId });
      assert.equal(orders.isError, true);
      assert.equal(orders.structuredContent.error_code, 'SCOPE_REQUIRED');
    } finally {
      await agent.close();
    }
    const outsider = await connect({ authorization: `Bearer ${tokens.adminC}` });
    try {
      const refusedGet = await call(outsider, 'get_alliance', { alliance_id: id });
      assert.equal(refusedGet.isError, true);
      assert.equal(refusedGet.structuredContent.error_code, 'ALLIANCE_NOT_FOUND');
      const narrowed = await connect({
        authorization: `Bearer ${tokens.adminC}`,
        'x-mcp-profile': 'ops-readonly',
      });
      const noScope = await call(narrowed, 'list_alliances');
      assert.equal(noScope.structuredContent.error_code, 'SCOPE_REQUIRED');
      await narrowed.close();
    } finally {
      await outsider.close();
    }
    ok(await dissolve(id));
  });

  it('keeps allied access to reads: the catalog refuses it on a mutation', () => {
    const operation = (kind: 'query' | 'mutation') =>
      defineOperation({
        name: `allied_${kind}`,
        summary: 'x',
        tag: 'Orders',
        kind,
        risk: 'low',
        access: {
          kinds: ['client_admin'],
          scopes: ['orders:write'],
          business: 'acting',
          allied: { grant: 'see_orders', kinds: ['client_admin'], scopes: ['alliance:read'] },
        },
        input: z.object({ business_id: alliedBusinessParam }),
        output: z.object({}),
        handler: async () => ({}),
      });
    assert.throws(() => new Catalog().register([operation('mutation')]), /access.allied is for queries/);
    new Catalog().register([operation('query')]);
  });
});
