import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import mqtt from 'mqtt';
import type { LockerSimulator } from '../src/modules/lockers/simulator.ts';
import { createTenant, login, storedPassword } from './support/fixtures.ts';
import { eventually, type LockerWorld, lockerWorld, startDevice } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** One opening carried through: the code given, the device told, the door opened, the booking moved on. */
async function openWith(world: LockerWorld, reference: string, code: string, token?: string) {
  const opened = await world.api.post('/api/v1/lockers/open', { reference, code }, token ? { token } : {});
  assert.equal(opened.status, 200, JSON.stringify(opened.body));
  assert.equal(opened.body.command.status, 'pending');
  const settled = await eventually(async () => {
    const now = await world.api.get(`/api/v1/lockers/open/${reference}`);
    return now.body.command?.status === 'pending' ? undefined : now.body;
  }, 'the device answering');
  return { opened: opened.body, settled };
}

describe('lockers: a site, a simulated locker and the flows through its compartments', () => {
  let server: TestServer;
  let world: LockerWorld;
  let order: { id: number; tracking: string };
  const devices: LockerSimulator[] = [];

  before(async () => {
    server = await startTestServer();
    await server.app.startBackground(server.pool);
    world = await lockerWorld(server, 'lockers');
    devices.push(world.device);
    const created = await world.api.post(
      '/api/v1/client/orderCreate',
      {
        type: 'D',
        dropoff: { line1: '1 Station Square', city: 'Lyon' },
        packages: [{ length_mm: 350, width_mm: 280, height_mm: 200, weight_grams: 2000 }],
      },
      { token: world.admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const made = await world.api.get(`/api/v1/client/orders/${created.body.order_id}`, {
      token: world.admin,
    });
    order = { id: made.body.order.id, tracking: made.body.order.packages[0].tracking_number };
  });

  after(async () => {
    for (const device of devices) await device.stop().catch(() => {});
    await server?.close();
  });

  it('shows the device online with its compartments once it heartbeats', async () => {
    const site = await eventually(async () => {
      const read = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      return read.body.site.devices[0].online ? read.body.site : undefined;
    }, 'the device coming online');
    assert.equal(site.devices[0].compartments.length, 12);
    assert.ok(site.devices[0].compartments.every((c: { state: string }) => c.state === 'free'));
  });

  it('sees a device that reconnects at once online as soon as it is connected', async () => {
    for (let round = 0; round < 5; round++) {
      // Its old connection's departure and the new arrival race through separate pooled
      // connections: the arrival must stay the last word, and be written before the CONNACK.
      await world.device.stop();
      world.device = await startDevice(server, world.brokerUrl, world.deviceId, world.credential);
      devices.push(world.device);
      const read = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      assert.equal(read.body.site.devices[0].online, true, `online after reconnection ${round + 1}`);
    }
  });

  it('delivers to the locker: the drop code deposits, the pickup code collects, the order is delivered there', async () => {
    const reserved = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId, order_id: order.id },
      { token: world.admin },
    );
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body));
    const { booking, codes } = reserved.body;
    // The smallest compartment the 350 x 280 x 200 box fits: the first medium one, number 5.
    assert.equal(booking.compartment.number, 5);
    assert.equal(booking.state, 'reserved');
    assert.match(codes.pickup_code, /^\d{8}$/);
    // The pickup code opens nothing before the deposit: it is the drop code's turn.
    const early = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.pickup_code,
    });
    assert.equal(early.status, 403);
    assert.equal(early.body.error_code, 'LOCKER_CODE_WRONG');

    const deposit = await openWith(world, booking.reference, codes.drop_code);
    assert.equal(deposit.opened.opening, 'deposit');
    assert.equal(deposit.settled.command.status, 'acked');
    assert.equal(deposit.settled.booking.state, 'occupied');
    assert.ok(deposit.settled.booking.pickup_expires_at);
    assert.deepEqual(world.device.opened.slice(-1), [5]);

    const pickup = await openWith(world, booking.reference, codes.pickup_code);
    assert.equal(pickup.settled.booking.state, 'collected');
    assert.deepEqual(world.device.opened.slice(-2), [5, 5]);

    const read = await world.api.get(`/api/v1/client/orders/${order.id}`, { token: world.admin });
    assert.equal(read.body.order.status, 'DELIVERED');
    const timeline = await world.api.get(`/api/v1/otep/trackings/${order.tracking}`, { token: world.admin });
    const events = timeline.body.data.events as Array<{ status_code: string; location?: { name?: string } }>;
    const inLocker = events.find((event) => event.status_code === 'arrival_scan');
    assert.equal(inLocker?.location?.name, 'Central Station');
    assert.equal(events.at(-1)?.status_code, 'delivered');
    assert.equal(events.at(-1)?.location?.name, 'Central Station');

    // The ledger tells the whole story, naming codes only by a piece of their hash.
    const ledger = await world.api.get(`/api/v1/lockers/ledger?booking_id=${booking.id}`, {
      token: world.admin,
    });
    const kinds = ledger.body.entries.map((entry: { kind: string }) => entry.kind);
    for (const kind of [
      'reserved',
      'code_refused',
      'code_accepted',
      'command_acked',
      'deposit',
      'pickup',
      'door_opened',
    ]) {
      assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(', ')}`);
    }
    const text = JSON.stringify(ledger.body);
    assert.ok(!text.includes(codes.drop_code) && !text.includes(codes.pickup_code));
    const accepted = ledger.body.entries.filter((entry: { kind: string }) => entry.kind === 'code_accepted');
    assert.match(accepted[0].code_ref, /^drop:/);
    assert.match(accepted[1].code_ref, /^pickup:/);
    // The compartment is free again.
    const site = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
    assert.equal(site.body.site.devices[0].compartments[4].state, 'free');
  });

  it('locks a booking after five wrong codes, and the right code no longer opens it until a new one is given', async () => {
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, size_class: 'S' },
        { token: world.admin },
      )
    ).body;
    const wrong = codes.drop_code === '00000000' ? '11111111' : '00000000';
    const left: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const refused = await world.api.post('/api/v1/lockers/open', {
        reference: booking.reference,
        code: wrong,
      });
      assert.equal(refused.status, 403);
      left.push(refused.body.details.attempts_left);
    }
    assert.deepEqual(left, [4, 3, 2, 1]);
    const fifth = await world.api.post(
      '/api/v1/lockers/open',
      { reference: booking.reference, code: wrong },
      { headers: { 'accept-language': 'de' } },
    );
    assert.equal(fifth.status, 423);
    assert.equal(fifth.body.error_code, 'LOCKER_CODE_LOCKED');
    assert.match(fifth.body.message, /gesperrt/);
    const right = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.drop_code,
    });
    assert.equal(right.status, 423);
    const opened = world.device.opened.length;
    // The business gives a new code: the old one stops, the new one opens.
    const reissued = await world.api.post(
      `/api/v1/lockers/bookings/${booking.id}/code`,
      {},
      { token: world.admin },
    );
    assert.equal(reissued.status, 200);
    const old = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.drop_code,
    });
    assert.equal(old.status, 403);
    const deposit = await openWith(world, booking.reference, reissued.body.code);
    assert.equal(deposit.settled.booking.state, 'occupied');
    assert.equal(world.device.opened.length, opened + 1);
  });

  it('opens exactly once when two pickups of one compartment race', async () => {
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, size_class: 'L' },
        { token: world.admin },
      )
    ).body;
    await openWith(world, booking.reference, codes.drop_code);
    const before = world.device.opened.length;
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() =>
        world.api.post('/api/v1/lockers/open', { reference: booking.reference, code: codes.pickup_code }),
      ),
    );
    const statuses = racing.map((answer) => answer.status).sort();
    assert.equal(statuses.filter((status) => status === 200).length, 1, JSON.stringify(statuses));
    for (const answer of racing.filter((a) => a.status !== 200)) {
      assert.ok(['LOCKER_COMPARTMENT_BUSY', 'LOCKER_BOOKING_CLOSED'].includes(answer.body.error_code));
    }
    await eventually(async () => {
      const now = await world.api.get(`/api/v1/lockers/open/${booking.reference}`);
      return now.body.booking.state === 'collected' ? true : undefined;
    }, 'the pickup');
    assert.equal(world.device.opened.length, before + 1);
  });

  it('does not open with the right code after the pickup deadline: the parcel expires and is taken back', async () => {
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, size_class: 'L' },
        { token: world.admin },
      )
    ).body;
    await openWith(world, booking.reference, codes.drop_code);
    // The device's door events follow its answer: heard after the clock moves, they would count
    // as a sign of life two days on.
    await eventually(async () => {
      const ledger = await world.api.get(`/api/v1/lockers/ledger?booking_id=${booking.id}`, {
        token: world.admin,
      });
      return ledger.body.entries.some((entry: { kind: string }) => entry.kind === 'door_closed')
        ? true
        : undefined;
    }, 'the door closed');
    server.clock.advance(49 * 3_600_000);
    // Two days without a heartbeat: the device is offline, though still connected.
    const silent = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
    assert.equal(silent.body.site.devices[0].online, false);
    await world.device.heartbeat();
    await eventually(async () => {
      const heard = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      return heard.body.site.devices[0].online ? true : undefined;
    }, 'the heartbeat');
    const late = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.pickup_code,
    });
    assert.equal(late.status, 410);
    assert.equal(late.body.error_code, 'LOCKER_CODE_EXPIRED');
    server.app.outbox.poke();
    const expired = await eventually(async () => {
      const read = await world.api.get(`/api/v1/lockers/bookings/${booking.id}`, { token: world.admin });
      return read.body.booking.state === 'expired' ? read.body.booking : undefined;
    }, 'the pickup deadline');
    assert.equal(expired.state, 'expired');
    const collect = await world.api.post(
      `/api/v1/lockers/bookings/${booking.id}/collect`,
      {},
      { token: world.admin },
    );
    assert.equal(collect.status, 200, JSON.stringify(collect.body));
    const back = await eventually(async () => {
      const read = await world.api.get(`/api/v1/lockers/bookings/${booking.id}`, { token: world.admin });
      return read.body.booking.state === 'retrieved' ? read.body.booking : undefined;
    }, 'the retrieval');
    assert.ok(back.finished_at);
  });

  it('refuses to command an offline device, and keeps the code good', async () => {
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, size_class: 'S' },
        { token: world.admin },
      )
    ).body;
    await world.device.stop();
    // Seen offline first: an opening asked before the broker noticed the disconnect would go out
    // as a command, and the next one would meet that command (BUSY), not the offline device.
    await eventually(async () => {
      const read = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
      return read.body.site.devices[0].online ? undefined : true;
    }, 'the device going offline');
    const offline = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.drop_code,
    });
    assert.equal(offline.status, 409);
    assert.equal(offline.body.error_code, 'LOCKER_DEVICE_OFFLINE');
    const reboot = await world.api.post(
      `/api/v1/lockers/devices/${world.deviceId}/commands`,
      { action: 'reboot' },
      { token: world.admin },
    );
    assert.equal(reboot.status, 409);
    // Offline, its free compartments are not offered either.
    const none = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId },
      { token: world.admin },
    );
    assert.equal(none.body.error_code, 'LOCKER_NO_COMPARTMENT_FREE');
    world.device = await startDevice(server, world.brokerUrl, world.deviceId, world.credential);
    devices.push(world.device);
    const deposit = await openWith(world, booking.reference, codes.drop_code);
    assert.equal(deposit.settled.booking.state, 'occupied');
  });

  it('fails a command the device does not answer in time, and never sends it again', async () => {
    await world.device.stop();
    const silent = await startDevice(server, world.brokerUrl, world.deviceId, world.credential, {
      respond: false,
    });
    devices.push(silent);
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, size_class: 'S' },
        { token: world.admin },
      )
    ).body;
    const sent = await world.api.post('/api/v1/lockers/open', {
      reference: booking.reference,
      code: codes.drop_code,
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await eventually(
      () => (silent.received.length > 0 ? true : undefined),
      'the command reaching the device',
    );
    server.clock.advance(16_000);
    await silent.heartbeat();
    server.app.outbox.poke();
    const failed = await eventually(async () => {
      const now = await world.api.get(`/api/v1/lockers/open/${booking.reference}`);
      return now.body.command.status === 'failed' ? now.body : undefined;
    }, 'the deadline');
    assert.equal(failed.booking.state, 'reserved');
    assert.equal(failed.booking.opening, null);
    // A late answer changes nothing.
    await silent.publishRaw(
      `tms/devices/${world.deviceId}/up`,
      JSON.stringify({ type: 'ack', command_id: sent.body.command.id, ok: true }),
    );
    await silent.heartbeat();
    const still = await world.api.get(`/api/v1/lockers/open/${booking.reference}`);
    assert.equal(still.body.command.status, 'failed');
    assert.equal(still.body.booking.state, 'reserved');
    assert.equal(silent.received.filter((command) => command.id === sent.body.command.id).length, 1);
    await silent.stop();
    world.device = await startDevice(server, world.brokerUrl, world.deviceId, world.credential);
    devices.push(world.device);
  });

  it('keeps a device to its own topics: it cannot hear or answer for another device', async () => {
    const second = await world.api.post(
      '/api/v1/lockers/devices',
      {
        site_id: world.siteId,
        kind: 'kiosk',
        name: 'Kiosk B',
        compartments: [{ number: 1, size_class: 'S', length_mm: 400, width_mm: 300, height_mm: 100 }],
      },
      { token: world.admin },
    );
    assert.equal(second.status, 200);
    const other = second.body.device.id as number;
    assert.equal(await world.device.subscribeRaw(`tms/devices/${other}/commands`), false);
    // A user token cannot connect as a device, nor a wrong credential.
    const refused = await mqtt
      .connectAsync(world.brokerUrl, {
        username: 'device',
        password: `tmsdev_${other}_${'A'.repeat(43)}`,
        reconnectPeriod: 0,
      })
      .then(
        (connection) => connection.endAsync().then(() => 'connected'),
        () => 'refused',
      );
    assert.equal(refused, 'refused');
    // Kiosk B (never connected) is offline; a door event published for it by device A is dropped.
    await world.device.publishRaw(
      `tms/devices/${other}/up`,
      JSON.stringify({ type: 'door', compartment: 1, state: 'opened' }),
    );
    await world.device.heartbeat();
    const ledger = await world.api.get('/api/v1/lockers/ledger?per_page=200', { token: world.admin });
    assert.ok(
      !ledger.body.entries.some((entry: { device_id: number | null }) => entry.device_id === other),
      'no row for the other device',
    );
    const site = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
    assert.equal(site.body.site.devices.find((d: { id: number }) => d.id === other).online, false);
  });

  it('reads sites and the ledger through GraphQL, as over REST', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${world.admin}` },
    });
    const answer = await graphql.request<{
      lockerSites: {
        sites: Array<{ name: string; devices: Array<{ online: boolean; compartments: unknown[] }> }>;
      };
      lockerLedger: { entries: Array<{ kind: string; code_ref: string | null }> };
    }>(gql`
      {
        lockerSites {
          sites {
            name
            devices {
              online
              compartments {
                number
                state
              }
            }
          }
        }
        lockerLedger(per_page: 200) {
          entries {
            kind
            code_ref
          }
        }
      }
    `);
    assert.equal(answer.lockerSites.sites[0]?.name, 'Central Station');
    assert.equal(answer.lockerSites.sites[0]?.devices[0]?.online, true);
    const rest = await world.api.get('/api/v1/lockers/ledger?per_page=200', { token: world.admin });
    assert.deepEqual(
      answer.lockerLedger.entries.map((entry) => entry.kind),
      rest.body.entries.map((entry: { kind: string }) => entry.kind),
    );
    // The ledger only grows: it pages by cursor too, oldest first, each page after the one before.
    assert.equal(rest.body.next_cursor, null);
    assert.ok(rest.body.total >= 3, JSON.stringify(rest.body.total));
    const walked: number[] = [];
    let page = await world.api.get('/api/v1/lockers/ledger?per_page=2', { token: world.admin });
    // Bounded: a cursor that went nowhere would otherwise walk until the test timed out.
    for (let pages = 1; pages <= rest.body.total; pages++) {
      assert.equal(page.body.total, rest.body.total);
      walked.push(...page.body.entries.map((entry: { id: number }) => entry.id));
      if (page.body.next_cursor === null) break;
      page = await world.api.get(`/api/v1/lockers/ledger?per_page=2&cursor=${page.body.next_cursor}`, {
        token: world.admin,
      });
    }
    assert.deepEqual(
      walked,
      rest.body.entries.map((entry: { id: number }) => entry.id),
    );
    assert.equal(page.body.page, Math.ceil(rest.body.total / 2), 'the last page says where it sits');
    // A device's commands: newest first, in the envelope of every list.
    const commands = await world.api.get(`/api/v1/lockers/devices/${world.deviceId}/commands?per_page=1`, {
      token: world.admin,
    });
    assert.equal(commands.status, 200, JSON.stringify(commands.body));
    assert.ok(commands.body.total >= 1, 'the flows above opened doors');
    assert.deepEqual([commands.body.page, commands.body.per_page, commands.body.commands.length], [1, 1, 1]);
  });

  it('refuses to change or delete a ledger row, by any role, and offers no operation that would', async () => {
    for (const statement of [
      'UPDATE locker_ledger SET kind = kind',
      'DELETE FROM locker_ledger',
      'TRUNCATE locker_ledger',
    ]) {
      await assert.rejects(server.pool.query(statement), /append-only/);
    }
    const writes = server.app.catalog.list().filter((op) => op.kind === 'mutation' && /ledger/.test(op.name));
    assert.deepEqual(
      writes.map((op) => op.name),
      [],
    );
  });

  it('hands an item over between two named people: only the receiver collects', async () => {
    const [giverId, receiverId] = await server.app.services.accounts.createUsers(
      server.db,
      ['giver', 'receiver'].map((name) => ({
        kind: 'customer' as const,
        email: `${name}@lockers.test`,
        name,
        businessId: world.operator.businessId,
        contractorCompanyId: null,
      })),
      await storedPassword(server.app.services),
    );
    assert.ok(giverId && receiverId);
    const giver = await login(world.api, 'giver@lockers.test');
    const receiver = await login(world.api, 'receiver@lockers.test');
    const stranger = await login(world.api, world.operator.emails.customer);
    const { booking, codes } = (
      await world.api.post(
        '/api/v1/lockers/bookings',
        { site_id: world.siteId, purpose: 'handover', size_class: 'S', recipient_user_id: receiverId },
        { token: giver },
      )
    ).body;
    assert.equal(booking.purpose, 'handover');
    const byStranger = await world.api.post(
      '/api/v1/lockers/open',
      { reference: booking.reference, code: codes.drop_code },
      { token: stranger },
    );
    assert.equal(byStranger.body.error_code, 'LOCKER_NOT_YOUR_HANDOVER');
    await openWith(world, booking.reference, codes.drop_code, giver);
    const notReceiver = await world.api.post(
      '/api/v1/lockers/open',
      { reference: booking.reference, code: codes.pickup_code },
      { token: giver },
    );
    assert.equal(notReceiver.status, 403);
    const taken = await openWith(world, booking.reference, codes.pickup_code, receiver);
    assert.equal(taken.settled.booking.state, 'collected');
    const ledger = await world.api.get(`/api/v1/lockers/ledger?booking_id=${booking.id}`, {
      token: world.admin,
    });
    const people = ledger.body.entries
      .filter((entry: { kind: string }) => entry.kind === 'code_accepted')
      .map((entry: { actor: { user_id: number } }) => entry.actor.user_id);
    assert.deepEqual(people, [giverId, receiverId]);
  });

  it('sends a parcel from the locker as a device order, collected by the business', async () => {
    const customer = await login(world.api, world.operator.emails.customer);
    const sent = await world.api.post(
      '/api/v1/lockers/sends',
      {
        site_id: world.siteId,
        dropoff: { line1: '5 Rue de la République', city: 'Lyon' },
        packages: [{ length_mm: 300, width_mm: 200, height_mm: 80 }],
      },
      { token: customer },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const made = await world.api.get(`/api/v1/client/orders/${sent.body.order_id}`, { token: world.admin });
    assert.equal(made.body.order.family, 'device_order');
    assert.equal(made.body.order.shipping_price, 4.9);
    await openWith(world, sent.body.booking.reference, sent.body.drop_code, customer);
    const driver = await login(world.api, world.operator.emails.driver);
    const collected = await world.api.post(
      `/api/v1/lockers/bookings/${sent.body.booking.id}/collect`,
      {},
      { token: driver },
    );
    assert.equal(collected.status, 200, JSON.stringify(collected.body));
    await eventually(async () => {
      const read = await world.api.get(`/api/v1/client/orders/${sent.body.order_id}`, { token: world.admin });
      return read.body.order.status === 'PICKED_UP' ? true : undefined;
    }, 'the collection');
  });

  it('keeps storage sold at the kiosk read-only, with its history', async () => {
    const paidUntil = new Date(server.clock.now().getTime() + 4 * 3_600_000).toISOString();
    const site = await world.api.get(`/api/v1/lockers/sites/${world.siteId}`, { token: world.admin });
    const free = site.body.site.devices[0].compartments
      .filter((c: { state: string }) => c.state === 'free')
      .at(-1);
    await world.device.publishRaw(
      `tms/devices/${world.deviceId}/up`,
      JSON.stringify({
        type: 'storage_started',
        compartment: free.number,
        reference: 'kiosk-storage-0001',
        pickup_code: '24681357',
        paid_until: paidUntil,
      }),
    );
    const stored = await eventually(async () => {
      const list = await world.api.get('/api/v1/lockers/storage?state=occupied', { token: world.admin });
      return list.body.bookings[0];
    }, 'the storage period');
    assert.equal(stored.compartment.number, free.number);
    assert.equal(stored.paid_until, paidUntil);
    const taken = await openWith(world, 'kiosk-storage-0001', '24681357');
    assert.equal(taken.settled.booking.state, 'collected');
    const read = await world.api.get(`/api/v1/lockers/storage/${stored.id}`, { token: world.admin });
    assert.deepEqual(
      read.body.history
        .map((entry: { kind: string }) => entry.kind)
        .filter((k: string) => !k.startsWith('door')),
      ['storage_started', 'code_accepted', 'command_acked', 'pickup'],
    );
    // No operation of the Locker Storage family writes.
    const storageOps = server.app.catalog.list().filter((op) => op.tag === 'Locker Storage');
    assert.ok(storageOps.length >= 2 && storageOps.every((op) => op.kind === 'query'));
  });

  it('relays a bag between sites in hops, with its chain of custody', async () => {
    const relay = await world.api.post(
      '/api/v1/luggage/relays',
      {
        bag_tag: 'LYS-0042',
        owner_name: 'A. Traveller',
        site_ids: [world.siteId, world.siteId],
        size_class: 'L',
      },
      { token: world.admin },
    );
    assert.equal(relay.status, 200, JSON.stringify(relay.body));
    assert.equal(relay.body.hops.length, 2);
    for (const hop of relay.body.hops) {
      await openWith(world, hop.booking.reference, hop.codes.drop_code);
      await openWith(world, hop.booking.reference, hop.codes.pickup_code);
    }
    const again = await world.api.post(
      '/api/v1/luggage/relays',
      { bag_tag: 'LYS-0042', site_ids: [world.siteId] },
      { token: world.admin },
    );
    assert.equal(again.body.error_code, 'LUGGAGE_TAG_TAKEN');
    const read = await world.api.get(`/api/v1/luggage/relays/${relay.body.relay_id}`, { token: world.admin });
    assert.deepEqual(
      read.body.relay.hops.map((hop: { hop: number; state: string }) => [hop.hop, hop.state]),
      [
        [1, 'collected'],
        [2, 'collected'],
      ],
    );
    const custody = read.body.relay.custody
      .filter((entry: { kind: string }) => entry.kind === 'deposit' || entry.kind === 'pickup')
      .map((entry: { kind: string; booking_id: number }) => entry.kind);
    assert.deepEqual(custody, ['deposit', 'pickup', 'deposit', 'pickup']);
  });

  it('resells compartments to another business: its quota holds, and no tenant sees another’s', async () => {
    const tenant = await createTenant(server.db, server.app.services, 'renter');
    const rival = await createTenant(server.db, server.app.services, 'rival');
    const tenantAdmin = await login(world.api, tenant.emails.client_admin);
    const rivalAdmin = await login(world.api, rival.emails.client_admin);
    const offered = await world.api.call('PUT', '/api/v1/lockers/quotas', {
      body: {
        site_id: world.siteId,
        tenant_business_id: tenant.businessId,
        size_class: 'L',
        compartments: 1,
        price: 30,
        currency: 'EUR',
        period: 'month',
        starts_on: '2026-11-01',
      },
      token: world.admin,
    });
    assert.equal(offered.status, 200, JSON.stringify(offered.body));
    const first = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId, size_class: 'L' },
      { token: tenantAdmin },
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    await openWith(world, first.body.booking.reference, first.body.codes.drop_code);
    const second = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId, size_class: 'L' },
      { token: tenantAdmin },
    );
    assert.equal(second.body.error_code, 'LOCKER_QUOTA_EXHAUSTED');
    // The tenant sees the site with only its own compartment, and its own ledger rows.
    const seen = await world.api.get('/api/v1/lockers/sites', { token: tenantAdmin });
    const compartments = seen.body.sites[0].devices.flatMap(
      (d: { compartments: unknown[] }) => d.compartments,
    );
    assert.deepEqual(
      compartments.map((c: { id: number }) => c.id),
      [first.body.booking.compartment.id],
    );
    const tenantLedger = await world.api.get('/api/v1/lockers/ledger?per_page=200', { token: tenantAdmin });
    assert.ok(tenantLedger.body.entries.length > 0);
    assert.ok(
      tenantLedger.body.entries.every(
        (entry: { booking_id: number }) => entry.booking_id === first.body.booking.id,
      ),
    );
    const quotas = await world.api.get('/api/v1/lockers/quotas', { token: tenantAdmin });
    assert.equal(quotas.body.quotas[0].in_use, 1);
    // A business with no quota learns nothing of the site.
    const rivalSites = await world.api.get('/api/v1/lockers/sites', { token: rivalAdmin });
    assert.deepEqual(rivalSites.body.sites, []);
    const rivalBooks = await world.api.post(
      '/api/v1/lockers/bookings',
      { site_id: world.siteId },
      { token: rivalAdmin },
    );
    assert.equal(rivalBooks.body.error_code, 'LOCKER_SITE_NOT_FOUND');
    const rivalReads = await world.api.get(`/api/v1/lockers/bookings/${first.body.booking.id}`, {
      token: rivalAdmin,
    });
    assert.equal(rivalReads.status, 404);
    const rivalLedger = await world.api.get('/api/v1/lockers/ledger', { token: rivalAdmin });
    assert.deepEqual(rivalLedger.body.entries, []);
  });
});
