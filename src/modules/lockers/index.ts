// The lockers module (sites, devices and compartments, bookings and their openings, the device
// protocol over MQTT, the ledger of handlings, device orders, locker resale, luggage relay and
// locker storage): what the composition root may use.

import type { Operation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { OrdersService } from '../orders/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import { LockerBookings } from './bookings.ts';
import { LockerCommands } from './commands.ts';
import { DeviceLink } from './device-link.ts';
import { DeviceOrders } from './device-orders.ts';
import { Devices } from './devices.ts';
import { lockerFlowOperations } from './flow-operations.ts';
import { LockerLedger } from './ledger.ts';
import { lockerOperations } from './operations.ts';
import { LockerOrderSide, type LockerRoutes } from './order-side.ts';
import { DeviceTopics } from './protocol.ts';
import { LuggageRelays } from './relays.ts';
import { LockerResale } from './resale.ts';
import { LockerSites } from './sites.ts';

export { PICKUP_DEADLINE_TOPIC } from './bookings.ts';
export { COMMAND_TOPIC } from './commands.ts';
export type { DevicePrincipal } from './device-link.ts';
export type { LockerRoutes, LockerSiteDrop } from './order-side.ts';
export { credentialDevice, DeviceTopics } from './protocol.ts';
export { LockerSimulator } from './simulator.ts';

export interface LockerSettings {
  topicPrefix: string;
  /** A device not heard for this long is offline. */
  offlineAfterMs: number;
  /** How long a device has to answer a command. */
  commandTtlMs: number;
  /** How soon a command the broker could not take is published again, while still due. */
  retryMs: number;
}

/** The module's parts, assembled. */
export class LockersService {
  readonly devices: Devices;
  readonly commands: LockerCommands;
  readonly bookings: LockerBookings;
  readonly sites: LockerSites;
  readonly link: DeviceLink;
  readonly ledger = new LockerLedger();
  readonly deviceOrders: DeviceOrders;
  readonly resale: LockerResale;
  readonly relays: LuggageRelays;

  constructor(
    clock: Clock,
    settings: LockerSettings,
    orders: OrdersService,
    tracking: TrackingService,
    businessExists: (db: Queryable, id: number) => Promise<boolean>,
    /** What a delivery booking does to its order's route stops (dispatch's, handed over). */
    routes: LockerRoutes,
  ) {
    const topics = new DeviceTopics(settings.topicPrefix);
    this.devices = new Devices(settings.offlineAfterMs);
    this.commands = new LockerCommands(clock, topics, {
      ttlMs: settings.commandTtlMs,
      retryMs: settings.retryMs,
    });
    this.bookings = new LockerBookings(
      clock,
      this.devices,
      this.commands,
      new LockerOrderSide(clock, orders, tracking, routes),
    );
    this.sites = new LockerSites(clock, this.devices, this.commands);
    this.link = new DeviceLink(clock, this.bookings, topics);
    this.deviceOrders = new DeviceOrders(this.sites, this.bookings, orders);
    this.resale = new LockerResale(clock, this.sites, businessExists);
    this.relays = new LuggageRelays(clock, this.bookings);
  }

  operations(): Operation[] {
    return [
      ...lockerOperations(this.sites, this.bookings, this.ledger),
      ...lockerFlowOperations(this.deviceOrders, this.resale, this.relays, this.bookings),
    ];
  }
}
