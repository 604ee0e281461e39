import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { engageSecondContractor } from './support/contractors.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ASSIGN = gql`
  mutation Assign($orderIds: [Int!]!, $brokerId: Int!, $note: String) {
    assignOrdersToBroker(order_ids: $orderIds, broker_id: $brokerId, note: $note) {
      result
      assigned
      skipped
      errors {
        order_id
        message
      }
    }
  }
`;
const LIST = gql`
  query List($status: BrokerOrderAssignmentsStatusInput) {
    brokerOrderAssignments(status: $status) {
      total
      assignments {
        id
        order_id
        order_ref
        broker_id
        status
        note
        assigned_at
        end_reason
      }
    }
  }
`;
const REVOKE = gql`
  mutation Revoke($orderIds: [Int!]!, $reason: String) {
    revokeBrokerOrderAssignments(order_ids: $orderIds, reason: $reason) {
      result
      revoked
      skipped
      errors {
        order_id
        message
      }
    }
  }
`;
const RELEASE = gql`
  mutation Release($orderId: Int!) {
    releaseBrokerOrderAssignment(order_id: $orderId) {
      result
      message
    }
  }
`;

/** The error code of a refused GraphQL request. */
async function refusedWith(request: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ClientError, String(error));
    const [first] = error.response.errors ?? [];
    return { code: String(first?.extensions?.error_code), message: String(first?.message) };
  }
  assert.fail('expected a GraphQL error');
}

describe('broker order assignments through GraphQL', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  const gqlAs = (token: string, lang = 'en') =>
    new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
    });
  let admin: GraphQLClient;
  let contractor: GraphQLClient;
  const ids: number[] = [];

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'gqlassign');
    const adminToken = await login(api, tenant.emails.client_admin);
    admin = gqlAs(adminToken);
    contractor = gqlAs(await login(api, tenant.emails.contractor));
    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: [
          { order_ref: 'G-1', dropoff: { line1: 'a' } },
          { order_ref: 'G-2', dropoff: { line1: 'b' } },
          { order_ref: 'G-SHIP', family: 'shipping_service', dropoff: { line1: 'c' } },
          { order_ref: 'G-OTHER', dropoff: { line1: 'd' } },
        ],
      },
      { token: adminToken },
    );
    ids.push(...created.body.orders.map((o: { id: number }) => o.id));
  });
  after(() => server.close());

  it('answers MODULE_UNAVAILABLE and MODULE_DISABLED until the platform and the business turn it on', async () => {
    assert.equal((await refusedWith(admin.request(LIST))).code, 'MODULE_UNAVAILABLE');
    assert.equal(
      (await refusedWith(admin.request(ASSIGN, { orderIds: [ids[0]], brokerId: tenant.userIds.contractor })))
        .code,
      'MODULE_DISABLED',
    );
    const platform = gqlAs(await login(api, tenant.emails.platform_admin));
    await platform.request(
      gql`mutation { setPlatformModule(module: contractor_assignment, available: true) { available } }`,
    );
    assert.equal((await refusedWith(admin.request(LIST))).code, 'MODULE_DISABLED');
    const on = await platform.request<{ setBusinessModule: { enabled: boolean } }>(
      gql`mutation On($business: Int!) { setBusinessModule(business_id: $business, module: contractor_assignment, enabled: true) { enabled } }`,
      { business: tenant.businessId },
    );
    assert.equal(on.setBusinessModule.enabled, true);
  });

  it('assigns, lists, revokes and releases, with refusals in the caller language', async () => {
    const assigned = await gqlAs(await login(api, tenant.emails.client_admin), 'fr').request<{
      assignOrdersToBroker: {
        result: boolean;
        assigned: number;
        skipped: number;
        errors: Array<{ order_id: number; message: string }>;
      };
    }>(ASSIGN, { orderIds: [ids[0], ids[1], ids[2]], brokerId: tenant.userIds.contractor, note: 'GraphQL' });
    assert.deepEqual(
      { result: assigned.assignOrdersToBroker.result, assigned: assigned.assignOrdersToBroker.assigned },
      { result: true, assigned: 2 },
    );
    assert.deepEqual(assigned.assignOrdersToBroker.errors, [
      {
        order_id: ids[2],
        message: `La commande ${ids[2]} n'est pas une livraison assurée par l'entreprise.`,
      },
    ]);

    // One order goes to a second company's contractor: the contractor's list leaves it out.
    const other = await engageSecondContractor(server, api, tenant);
    const toOther = await admin.request<{ assignOrdersToBroker: { assigned: number } }>(ASSIGN, {
      orderIds: [ids[3]],
      brokerId: other.userId,
    });
    assert.equal(toOther.assignOrdersToBroker.assigned, 1);

    const listed = await contractor.request<{
      brokerOrderAssignments: {
        total: number;
        assignments: Array<{ order_ref: string; broker_id: number; note: string }>;
      };
    }>(LIST, { status: 'active' });
    assert.equal(listed.brokerOrderAssignments.total, 2);
    assert.ok(
      listed.brokerOrderAssignments.assignments.every((a) => a.broker_id === tenant.userIds.contractor),
    );

    const revoked = await admin.request<{ revokeBrokerOrderAssignments: { revoked: number } }>(REVOKE, {
      orderIds: [ids[0]],
      reason: 'Back home',
    });
    assert.equal(revoked.revokeBrokerOrderAssignments.revoked, 1);

    const released = await contractor.request<{
      releaseBrokerOrderAssignment: { result: boolean; message: string };
    }>(RELEASE, { orderId: ids[1] });
    assert.equal(released.releaseBrokerOrderAssignment.result, true);
    const again = await refusedWith(contractor.request(RELEASE, { orderId: ids[1] }));
    assert.equal(again.code, 'ORDER_NOT_ASSIGNED_TO_YOU');

    const history = await admin.request<{
      brokerOrderAssignments: { assignments: Array<{ status: string; end_reason: string | null }> };
    }>(LIST);
    assert.deepEqual(history.brokerOrderAssignments.assignments.map((a) => a.status).sort(), [
      'active',
      'released',
      'revoked',
    ]);
  });

  it('refuses contractors on admin operations and admins on release', async () => {
    assert.equal(
      (
        await refusedWith(
          contractor.request(ASSIGN, { orderIds: [ids[0]], brokerId: tenant.userIds.contractor }),
        )
      ).code,
      'FORBIDDEN',
    );
    assert.equal((await refusedWith(admin.request(RELEASE, { orderId: ids[0] }))).code, 'FORBIDDEN');
    const missingBroker = await refusedWith(admin.request(ASSIGN, { orderIds: [ids[0]], brokerId: 999_999 }));
    assert.equal(missingBroker.code, 'CONTRACTOR_NOT_FOUND');
  });
});
