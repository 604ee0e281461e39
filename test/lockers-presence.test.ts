import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { DeviceLink } from '../src/modules/lockers/device-link.ts';
import { DeviceTopics } from '../src/modules/lockers/protocol.ts';
import { eventually, type LockerWorld, lockerWorld } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * A pool whose writes of a departure (`disconnected_at` set) wait until released, as on a slow
 * pooled connection; it tells when one is waiting and when the second arrival has been written.
 */
function holdingDepartures() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let waiting: () => void = () => {};
  const departureWaiting = new Promise<void>((resolve) => (waiting = resolve));
  let written: () => void = () => {};
  let arrivals = 0;
  const arrivalWritten = new Promise<void>((resolve) => (written = resolve));
  class HoldingClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through.
    override query(...args: any[]): any {
      const pass = () => (super.query as (...a: unknown[]) => Promise<unknown>)(...args);
      const [text] = args;
      if (typeof text !== 'string') return pass();
      if (/set "disconnected_at" = \$1/.test(text)) {
        waiting();
        return gate.then(pass);
      }
      // The second arrival: the first is the connection before the departure.
      if (/set "last_seen_at" = \$1, "disconnected_at" = \$2/.test(text) && ++arrivals === 2)
        return pass().finally(written);
      return pass();
    }
  }
  return { Client: HoldingClient, release, departureWaiting, arrivalWritten };
}

describe("lockers: a device's presence", () => {
  let server: TestServer;
  let world: LockerWorld;

  before(async () => {
    server = await startTestServer();
    world = await lockerWorld(server, 'presence');
    await world.device.stop();
    await eventually(async () => {
      const read = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      return read.body.site.devices[0].online ? undefined : true;
    }, 'the device going offline');
  });

  after(async () => {
    await server?.close();
  });

  it("applies a device's departure and arrival in the order the broker told them, however the database answers", async () => {
    const held = holdingDepartures();
    const pool = new pg.Pool({ connectionString: server.databaseUrl, Client: held.Client, max: 4 });
    const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) });
    try {
      const link = new DeviceLink(
        server.clock,
        server.app.services.lockers.bookings,
        new DeviceTopics('tms'),
      );
      const policy = link.policy(db);
      const device = { deviceId: world.deviceId, businessId: 0 };
      await policy.connected?.(device);
      // The old connection leaves and a new one arrives at once (same instant on the test clock):
      // the departure's write is slow, the arrival's is not.
      const departure = policy.disconnected?.(device);
      await held.departureWaiting;
      const arrival = policy.connected?.(device);
      // Released once the arrival is written, or once it has had ample time to overtake and is
      // evidently waiting its turn (a slow machine can only make this check pass, never fail).
      await Promise.race([held.arrivalWritten, new Promise((resolve) => setTimeout(resolve, 300))]);
      held.release();
      await Promise.all([departure, arrival]);
      const read = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      assert.equal(read.body.site.devices[0].online, true, 'the arrival told last is the last word');
    } finally {
      await db.destroy();
    }
  });
});
