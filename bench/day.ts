import { sql } from 'kysely';
import type { Db } from '../src/platform/db/database.ts';
import type { Services } from '../src/services.ts';

/**
 * A business for a bench's working day, made in a few statements: its client admin's token, and
 * `drivers` drivers on one depot with a working profile and a login token each.
 */
export async function benchBusiness(
  accounts: Services['accounts'],
  db: Db,
  options: { drivers: number; timeZone: string },
): Promise<{
  businessId: number;
  admin: string;
  drivers: Array<{ id: number; token: string }>;
}> {
  const businessId = await accounts.createBusiness(db, {
    code: 'bench',
    name: 'Bench',
    timeZone: options.timeZone,
  });
  const adminId = await accounts.createUser(db, {
    kind: 'client_admin',
    email: 'admin@bench.test',
    name: 'Admin',
    password: null,
    businessId,
  });
  const admin = (await accounts.issueToken(db, { userId: adminId, kind: 'login' })).token;
  const depotId = (
    await sql<{ id: number }>`
      INSERT INTO depots (business_id, name, lat, lng) VALUES (${businessId}, 'Hub', 48.85, 2.35) RETURNING id`.execute(
      db,
    )
  ).rows[0]!.id;
  const drivers: Array<{ id: number; token: string }> = [];
  for (let n = 0; n < options.drivers; n++) {
    const id = await accounts.createUser(db, {
      kind: 'driver',
      email: `d${n}@bench.test`,
      name: `Driver ${n}`,
      password: null,
      businessId,
    });
    drivers.push({ id, token: (await accounts.issueToken(db, { userId: id, kind: 'login' })).token });
  }
  await sql`
    INSERT INTO driver_profiles (user_id, business_id, depot_id, capacity_weight_grams, capacity_volume_cm3,
                                 capacity_count, shift_start, shift_end)
    SELECT d, ${businessId}, ${depotId}, 1000000, 100000000, 200, '00:00', '23:59'
    FROM unnest(${sql.val(drivers.map((driver) => driver.id))}::bigint[]) AS d`.execute(db);
  return { businessId, admin, drivers };
}
