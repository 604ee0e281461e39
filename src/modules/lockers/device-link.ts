import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { BrokerPolicy } from '../../platform/mqtt/broker.ts';
import type { LockerBookings } from './bookings.ts';
import { credentialMatches } from './codes.ts';
import { credentialDevice, type DeviceTopics, parseUp } from './protocol.ts';
import * as repo from './repository.ts';

/** A device connected to the broker with its own credential. */
export interface DevicePrincipal {
  deviceId: number;
  businessId: number;
}

/**
 * The service's end of the device protocol: who a device is on the broker, what it may publish
 * and hear (its own two topics only), and what its messages change.
 */
export class DeviceLink {
  /** Live connections of each device to this instance's embedded broker. */
  private readonly connections = new Map<number, number>();
  /** Each device's last write in hand: its connections, messages and departures apply in order. */
  private readonly inHand = new Map<number, Promise<void>>();

  constructor(
    private readonly clock: Clock,
    private readonly bookings: LockerBookings,
    readonly topics: DeviceTopics,
  ) {}

  /** The embedded broker's rules for device credentials (user tokens go to the other policies). */
  policy(db: Queryable): BrokerPolicy<DevicePrincipal> & { claims(password: string): boolean } {
    return {
      claims: (password) => credentialDevice(password) !== null,
      authenticate: async (password) => {
        const deviceId = credentialDevice(password);
        if (deviceId === null) return null;
        const device = await repo.deviceById(db, deviceId);
        if (!device || !credentialMatches(password, device.credential_hash)) return null;
        return { deviceId, businessId: device.business_id };
      },
      connected: (device) => {
        this.connections.set(device.deviceId, (this.connections.get(device.deviceId) ?? 0) + 1);
        const at = this.clock.now();
        return this.inTurn(device.deviceId, () => repo.deviceConnected(db, device.deviceId, at));
      },
      maySubscribe: async (device, topic) => topic === this.topics.commands(device.deviceId),
      mayReceive: (device, topic) => topic === this.topics.commands(device.deviceId),
      mayPublish: (device, topic) => topic === this.topics.up(device.deviceId),
      published: (device, _topic, payload) =>
        this.inTurn(device.deviceId, () => this.receive(db, device.deviceId, payload)),
      disconnected: async (device) => {
        // A device reconnecting under its client id is taken over: its old connection ends after
        // the new one began, and must not mark it offline.
        const left = (this.connections.get(device.deviceId) ?? 1) - 1;
        if (left > 0) return void this.connections.set(device.deviceId, left);
        this.connections.delete(device.deviceId);
        const at = this.clock.now();
        await this.inTurn(device.deviceId, () => repo.deviceDisconnected(db, device.deviceId, at));
      },
    };
  }

  /**
   * Runs a device's write after the ones it was told before. On separate pooled connections an
   * old connection's departure could otherwise land after the new connection's arrival, and
   * show a connected device offline.
   */
  private inTurn(deviceId: number, write: () => Promise<unknown>): Promise<void> {
    const turn = (this.inHand.get(deviceId) ?? Promise.resolve()).then(write).then(() => undefined);
    const settled = turn.catch(() => undefined);
    this.inHand.set(deviceId, settled);
    void settled.then(() => {
      if (this.inHand.get(deviceId) === settled) this.inHand.delete(deviceId);
    });
    return turn;
  }

  /**
   * One message a device published on its up topic (the embedded broker's hook, or the shared
   * subscription on an external broker). Whatever the protocol does not know is dropped.
   */
  async receive(db: Queryable, deviceId: number, payload: Buffer | string): Promise<void> {
    const message = parseUp(payload);
    if (!message) return;
    const now = this.clock.now();
    await repo.deviceHeard(db, deviceId, now, message.type === 'heartbeat' ? message.firmware : undefined);
    if (message.type === 'ack') await this.bookings.answered(db, deviceId, message);
    else if (message.type === 'door') await this.door(db, deviceId, message, now);
    else if (message.type === 'storage_started') await this.bookings.storageStarted(db, deviceId, message);
  }

  private async door(
    db: Queryable,
    deviceId: number,
    message: { compartment: number; state: 'opened' | 'closed'; occupied?: boolean },
    now: Date,
  ) {
    const compartment = await repo.compartmentOfDevice(db, deviceId, message.compartment);
    if (!compartment) return;
    const booking =
      compartment.booking_id === null ? undefined : await repo.bookingById(db, compartment.booking_id);
    await repo.appendLedger(db, [
      {
        ...(booking
          ? this.bookings.placeOf(booking)
          : { business_id: compartment.business_id, site_id: compartment.site_id, device_id: deviceId }),
        compartment_id: compartment.id,
        kind: message.state === 'opened' ? 'door_opened' : 'door_closed',
        actor_kind: 'device',
        actor_user_id: null,
        details: message.occupied === undefined ? {} : { occupied: message.occupied },
        at: now,
      },
    ]);
  }
}
