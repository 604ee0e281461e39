import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login, signedInDriver, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('fleets and their captains', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let other: Tenant;
  let admin: string;
  const drivers: Record<string, { id: number; token: string }> = {};

  const driver = async (business: Tenant, name: string) => {
    drivers[name] = await signedInDriver(server, api, business, name);
  };

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'flt');
    other = await createTenant(server.db, server.app.services, 'fltx');
    admin = await login(api, tenant.emails.client_admin);
    for (const name of ['ana', 'ben', 'cai']) await driver(tenant, name);
    await driver(other, 'zed');
  });
  after(() => server?.close());

  it('lets staff make fleets, name captains, and a driver be in several fleets', async () => {
    const north = await api.post('/api/v1/client/fleets', { name: 'North' }, { token: admin });
    assert.equal(north.status, 200, JSON.stringify(north.body));
    const south = await api.post('/api/v1/client/fleets', { name: 'South' }, { token: admin });
    const taken = await api.post('/api/v1/client/fleets', { name: 'north' }, { token: admin });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error_code, 'FLEET_NAME_TAKEN');

    const northId = north.body.fleet.id as number;
    const southId = south.body.fleet.id as number;
    const put = (fleet: number, who: string, role: string) =>
      api.call('PUT', `/api/v1/client/fleets/${fleet}/members/${drivers[who]!.id}`, {
        token: admin,
        body: { role },
      });
    assert.equal((await put(northId, 'ana', 'captain')).status, 200);
    assert.equal((await put(northId, 'ben', 'driver')).status, 200);
    const both = await put(southId, 'ben', 'driver');
    assert.deepEqual(
      both.body.fleet.members.map((m: { driver_id: number; role: string }) => [m.driver_id, m.role]),
      [[drivers.ben!.id, 'driver']],
    );
    const stranger = await put(northId, 'zed', 'driver');
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.error_code, 'DRIVER_NOT_FOUND');

    const bens = await api.get('/api/v1/client/fleets', { token: drivers.ben!.token });
    assert.deepEqual(
      bens.body.fleets.map((f: { name: string; my_role: string }) => [f.name, f.my_role]),
      [
        ['North', 'driver'],
        ['South', 'driver'],
      ],
    );
    const staff = await api.get('/api/v1/client/fleets', { token: admin });
    assert.deepEqual(
      staff.body.fleets.map((f: { name: string; members: number }) => [f.name, f.members]),
      [
        ['North', 2],
        ['South', 1],
      ],
    );
  });

  it('shows a fleet to its drivers only, and lets only its captains lead it', async () => {
    const fleets = (await api.get('/api/v1/client/fleets', { token: admin })).body.fleets;
    const [north, south] = fleets as Array<{ id: number }>;
    const cai = await api.get(`/api/v1/client/fleets/${north!.id}`, { token: drivers.cai!.token });
    assert.equal(cai.status, 404);
    assert.equal(cai.body.error_code, 'FLEET_NOT_FOUND');
    const zed = await api.get(`/api/v1/client/fleets/${north!.id}`, { token: drivers.zed!.token });
    assert.equal(zed.status, 404);
    const otherAdmin = await login(api, other.emails.client_admin);
    assert.equal((await api.get(`/api/v1/client/fleets/${north!.id}`, { token: otherAdmin })).status, 404);

    const ben = await api.call('PATCH', `/api/v1/client/fleets/${north!.id}`, {
      token: drivers.ben!.token,
      body: { name: 'North side' },
    });
    assert.equal(ben.status, 403);
    assert.equal(ben.body.error_code, 'FLEET_CAPTAIN_REQUIRED');
    const ana = await api.call('PATCH', `/api/v1/client/fleets/${north!.id}`, {
      token: drivers.ana!.token,
      body: { name: 'North side' },
    });
    assert.equal(ana.status, 200, JSON.stringify(ana.body));
    assert.equal(ana.body.fleet.name, 'North side');
    // A captain of North is nobody in South.
    const elsewhere = await api.call('PATCH', `/api/v1/client/fleets/${south!.id}`, {
      token: drivers.ana!.token,
      body: { name: 'Mine now' },
    });
    assert.equal(elsewhere.status, 404);
    // Captains lead; they do not say who is in the fleet.
    const recruit = await api.call('PUT', `/api/v1/client/fleets/${north!.id}/members/${drivers.cai!.id}`, {
      token: drivers.ana!.token,
      body: { role: 'driver' },
    });
    assert.equal(recruit.status, 403);
    assert.equal(recruit.body.error_code, 'FORBIDDEN');
  });

  it('takes drivers out and deletes fleets, in the caller business only', async () => {
    const [north, south] = (await api.get('/api/v1/client/fleets', { token: admin })).body.fleets as Array<{
      id: number;
    }>;
    const out = await api.call('DELETE', `/api/v1/client/fleets/${north!.id}/members/${drivers.ben!.id}`, {
      token: admin,
    });
    assert.equal(out.status, 200);
    assert.deepEqual(
      out.body.fleet.members.map((m: { driver_id: number }) => m.driver_id),
      [drivers.ana!.id],
    );
    assert.equal(
      (await api.get(`/api/v1/client/fleets/${north!.id}`, { token: drivers.ben!.token })).status,
      404,
    );
    const otherAdmin = await login(api, other.emails.client_admin);
    assert.equal(
      (await api.call('DELETE', `/api/v1/client/fleets/${south!.id}`, { token: otherAdmin })).status,
      404,
    );
    assert.equal(
      (await api.call('DELETE', `/api/v1/client/fleets/${south!.id}`, { token: admin })).status,
      200,
    );
    const left = (await api.get('/api/v1/client/fleets', { token: drivers.ben!.token })).body.fleets;
    assert.deepEqual(left, []);
  });
});
