import type { Client } from './http.ts';

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
