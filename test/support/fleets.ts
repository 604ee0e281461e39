import type { Tenant } from './fixtures.ts';
import { login, PASSWORD } from './fixtures.ts';
import type { Client } from './http.ts';
import type { TestServer } from './server.ts';

/** A driver account of the tenant's business, signed in with the standard login. */
export async function signedInDriver(
  server: TestServer,
  api: Client,
  tenant: Tenant,
  name: string,
): Promise<{ id: number; token: string }> {
  const email = `${name}@${tenant.code}.test`;
  const id = await server.app.services.accounts.createUser(server.db, {
    kind: 'driver',
    email,
    name: `Driver ${name}`,
    password: PASSWORD,
    businessId: tenant.businessId,
  });
  return { id, token: await login(api, email) };
}

/** A fleet made by the business's admin, with these drivers in it (role `driver` unless named captains). */
export async function fleetOf(
  api: Client,
  admin: string,
  name: string,
  members: { drivers?: readonly { id: number }[]; captains?: readonly { id: number }[] },
): Promise<number> {
  const made = await api.post('/api/v1/client/fleets', { name }, { token: admin });
  if (made.status !== 200) throw new Error(`fleet refused: ${JSON.stringify(made.body)}`);
  const fleetId = made.body.fleet.id as number;
  const roles = [
    ...(members.drivers ?? []).map((driver) => [driver.id, 'driver'] as const),
    ...(members.captains ?? []).map((driver) => [driver.id, 'captain'] as const),
  ];
  for (const [driverId, role] of roles) {
    const put = await api.call('PUT', `/api/v1/client/fleets/${fleetId}/members/${driverId}`, {
      token: admin,
      body: { role },
    });
    if (put.status !== 200) throw new Error(`member refused: ${JSON.stringify(put.body)}`);
  }
  return fleetId;
}
