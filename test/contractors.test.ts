import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { depotWithTwoFleets, engageSecondContractor } from './support/contractors.ts';
import { createTenant, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Contractor rule pools: a contractor company sees and plans only the orders its rules give it,
 * with its own drivers, while the business's staff keep the whole business in view.
 */
describe('contractor rule pools', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let contractor: string;
  let otherContractor: string;
  let otherCompany: number;
  let fleetDriver: number;
  let ownDriver: number;
  const ids: Record<string, number> = {};

  const DAY = '2026-11-04';
  const order = (ref: string, postal: string, extra: Record<string, unknown> = {}) => ({
    order_ref: ref,
    scheduled_date: DAY,
    dropoff: { line1: `${ref} street`, postal_code: postal, lat: 48.86, lng: 2.35 },
    ...extra,
  });
  const refsOf = (orders: Array<{ order_ref: string }>) => orders.map((o) => o.order_ref).sort();

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'pools');
    admin = await login(api, tenant.emails.client_admin);
    contractor = await login(api, tenant.emails.contractor);
    const second = await engageSecondContractor(server, api, tenant);
    otherCompany = second.companyId;
    otherContractor = second.token;
    ({ ownDriver, fleetDriver } = await depotWithTwoFleets(server, api, tenant, admin));

    const created = await api.post(
      '/api/v1/client/orderCreate',
      {
        orders: [
          order('IN-1', '75001'),
          order('IN-2', '75 002'),
          order('OUTSIDE-PREFIX', '69001'),
          order('OUTSIDE-DATE', '75001', { scheduled_date: '2026-11-09' }),
          // A pickup order is served at its pickup address: that postal code decides.
          {
            order_ref: 'PICKUP-IN',
            type: 'P',
            scheduled_date: DAY,
            pickup: { line1: 'Pickup street', postal_code: '75003', lat: 48.87, lng: 2.36 },
            dropoff: { line1: 'Far away', postal_code: '69002' },
          },
          order('CARRIED', '75001', { carrier: 'UPS' }),
          order('HELD', '75001'),
        ],
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    for (const created_order of created.body.orders) ids[created_order.order_ref] = created_order.id;
    await api.post(`/api/v1/client/orders/${ids.HELD}/hold`, {}, { token: admin });

    const rules = [
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['75001', '75002'],
        valid_from: '2026-11-03',
        valid_to: '2026-11-05',
      },
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['750 03'],
        valid_from: '2026-11-01',
      },
      { contractor_company_id: otherCompany, postal_prefixes: ['69'], valid_from: '2026-11-01' },
    ];
    for (const rule of rules) {
      const answer = await api.post('/api/v1/client/contractor-rules', rule, { token: admin });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
  });
  after(() => server.close());

  it('stores rules with normalised prefixes and shows a contractor only its own', async () => {
    const all = await api.get('/api/v1/client/contractor-rules', { token: admin });
    assert.equal(all.body.rules.length, 3);
    assert.deepEqual(all.body.rules[1].postal_prefixes, ['75003']);
    const own = await api.get('/api/v1/client/contractor-rules', { token: contractor });
    assert.equal(own.status, 200);
    assert.ok(
      own.body.rules.every(
        (r: { contractor_company_id: number }) => r.contractor_company_id === tenant.contractorCompanyId,
      ),
    );
    assert.equal(own.body.rules.length, 2);
    // contractor_company_id is ignored for contractors.
    const sneaky = await api.get(`/api/v1/client/contractor-rules?contractor_company_id=${otherCompany}`, {
      token: contractor,
    });
    assert.equal(sneaky.body.rules.length, 2);
  });

  it('refuses bad rules in the documented shape', async () => {
    const backwards = await api.post(
      '/api/v1/client/contractor-rules',
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['75'],
        valid_from: '2026-11-05',
        valid_to: '2026-11-01',
      },
      { token: admin },
    );
    assert.equal(backwards.status, 422);
    assert.deepEqual(
      backwards.body.details.fields.map((f: { field: string }) => f.field),
      ['valid_to'],
    );
    const wildcard = await api.post(
      '/api/v1/client/contractor-rules',
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['7%'],
        valid_from: '2026-11-05',
      },
      { token: admin },
    );
    assert.equal(wildcard.status, 422);
    assert.deepEqual(
      wildcard.body.details.fields.map((f: { field: string }) => f.field),
      ['postal_prefixes.0'],
    );
    const stranger = await server.app.services.accounts.createContractorCompany(server.db, {
      name: 'Not engaged',
      businessIds: [],
    });
    const unengaged = await api.post(
      '/api/v1/client/contractor-rules',
      { contractor_company_id: stranger, postal_prefixes: ['75'], valid_from: '2026-11-05' },
      { token: admin },
    );
    assert.equal(unengaged.status, 422);
    assert.equal(unengaged.body.error_code, 'CONTRACTOR_NOT_ENGAGED');
    const byEmployee = await api.post(
      '/api/v1/client/contractor-rules',
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['75'],
        valid_from: '2026-11-05',
      },
      { token: await login(api, tenant.emails.employee) },
    );
    assert.equal(byEmployee.status, 403);
    const byContractor = await api.post(
      '/api/v1/client/contractor-rules',
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['69'],
        valid_from: '2026-11-05',
      },
      { token: contractor },
    );
    assert.equal(byContractor.status, 403);
    assert.equal(byContractor.body.error_code, 'FORBIDDEN');
  });

  it('lets a contractor see the orders inside its rules and nothing else', async () => {
    const seen = await api.get('/api/v1/client/orders', { token: contractor });
    assert.equal(seen.status, 200);
    assert.deepEqual(refsOf(seen.body.orders), ['CARRIED', 'HELD', 'IN-1', 'IN-2', 'PICKUP-IN']);
    assert.equal(seen.body.total, 5);
    const lyon = await api.get('/api/v1/client/orders', { token: otherContractor });
    assert.deepEqual(refsOf(lyon.body.orders), ['OUTSIDE-PREFIX']);
    const staff = await api.get('/api/v1/client/orders', { token: admin });
    assert.equal(staff.body.total, 7);

    for (const outside of ['OUTSIDE-PREFIX', 'OUTSIDE-DATE']) {
      const detail = await api.get(`/api/v1/client/orders/${ids[outside]}`, { token: contractor });
      assert.equal(detail.status, 404, outside);
      assert.equal(detail.body.error_code, 'ORDER_NOT_FOUND');
      const found = await api.get(`/api/v1/client/orders/find?order_ref=${outside}`, { token: contractor });
      assert.equal(found.status, 404, outside);
    }
    const inside = await api.get(`/api/v1/client/orders/${ids['IN-2']}`, { token: contractor });
    assert.equal(inside.status, 200);
    const tracking = inside.body.order.packages[0].tracking_number;
    const byNumber = await api.get(`/api/v1/client/orders/find?tracking_number=${tracking}`, {
      token: contractor,
    });
    assert.equal(byNumber.body.order.order_ref, 'IN-2');
  });

  it('plans only the contractor pool, with the contractor fleet, and leaves the rest to the business', async () => {
    const options = await api.get(`/api/v3/client/build-route/options?date=${DAY}`, { token: contractor });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    // Held and carrier-held orders are visible but not plannable.
    assert.equal(options.body.pool.orders, 3);
    assert.deepEqual(
      options.body.drivers.map((d: { id: number }) => d.id),
      [fleetDriver],
    );

    const built = await api.post('/api/v3/client/build-route', { date: DAY }, { token: contractor });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.orders, 3);
    assert.equal(built.body.totals.assigned, 3);
    assert.equal(built.body.routes.length, 1);
    assert.equal(built.body.routes[0].driver.id, fleetDriver);
    const planned = built.body.routes[0].stops.map((stop: { order_id: number }) => stop.order_id).sort();
    assert.deepEqual(planned, [ids['IN-1'], ids['IN-2'], ids['PICKUP-IN']].sort());

    const onFleet = await api.get(`/api/v1/client/orders?driver_id=${fleetDriver}`, { token: admin });
    assert.deepEqual(refsOf(onFleet.body.orders), ['IN-1', 'IN-2', 'PICKUP-IN']);
    assert.ok(
      onFleet.body.orders.every(
        (o: { status: string; driver_id: number }) => o.status === 'PLANNED' && o.driver_id === fleetDriver,
      ),
    );

    // The business plans what is left of its whole pool with its own drivers.
    const rest = await api.post('/api/v3/client/build-route', { date: DAY }, { token: admin });
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    assert.equal(rest.body.totals.orders, 1);
    assert.equal(rest.body.routes[0].driver.id, ownDriver);
    assert.equal(rest.body.routes[0].stops[0].order_id, ids['OUTSIDE-PREFIX']);

    // Routes and drivers: the contractor sees its fleet's, the staff everyone's.
    const contractorRoutes = await api.get(`/api/v1/client/routes?date=${DAY}`, { token: contractor });
    assert.deepEqual(
      contractorRoutes.body.routes.map((r: { driver: { id: number } }) => r.driver.id),
      [fleetDriver],
    );
    const ownRoute = rest.body.routes[0].id;
    const hidden = await api.get(`/api/v1/client/routes/${ownRoute}`, { token: contractor });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error_code, 'ROUTE_NOT_FOUND');
    const staffRoutes = await api.get(`/api/v1/client/routes?date=${DAY}`, { token: admin });
    assert.equal(staffRoutes.body.routes.length, 2);
    const drivers = await api.get('/api/v1/client/drivers', { token: contractor });
    assert.deepEqual(
      drivers.body.drivers.map((d: { id: number }) => d.id),
      [fleetDriver],
    );
  });

  it("shows a driver its own routes today and nobody else's", async () => {
    const driver = await login(api, tenant.emails.driver);
    const own = await api.get(`/api/v1/client/drivers/${ownDriver}/routes/today`, { token: driver });
    assert.equal(own.status, 200);
    const other = await api.get(`/api/v1/client/drivers/${fleetDriver}/routes/today`, { token: driver });
    assert.equal(other.status, 403);
    assert.equal(other.body.error_code, 'FORBIDDEN');
  });

  it('takes orders out of view when their rule is deleted', async () => {
    const rules = await api.get('/api/v1/client/contractor-rules', { token: contractor });
    for (const rule of rules.body.rules) {
      const deleted = await api.call('DELETE', `/api/v1/client/contractor-rules/${rule.id}`, {
        token: admin,
      });
      assert.equal(deleted.status, 200);
    }
    const seen = await api.get('/api/v1/client/orders', { token: contractor });
    assert.equal(seen.body.total, 0);
    const again = await api.call('DELETE', `/api/v1/client/contractor-rules/${rules.body.rules[0].id}`, {
      token: admin,
    });
    assert.equal(again.status, 404);
    assert.equal(again.body.error_code, 'CONTRACTOR_RULE_NOT_FOUND');
  });

  it('makes a contractor working for several businesses name the one it acts in', async () => {
    const { accounts } = server.app.services;
    const second = await accounts.createBusiness(server.db, {
      code: 'second',
      name: 'Second',
      timeZone: 'UTC',
    });
    const shared = await accounts.createContractorCompany(server.db, {
      name: 'Shared couriers',
      businessIds: [tenant.businessId, second],
    });
    await accounts.createUser(server.db, {
      kind: 'contractor',
      email: 'shared@couriers.test',
      name: 'Shared',
      password: PASSWORD,
      businessId: null,
      contractorCompanyId: shared,
    });
    const token = await login(api, 'shared@couriers.test');
    const unnamed = await api.get('/api/v1/client/orders', { token });
    assert.equal(unnamed.status, 422);
    assert.equal(unnamed.body.error_code, 'BUSINESS_REQUIRED');
    // In the second business, a rule gives the shared company one order.
    await accounts.createUser(server.db, {
      kind: 'client_admin',
      email: 'admin@second.test',
      name: 'Second admin',
      password: PASSWORD,
      businessId: second,
    });
    const secondAdmin = await login(api, 'admin@second.test');
    const rule = await api.post(
      '/api/v1/client/contractor-rules',
      { contractor_company_id: shared, postal_prefixes: ['101'], valid_from: '2026-11-01' },
      { token: secondAdmin },
    );
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const created = await api.post('/api/v1/client/orderCreate', order('SECOND-1', '10115'), {
      token: secondAdmin,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const named = await api.get(`/api/v1/client/orders?business_id=${second}`, { token });
    assert.equal(named.status, 200);
    assert.deepEqual(refsOf(named.body.orders), ['SECOND-1']);
    const other = await accounts.createBusiness(server.db, { code: 'third', name: 'Third', timeZone: 'UTC' });
    const notEngaged = await api.get(`/api/v1/client/orders?business_id=${other}`, { token });
    assert.equal(notEngaged.status, 403);
  });

  it("keeps a rule's prefixes upper case, without spaces, once each and sorted, with its note", async () => {
    const answer = await api.post(
      '/api/v1/client/contractor-rules',
      {
        contractor_company_id: tenant.contractorCompanyId,
        postal_prefixes: ['sw1a 1', 'EC2', 'ec2', 'B 1'],
        valid_from: '2026-12-01',
        note: 'London trial',
      },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.rule.postal_prefixes, ['B1', 'EC2', 'SW1A1']);
    assert.equal(answer.body.rule.note, 'London trial');
    const removed = await api.call('DELETE', `/api/v1/client/contractor-rules/${answer.body.rule.id}`, {
      token: admin,
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
  });
});
