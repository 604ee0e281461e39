import { asDriverProfile } from '../../src/modules/dispatch/solver/generate.ts';
import type { SolverVehicle } from '../../src/modules/dispatch/solver/types.ts';
import { ACCOUNT_KINDS, type AccountKind } from '../../src/platform/catalog/operation.ts';
import type { ManualClock } from '../../src/platform/clock.ts';
import type { Db } from '../../src/platform/db/database.ts';
import type { Services } from '../../src/services.ts';
import type { Client } from './http.ts';
import type { TestServer } from './server.ts';

export const PASSWORD = 'correct horse battery';

/** A drop-off with all a public tracking answer must hide: full name, phone, street, coordinates. */
export const DROPOFF = {
  name: 'Léa Martin',
  phone: '+33 6 12 34 56 78',
  line1: '12 Rue de Rivoli',
  city: 'Paris',
  postal_code: '75001',
  country: 'FR',
  lat: 48.8606,
  lng: 2.3376,
};

export interface Tenant {
  businessId: number;
  code: string;
  contractorCompanyId: number;
  /** Email of this tenant's account of each kind. */
  emails: Record<AccountKind, string>;
  userIds: Record<AccountKind, number>;
}

/**
 * PASSWORD's stored form, hashed once a test file: one scrypt hash is a third of a second of CPU,
 * and a tenant has seven accounts (the service hashes the demo's shared password once the same way).
 */
let passwordHash: Promise<string> | undefined;
export const storedPassword = (services: Services): Promise<string> =>
  (passwordHash ??= services.accounts.hashPassword(PASSWORD));

/** A business with one account of every kind (its platform admin and contractor included). */
export async function createTenant(
  db: Db,
  services: Services,
  code: string,
  { timeZone = 'Asia/Shanghai' }: { timeZone?: string } = {},
): Promise<Tenant> {
  const { accounts } = services;
  const businessId = await accounts.createBusiness(db, { code, name: `Business ${code}`, timeZone });
  const contractorCompanyId = await accounts.createContractorCompany(db, {
    name: `Couriers of ${code}`,
    businessIds: [businessId],
  });
  const emails = {} as Record<AccountKind, string>;
  const userIds = {} as Record<AccountKind, number>;
  const ids = await accounts.createUsers(
    db,
    ACCOUNT_KINDS.map((kind) => ({
      kind,
      email: `${kind.replace('_', '-')}@${code}.test`,
      name: `${kind} of ${code}`,
      businessId: kind === 'platform_admin' || kind === 'contractor' ? null : businessId,
      contractorCompanyId: kind === 'contractor' ? contractorCompanyId : null,
    })),
    await storedPassword(services),
  );
  for (const [at, kind] of ACCOUNT_KINDS.entries()) {
    emails[kind] = `${kind.replace('_', '-')}@${code}.test`;
    userIds[kind] = ids[at]!;
  }
  return { businessId, code, contractorCompanyId, emails, userIds };
}

export async function login(api: Client, email: string, password = PASSWORD): Promise<string> {
  const answer = await api.post('/api/v1/user/login', { email, password });
  if (answer.status !== 200) throw new Error(`login of ${email} failed: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token;
}

/** Drives an order through pickup and delivery, ten minutes apart, with a proof of delivery. */
export async function deliverWithProof(api: Client, token: string, clock: ManualClock, orderId: number) {
  const steps = [
    { status: 'PICKED_UP' },
    { status: 'OUT_FOR_DELIVERY' },
    { status: 'DELIVERED', proof_of_delivery: { recipient: 'Léa Martin', note: 'Left with the concierge' } },
  ];
  for (const step of steps) {
    clock.advance(10 * 60_000);
    const moved = await api.post(`/api/v1/client/orders/${orderId}/status`, step, { token });
    if (moved.status !== 200) throw new Error(`status ${step.status} refused: ${JSON.stringify(moved.body)}`);
  }
}

/** A token issued straight by the accounts service (an agent's, a personal one, with a profile or scopes). */
export async function issuedToken(
  server: TestServer,
  options: Parameters<Services['accounts']['issueToken']>[1],
): Promise<string> {
  return (await server.app.services.accounts.issueToken(server.db, options)).token;
}

/** A driver account of the tenant's business (`<name>@<code>.test`), signed in with the standard login. */
export async function signedInDriver(
  server: TestServer,
  api: Client,
  tenant: Pick<Tenant, 'businessId' | 'code'>,
  name: string,
): Promise<{ id: number; token: string }> {
  const email = `${name}@${tenant.code}.test`;
  const [id] = await server.app.services.accounts.createUsers(
    server.db,
    [{ kind: 'driver', email, name: `Driver ${name}`, businessId: tenant.businessId }],
    await storedPassword(server.app.services),
  );
  return { id: id!, token: await login(api, email) };
}

/**
 * A depot with drivers of the tenant's business on it, each with a working profile, signed in
 * with the standard login as a driver's phone is: what a day of routes needs.
 */
export async function signedInDriversAtDepot(
  server: TestServer,
  api: Client,
  tenant: Tenant,
  admin: string,
  options: {
    depot: { lat: number; lng: number };
    names: readonly string[];
    shift: { start: string; end: string };
    volumeCm3?: number;
  },
): Promise<Array<{ id: number; token: string }>> {
  const depot = await api.post('/api/v1/client/depots', { name: 'Hub', ...options.depot }, { token: admin });
  if (depot.status !== 200) throw new Error(`depot refused: ${JSON.stringify(depot.body)}`);
  const drivers = [];
  for (const name of options.names) {
    const driver = await signedInDriver(server, api, tenant, name);
    const id = driver.id;
    const profile = await api.call('PUT', `/api/v1/client/drivers/${id}/profile`, {
      token: admin,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 500_000, volume_cm3: options.volumeCm3 ?? 5_000_000, count: 100 },
        shift: options.shift,
      },
    });
    if (profile.status !== 200) throw new Error(`driver profile refused: ${JSON.stringify(profile.body)}`);
    drivers.push(driver);
  }
  return drivers;
}

/**
 * A depot at the first vehicle's start and a driver of the business for each of a generated day's
 * vehicles (src/modules/dispatch/solver/generate.ts), with the vehicle's capacity and shift there;
 * answers the drivers' ids.
 */
export async function vansOf(
  api: Client,
  admin: string,
  tenant: Pick<Tenant, 'businessId' | 'code'>,
  { db, services }: { db: Db; services: Services },
  vehicles: readonly SolverVehicle[],
): Promise<number[]> {
  const depot = await api.post(
    '/api/v1/client/depots',
    { name: 'Main', ...vehicles[0]!.start },
    { token: admin },
  );
  if (depot.status !== 200) throw new Error(`depot refused: ${JSON.stringify(depot.body)}`);
  const depotId: number = depot.body.depot.id;
  const ids: number[] = [];
  for (const [index, vehicle] of vehicles.entries()) {
    const driverId = await services.accounts.createUser(db, {
      kind: 'driver',
      email: `van-${index}@${tenant.code}.test`,
      name: `Van ${index}`,
      password: null,
      businessId: tenant.businessId,
    });
    const profile = await api.call('PUT', `/api/v1/client/drivers/${driverId}/profile`, {
      token: admin,
      body: asDriverProfile(vehicle, depotId),
    });
    if (profile.status !== 200) throw new Error(`profile refused: ${JSON.stringify(profile.body)}`);
    ids.push(driverId);
  }
  return ids;
}
