import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { LockerSimulator } from '../src/modules/lockers/simulator.ts';
import { createTenant, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { COMPARTMENTS, eventually } from './support/lockers.ts';
import { MOSQUITTO, mosquittoAnswers } from './support/mosquitto.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('lockers on an external broker (MQTT_URL)', () => {
  let server: TestServer | undefined;
  let device: LockerSimulator | undefined;
  after(async () => {
    await device?.stop().catch(() => {});
    await server?.close();
  });

  it("hears a device through the broker's shared subscription and commands it there", {
    skip:
      !mosquittoAnswers &&
      `no MQTT broker answers at ${MOSQUITTO} (Mosquitto): the embedded broker's tests ran`,
  }, async () => {
    // A prefix of this run's own, so parallel runs on one Mosquitto never cross.
    const topicPrefix = `tms-test-${randomUUID().slice(0, 8)}`;
    server = await startTestServer({ mqtt: { ...loadConfig({}).mqtt, url: MOSQUITTO, topicPrefix } });
    await server.app.startBackground(server.pool);
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'lockermosquitto');
    const admin = await login(api, tenant.emails.client_admin);
    const site = await api.post(
      '/api/v1/lockers/sites',
      { name: 'Harbour', address: { line1: '1 Quay' } },
      { token: admin },
    );
    const registered = await api.post(
      '/api/v1/lockers/devices',
      { site_id: site.body.site.id, kind: 'locker', name: 'Quay bank', compartments: COMPARTMENTS },
      { token: admin },
    );
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const deviceId = registered.body.device.id as number;
    device = new LockerSimulator({
      url: MOSQUITTO,
      deviceId,
      credential: registered.body.credential,
      compartments: COMPARTMENTS.length,
      topicPrefix,
      clock: () => server!.clock.now(),
    });
    // The service's own subscription may still be on its way: heartbeat until it is heard.
    await device.start();
    await eventually(async () => {
      await device!.heartbeat();
      const read = await api.get(`/api/v1/lockers/sites/${site.body.site.id}`, { token: admin });
      return read.body.site.devices[0].online ? true : undefined;
    }, 'the heartbeat through Mosquitto');
    const reserved = await api.post(
      '/api/v1/lockers/bookings',
      { site_id: site.body.site.id, size_class: 'S' },
      { token: admin },
    );
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body));
    const opened = await api.post('/api/v1/lockers/open', {
      reference: reserved.body.booking.reference,
      code: reserved.body.codes.drop_code,
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const settled = await eventually(async () => {
      const now = await api.get(`/api/v1/lockers/open/${reserved.body.booking.reference}`);
      return now.body.command.status === 'pending' ? undefined : now.body;
    }, 'the answer through Mosquitto');
    assert.equal(settled.command.status, 'acked');
    assert.equal(settled.booking.state, 'occupied');
    assert.deepEqual(device.opened, [reserved.body.booking.compartment.number]);
  });
});
