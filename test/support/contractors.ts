import { login, PASSWORD, type Tenant } from './fixtures.ts';
import type { Client } from './http.ts';
import type { TestServer } from './server.ts';

/** A second contractor company the tenant's business engages, with one contractor account, signed in. */
export async function engageSecondContractor(server: TestServer, api: Client, tenant: Tenant) {
  const { accounts } = server.app.services;
  const companyId = await accounts.createContractorCompany(server.db, {
    name: `Second couriers of ${tenant.code}`,
    businessIds: [tenant.businessId],
  });
  const email = `second-contractor@${tenant.code}.test`;
  const userId = await accounts.createUser(server.db, {
    kind: 'contractor',
    email,
    name: `Second contractor of ${tenant.code}`,
    password: PASSWORD,
    businessId: null,
    contractorCompanyId: companyId,
  });
  return { companyId, userId, token: await login(api, email) };
}

/**
 * A depot with two vans on it: the business's own driver's, and one of a new driver of the
 * tenant's contractor company's fleet.
 */
export async function depotWithTwoFleets(server: TestServer, api: Client, tenant: Tenant, admin: string) {
  const depot = await api.post(
    '/api/v1/client/depots',
    { name: 'Depot', lat: 48.85, lng: 2.34 },
    { token: admin },
  );
  if (depot.status !== 200) throw new Error(`depot refused: ${JSON.stringify(depot.body)}`);
  const ownDriver = tenant.userIds.driver;
  const fleetDriver = await server.app.services.accounts.createUser(server.db, {
    kind: 'driver',
    email: `rider@${tenant.code}.test`,
    name: 'Fleet rider',
    password: null,
    businessId: tenant.businessId,
  });
  for (const [driver, companyId] of [
    [ownDriver, null],
    [fleetDriver, tenant.contractorCompanyId],
  ] as const) {
    const set = await api.call('PUT', `/api/v1/client/drivers/${driver}/profile`, {
      token: admin,
      body: {
        depot_id: depot.body.depot.id,
        contractor_company_id: companyId,
        capacity: { weight_grams: 500_000, volume_cm3: 10_000_000, count: 100 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    if (set.status !== 200) throw new Error(`driver profile refused: ${JSON.stringify(set.body)}`);
  }
  return { depotId: depot.body.depot.id as number, ownDriver, fleetDriver };
}
