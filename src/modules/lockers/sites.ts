import type { z } from 'zod';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { minorDigits, toMajor } from '../../platform/money.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import { actorOf } from './bookings.ts';
import { hashCredential, newDeviceCredential } from './codes.ts';
import type { LockerCommands } from './commands.ts';
import type { Devices } from './devices.ts';
import * as repo from './repository.ts';
import { type compartmentInput, MAX_DEVICES_PER_SITE } from './schemas.ts';
import type { DeviceKind } from './tables.ts';
import { commandView, compartmentView, deviceView, siteView } from './views.ts';

type Address = {
  line1: string;
  city?: string;
  postal_code?: string;
  country?: string;
  lat?: number;
  lng?: number;
};

/**
 * Locker sites, their devices and compartments, as the operator business sets them up and as a
 * tenant (locker resale) sees them: the sites it holds a quota at, and of their compartments only
 * those holding its own bookings.
 */
export class LockerSites {
  constructor(
    private readonly clock: Clock,
    private readonly devices: Devices,
    private readonly commands: LockerCommands,
  ) {}

  async create(
    ctx: OperationContext,
    input: {
      name: string;
      address: Address;
      opening_hours?: string;
      hold_hours: number;
      send_price?: { amount: number; currency: string };
    },
  ) {
    const row = await repo.insertSite(ctx.db, {
      business_id: businessOf(ctx),
      name: input.name,
      address: input.address,
      lat: input.address.lat ?? null,
      lng: input.address.lng ?? null,
      opening_hours: input.opening_hours ?? null,
      hold_hours: input.hold_hours,
      send_price_minor: input.send_price
        ? Math.round(input.send_price.amount * 10 ** minorDigits(input.send_price.currency))
        : null,
      currency: input.send_price?.currency ?? null,
      created_at: this.clock.now(),
    });
    return { result: true as const, site: siteView(row, []) };
  }

  /** A new device with its compartments, and its credential: shown in this answer only. */
  async register(
    ctx: OperationContext,
    input: {
      site_id: number;
      kind: DeviceKind;
      name: string;
      compartments: z.infer<typeof compartmentInput>[];
    },
  ) {
    const site = await this.ownSite(ctx, input.site_id);
    const numbers = input.compartments.map((c) => c.number);
    const repeated = [...new Set(numbers.filter((n, i) => numbers.indexOf(n) !== i))];
    if (repeated.length > 0)
      throw new AppError('LOCKER_NUMBERS_TAKEN', { params: { numbers: repeated.join(', ') } });
    const present = await repo.devicesOfSites(ctx.db, [site.id]);
    if (present.length >= MAX_DEVICES_PER_SITE) {
      throw new AppError('LOCKER_SITE_FULL', { params: { limit: MAX_DEVICES_PER_SITE } });
    }
    const now = this.clock.now();
    // The credential names the device id, known once the row exists: a placeholder hash first.
    const device = await repo.insertDevice(ctx.db, {
      business_id: site.business_id,
      site_id: site.id,
      kind: input.kind,
      name: input.name,
      credential_hash: '',
      firmware: null,
      last_seen_at: null,
      disconnected_at: null,
      created_at: now,
    });
    const credential = newDeviceCredential(device.id);
    await repo.setCredential(ctx.db, device.id, hashCredential(credential));
    const compartments = await repo.insertCompartments(
      ctx.db,
      input.compartments.map((c) => ({
        business_id: site.business_id,
        device_id: device.id,
        site_id: site.id,
        number: c.number,
        size_class: c.size_class,
        length_mm: c.length_mm,
        width_mm: c.width_mm,
        height_mm: c.height_mm,
        booking_id: null,
      })),
    );
    return {
      result: true as const,
      device: deviceView(device, compartments, false),
      credential,
    };
  }

  /** A new credential for a device; the old one stops at once (a connected device is dropped within a minute). */
  async rotateCredential(ctx: OperationContext, deviceId: number) {
    const device = await this.ownDevice(ctx, deviceId);
    const credential = newDeviceCredential(device.id);
    await repo.setCredential(ctx.db, device.id, hashCredential(credential));
    return { result: true as const, device_id: device.id, credential };
  }

  async list(ctx: OperationContext) {
    const businessId = businessOf(ctx);
    const now = this.clock.now();
    const sites = await repo.sitesOf(ctx.db, businessId, now.toISOString().slice(0, 10));
    return { result: true as const, sites: await this.views(ctx, sites, now) };
  }

  async get(ctx: OperationContext, siteId: number) {
    const businessId = businessOf(ctx);
    const now = this.clock.now();
    const [site] = await repo.sitesOf(ctx.db, businessId, now.toISOString().slice(0, 10), [siteId]);
    if (!site) throw new AppError('LOCKER_SITE_NOT_FOUND', { params: { id: siteId } });
    const [view] = await this.views(ctx, [site], now);
    return { result: true as const, site: view! };
  }

  /** Sites with their devices; a tenant sees of the compartments only those its bookings hold. */
  private async views(ctx: OperationContext, sites: repo.SiteRow[], now: Date) {
    const businessId = businessOf(ctx);
    const ids = sites.map((site) => site.id);
    const [devices, compartments] = await Promise.all([
      repo.devicesOfSites(ctx.db, ids),
      repo.compartmentsOfSites(ctx.db, ids),
    ]);
    const tenantBookings = new Set(
      sites.some((site) => site.business_id !== businessId)
        ? (
            await repo.bookingsVisibleTo(ctx.db, businessId, {
              states: ['reserved', 'occupied'],
              limit: 10_000,
            })
          ).map((booking) => booking.id)
        : [],
    );
    return sites.map((site) => {
      const own = site.business_id === businessId;
      return siteView(
        site,
        devices
          .filter((device) => device.site_id === site.id)
          .map((device) =>
            deviceView(
              device,
              compartments.filter(
                (c) =>
                  c.device_id === device.id &&
                  (own || (c.booking_id !== null && tenantBookings.has(c.booking_id))),
              ),
              this.devices.online(device, now),
            ),
          ),
      );
    });
  }

  /** Out of order (not offered, not opened for new bookings), or back in service; only a free compartment goes out. */
  async setCompartmentState(ctx: OperationContext, input: { compartment_id: number; out_of_order: boolean }) {
    const compartment = await repo.compartmentById(ctx.db, input.compartment_id);
    if (!compartment || compartment.business_id !== businessOf(ctx)) {
      throw new AppError('LOCKER_COMPARTMENT_NOT_FOUND', { params: { id: input.compartment_id } });
    }
    const wanted = input.out_of_order ? 'out_of_order' : 'free';
    if (compartment.state === 'reserved' || compartment.state === 'occupied') {
      throw new AppError('LOCKER_COMPARTMENT_IN_USE', { params: { number: compartment.number } });
    }
    if (compartment.state !== wanted) {
      await repo.setCompartment(ctx.db, compartment.id, { state: wanted, booking_id: null });
      const actor = actorOf(ctx.caller, 'staff');
      await repo.appendLedger(ctx.db, [
        {
          business_id: compartment.business_id,
          site_id: compartment.site_id,
          device_id: compartment.device_id,
          compartment_id: compartment.id,
          kind: input.out_of_order ? 'out_of_order' : 'back_in_service',
          actor_kind: actor.kind,
          actor_user_id: actor.userId,
          at: this.clock.now(),
        },
      ]);
    }
    return { result: true as const, compartment: compartmentView({ ...compartment, state: wanted }) };
  }

  /** Staff command a device (reboot); refused while it is offline. */
  async command(ctx: OperationContext, input: { device_id: number; action: 'reboot' }) {
    const device = await this.ownDevice(ctx, input.device_id);
    const now = this.clock.now();
    if (!this.devices.online(device, now)) {
      throw new AppError('LOCKER_DEVICE_OFFLINE', { params: { device: device.name } });
    }
    const command = await this.commands.issue(ctx.db, {
      businessId: device.business_id,
      deviceId: device.id,
      action: input.action,
    });
    const actor = actorOf(ctx.caller, 'staff');
    await repo.appendLedger(ctx.db, [
      {
        business_id: device.business_id,
        site_id: device.site_id,
        device_id: device.id,
        command_id: command.id,
        kind: 'command_sent',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        details: { action: input.action },
        at: now,
      },
    ]);
    return { result: true as const, command: commandView(command) };
  }

  async commandsOf(ctx: OperationContext, input: { device_id: number } & PageQuery) {
    const device = await this.ownDevice(ctx, input.device_id);
    const { rows, total } = await repo.commandsOfDevice(ctx.db, device.id, pageWindow(input));
    return { result: true as const, ...envelopeOf(input, total), commands: rows.map(commandView) };
  }

  async ownSite(ctx: OperationContext, siteId: number) {
    const site = await repo.siteById(ctx.db, siteId);
    if (!site || site.business_id !== businessOf(ctx)) {
      throw new AppError('LOCKER_SITE_NOT_FOUND', { params: { id: siteId } });
    }
    return site;
  }

  private async ownDevice(ctx: OperationContext, deviceId: number) {
    const device = await repo.deviceById(ctx.db, deviceId);
    if (!device || device.business_id !== businessOf(ctx)) {
      throw new AppError('LOCKER_DEVICE_NOT_FOUND', { params: { id: deviceId } });
    }
    return device;
  }

  /** A site's send price for device orders, in major units, when it sells sends. */
  sendPriceOf(site: repo.SiteRow): { amount: number; currency: string } | null {
    return site.send_price_minor === null || site.currency === null
      ? null
      : { amount: toMajor(site.send_price_minor, site.currency), currency: site.currency };
  }
}
