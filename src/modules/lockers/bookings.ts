import { randomBytes } from 'node:crypto';
import type { Caller, OperationContext } from '../../platform/catalog/operation.ts';
import { businessOf } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import { codeMatches, codeRef, hashCode, newCode } from './codes.ts';
import type { LockerCommands } from './commands.ts';
import type { Devices } from './devices.ts';
import type { LockerOrderSide } from './order-side.ts';
import * as repo from './repository.ts';
import { MAX_CODE_ATTEMPTS } from './schemas.ts';
import type { ActorKind, BookingPurpose, Opening, SizeClass } from './tables.ts';
import { bookingView, commandView, ledgerView } from './views.ts';

/** Outbox topic: a deposited parcel's pickup deadline, when it goes back unless collected. */
export const PICKUP_DEADLINE_TOPIC = 'locker.pickup_deadline';

export interface ReserveInput {
  site_id: number;
  purpose: BookingPurpose;
  order_id?: number;
  size_class?: SizeClass;
  recipient_user_id?: number;
  recipient_name?: string;
  relay?: { id: number; hop: number };
}

export function actorOf(
  caller: Caller | null,
  anonymous: ActorKind,
): { kind: ActorKind; userId: number | null } {
  if (!caller) return { kind: anonymous, userId: null };
  const kind: ActorKind =
    caller.kind === 'driver' ? 'driver' : caller.kind === 'customer' ? 'customer' : 'staff';
  return { kind, userId: caller.userId };
}

/**
 * Bookings: a compartment held for one purpose, its two one-time codes, and the openings that
 * move it on. Every opening is a command to the device; what it changes happens when the device
 * answers that it opened, in one transaction with the ledger rows and the order's tracking.
 */
export class LockerBookings {
  constructor(
    private readonly clock: Clock,
    private readonly devices: Devices,
    private readonly commands: LockerCommands,
    private readonly orderSide: LockerOrderSide,
  ) {}

  /**
   * Holds the smallest free compartment of the site that takes the order's packages (or of the
   * size class asked) on an online device. A site of another business needs a quota there.
   */
  async reserve(ctx: OperationContext, input: ReserveInput) {
    const businessId = businessOf(ctx);
    const site = await repo.siteById(ctx.db, input.site_id);
    if (!site) throw new AppError('LOCKER_SITE_NOT_FOUND', { params: { id: input.site_id } });
    const order = input.order_id === undefined ? undefined : await this.orderSide.order(ctx, input.order_id);
    const boxes = (order?.packages ?? []).map((pkg) =>
      [pkg.length_mm ?? 1, pkg.width_mm ?? 1, pkg.height_mm ?? 1].sort((a, b) => b - a),
    );
    const volume = boxes.reduce((sum, [a, b, c]) => sum + a! * b! * c!, 0);
    const now = this.clock.now();
    // A tenant (locker resale) books only the size classes its quotas there have room in.
    const rented =
      site.business_id === businessId ? null : await this.quotaRoom(ctx.db, businessId, site, now);
    const candidates = await repo.freeCompartments(
      ctx.db,
      site.id,
      { ...(input.size_class ? { sizeClass: input.size_class } : {}), volume },
      this.devices.onlineSince(now),
    );
    const compartment = candidates.find((c) => {
      const sides = [c.length_mm, c.width_mm, c.height_mm].sort((a, b) => b - a);
      return (
        (!rented || rented.room.has(c.size_class)) &&
        boxes.every((box) => box.every((side, i) => side! <= sides[i]!))
      );
    });
    if (!compartment) {
      if (rented && candidates.length > 0) {
        throw new AppError('LOCKER_QUOTA_EXHAUSTED', {
          params: {
            site: site.name,
            size: input.size_class ?? candidates[0]!.size_class,
            quota: rented.total,
          },
        });
      }
      throw new AppError('LOCKER_NO_COMPARTMENT_FREE', { params: { site: site.name } });
    }
    const dropCode = newCode();
    const pickupCode = newCode();
    const booking = await repo.insertBooking(ctx.db, {
      business_id: businessId,
      operator_business_id: site.business_id,
      reference: randomBytes(9).toString('base64url'),
      site_id: site.id,
      device_id: compartment.device_id,
      compartment_id: compartment.id,
      purpose: input.purpose,
      order_id: order?.id ?? null,
      relay_id: input.relay?.id ?? null,
      hop: input.relay?.hop ?? null,
      state: 'reserved',
      opening: null,
      opening_command_id: null,
      drop_code_hash: hashCode(dropCode),
      pickup_code_hash: hashCode(pickupCode),
      pickup_expires_at: null,
      locked_at: null,
      recipient_user_id: input.recipient_user_id ?? null,
      recipient_name: input.recipient_name ?? null,
      paid_until: null,
      created_by: ctx.caller?.userId ?? null,
      created_at: now,
      deposited_at: null,
      finished_at: null,
    });
    await repo.setCompartment(ctx.db, compartment.id, { state: 'reserved', booking_id: booking.id });
    const actor = actorOf(ctx.caller, 'system');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        kind: 'reserved',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        details: { purpose: booking.purpose },
        at: now,
      },
    ]);
    await this.orderSide.reserved(ctx, booking, site);
    return {
      result: true as const,
      booking: bookingView(booking, compartment),
      codes: { drop_code: dropCode, pickup_code: pickupCode },
    };
  }

  /**
   * The size classes a tenant's quotas at a site have room in today, counted under the quotas'
   * row locks so two reservations at once count one after the other. A business with no quota
   * there does not learn the site exists.
   */
  private async quotaRoom(db: Queryable, tenantId: number, site: repo.SiteRow, now: Date) {
    const quotas = await repo.quotasAt(db, tenantId, site.id, now.toISOString().slice(0, 10));
    if (quotas.length === 0) throw new AppError('LOCKER_SITE_NOT_FOUND', { params: { id: site.id } });
    const room = new Set<SizeClass>();
    for (const quota of quotas) {
      const { n } = await repo.tenantHolding(db, tenantId, site.id, quota.size_class);
      if (Number(n) < quota.compartments) room.add(quota.size_class);
    }
    return { room, total: quotas.reduce((sum, quota) => sum + quota.compartments, 0) };
  }

  /**
   * A code given at the locker or in the app opens the booking's compartment: the drop code while
   * it waits for the deposit, the pickup code once deposited and until its deadline. Wrong codes
   * count against the booking; at the limit it locks (kept even though the call is refused).
   */
  async open(ctx: OperationContext, input: { reference: string; code: string }) {
    // Locked: two openings of one booking (racing pickups, wrong codes) count one after the other.
    const booking = await repo.bookingByReference(ctx.db, input.reference);
    if (!booking) throw new AppError('LOCKER_BOOKING_NOT_FOUND', { params: { id: input.reference } });
    if (booking.locked_at) throw new AppError('LOCKER_CODE_LOCKED');
    if (!['reserved', 'occupied', 'expired'].includes(booking.state)) {
      throw new AppError('LOCKER_BOOKING_CLOSED', { params: { state: booking.state } });
    }
    const now = this.clock.now();
    const opening: Opening = booking.state === 'reserved' ? 'deposit' : 'pickup';
    const stored = opening === 'deposit' ? booking.drop_code_hash : booking.pickup_code_hash;
    if (!codeMatches(input.code, stored)) return this.refuseCode(ctx, booking, now);
    if (booking.state === 'expired' || (booking.pickup_expires_at && booking.pickup_expires_at <= now)) {
      throw new AppError('LOCKER_CODE_EXPIRED');
    }
    this.checkPerson(ctx.caller, booking, opening);
    const command = await this.openCompartment(ctx.db, booking, opening, now);
    const actor = actorOf(ctx.caller, opening === 'deposit' ? 'customer' : 'recipient');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        command_id: command.id,
        kind: 'code_accepted',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        code_ref: codeRef(opening === 'deposit' ? 'drop' : 'pickup', stored!),
        details: { opening },
        at: now,
      },
    ]);
    const compartment = await repo.compartmentById(ctx.db, booking.compartment_id);
    return {
      result: true as const,
      opening,
      booking: bookingView({ ...booking, opening, opening_command_id: command.id }, compartment!),
      command: commandView(command),
    };
  }

  /** A handover's two sides are people: the giver deposits, and only the named receiver collects. */
  private checkPerson(caller: Caller | null, booking: repo.BookingRow, opening: Opening) {
    if (booking.purpose !== 'handover') return;
    const expected = opening === 'deposit' ? booking.created_by : booking.recipient_user_id;
    if (expected !== null && caller?.userId !== expected) throw new AppError('LOCKER_NOT_YOUR_HANDOVER');
  }

  private async refuseCode(ctx: OperationContext, booking: repo.BookingRow, now: Date): Promise<never> {
    const attempts = booking.failed_attempts + 1;
    const locked = attempts >= MAX_CODE_ATTEMPTS;
    await repo.updateBooking(ctx.db, booking.id, {
      failed_attempts: attempts,
      ...(locked ? { locked_at: now } : {}),
    });
    const actor = actorOf(ctx.caller, 'recipient');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        kind: locked ? 'booking_locked' : 'code_refused',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        details: { attempts },
        at: now,
      },
    ]);
    throw new AppError(locked ? 'LOCKER_CODE_LOCKED' : 'LOCKER_CODE_WRONG', {
      params: { left: MAX_CODE_ATTEMPTS - attempts },
      details: { attempts_left: Math.max(0, MAX_CODE_ATTEMPTS - attempts) },
      commit: true,
    });
  }

  /**
   * Sends the open command, once: a booking with one out is busy until the device answers or it
   * fails. The caller holds the booking's row lock.
   */
  private async openCompartment(db: Queryable, booking: repo.BookingRow, opening: Opening, now: Date) {
    if (booking.opening) throw new AppError('LOCKER_COMPARTMENT_BUSY');
    const device = await repo.deviceById(db, booking.device_id);
    if (!device || !this.devices.online(device, now)) {
      throw new AppError('LOCKER_DEVICE_OFFLINE', { params: { device: device?.name ?? booking.device_id } });
    }
    const compartment = await repo.compartmentById(db, booking.compartment_id);
    const command = await this.commands.issue(db, {
      businessId: booking.operator_business_id,
      deviceId: booking.device_id,
      action: 'open',
      compartment: { id: compartment!.id, number: compartment!.number },
      bookingId: booking.id,
    });
    await repo.updateBooking(db, booking.id, { opening, opening_command_id: command.id });
    return command;
  }

  /**
   * Staff of the booking's business or of the site take a parcel back out (expired, or to cancel a
   * deposit). The compartment opens like any other.
   */
  async retrieve(ctx: OperationContext, bookingId: number) {
    const booking = await this.visible(ctx, bookingId, true);
    if (booking.state !== 'occupied' && booking.state !== 'expired') {
      throw new AppError('LOCKER_BOOKING_CLOSED', { params: { state: booking.state } });
    }
    const now = this.clock.now();
    // A parcel sent from the locker is the courier's to collect; any other goes back.
    const opening: Opening =
      booking.purpose === 'send' && booking.state === 'occupied' ? 'pickup' : 'retrieval';
    const command = await this.openCompartment(ctx.db, booking, opening, now);
    const actor = actorOf(ctx.caller, 'staff');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        command_id: command.id,
        kind: opening === 'pickup' ? 'collection_requested' : 'retrieval_requested',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        at: now,
      },
    ]);
    return { result: true as const, command: commandView(command) };
  }

  /** A new pickup code for a locked or forgotten one: the attempts start again, the old code stops. */
  async reissue(ctx: OperationContext, bookingId: number) {
    const booking = await this.visible(ctx, bookingId, true);
    if (booking.state !== 'occupied' && booking.state !== 'reserved') {
      throw new AppError('LOCKER_BOOKING_CLOSED', { params: { state: booking.state } });
    }
    const code = newCode();
    const now = this.clock.now();
    const field = booking.state === 'reserved' ? 'drop_code_hash' : 'pickup_code_hash';
    const updated = await repo.updateBooking(ctx.db, booking.id, {
      [field]: hashCode(code),
      failed_attempts: 0,
      locked_at: null,
    });
    const actor = actorOf(ctx.caller, 'staff');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        kind: 'code_reissued',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        details: { code: booking.state === 'reserved' ? 'drop' : 'pickup' },
        at: now,
      },
    ]);
    const compartment = await repo.compartmentById(ctx.db, booking.compartment_id);
    return {
      result: true as const,
      booking: bookingView(updated, compartment!),
      code,
    };
  }

  /** A reservation nothing was deposited in gives its compartment back. */
  async cancel(ctx: OperationContext, bookingId: number) {
    const booking = await this.visible(ctx, bookingId, true);
    if (booking.state !== 'reserved' || booking.opening) {
      throw new AppError('LOCKER_BOOKING_CLOSED', { params: { state: booking.state } });
    }
    const now = this.clock.now();
    const updated = await repo.updateBooking(ctx.db, booking.id, { state: 'cancelled', finished_at: now });
    await repo.setCompartment(ctx.db, booking.compartment_id, { state: 'free', booking_id: null });
    const actor = actorOf(ctx.caller, 'staff');
    await repo.appendLedger(ctx.db, [
      {
        ...this.placeOf(booking),
        kind: 'cancelled',
        actor_kind: actor.kind,
        actor_user_id: actor.userId,
        at: now,
      },
    ]);
    await this.orderSide.cancelled(ctx, booking);
    const compartment = await repo.compartmentById(ctx.db, booking.compartment_id);
    return { result: true as const, booking: bookingView(updated, compartment!) };
  }

  /** Where an opening stands, for whoever holds the reference (the person at the locker). */
  async opening(ctx: OperationContext, reference: string) {
    const found = await repo.bookingByReference(ctx.db, reference, false);
    if (!found) throw new AppError('LOCKER_BOOKING_NOT_FOUND', { params: { id: reference } });
    // The command first, then the booking: an answer moves both in one commit, so the booking
    // read after an answered command always shows what that answer did.
    const command = await repo.lastOpenCommand(ctx.db, found.id);
    const booking = (await repo.bookingById(ctx.db, found.id))!;
    const compartment = await repo.compartmentById(ctx.db, booking.compartment_id);
    return {
      result: true as const,
      booking: bookingView(booking, compartment!),
      command: command ? commandView(command) : null,
    };
  }

  /**
   * A storage period a kiosk sold (its own flow: the device took the payment and printed the
   * code): the compartment is occupied until `paid_until`, and the code the kiosk gave opens it.
   */
  async storageStarted(
    db: Queryable,
    deviceId: number,
    started: { compartment: number; reference: string; pickup_code: string; paid_until: string },
  ) {
    await inTransaction(db, async (trx) => {
      const now = this.clock.now();
      const compartment = await repo.compartmentOfDevice(trx, deviceId, started.compartment, true);
      const paidUntil = new Date(started.paid_until);
      if (compartment?.state !== 'free' || !(paidUntil > now)) return;
      const booking = await repo.insertBooking(trx, {
        business_id: compartment.business_id,
        operator_business_id: compartment.business_id,
        reference: started.reference,
        site_id: compartment.site_id,
        device_id: deviceId,
        compartment_id: compartment.id,
        purpose: 'storage',
        order_id: null,
        relay_id: null,
        hop: null,
        state: 'occupied',
        opening: null,
        opening_command_id: null,
        drop_code_hash: null,
        pickup_code_hash: hashCode(started.pickup_code),
        pickup_expires_at: paidUntil,
        locked_at: null,
        recipient_user_id: null,
        recipient_name: null,
        paid_until: paidUntil,
        created_by: null,
        created_at: now,
        deposited_at: now,
        finished_at: null,
      });
      await repo.setCompartment(trx, compartment.id, { state: 'occupied', booking_id: booking.id });
      await this.pickupDeadline(trx, booking, paidUntil);
      await repo.appendLedger(trx, [
        {
          ...this.placeOf(booking),
          kind: 'storage_started',
          actor_kind: 'device',
          actor_user_id: null,
          details: { paid_until: paidUntil.toISOString() },
          at: now,
        },
      ]);
    });
  }

  /** A storage period with its history (the ledger of its booking). */
  async storagePeriod(ctx: OperationContext, bookingId: number) {
    const booking = await this.visible(ctx, bookingId, false);
    if (booking.purpose !== 'storage')
      throw new AppError('LOCKER_BOOKING_NOT_FOUND', { params: { id: bookingId } });
    const [compartment, history] = await Promise.all([
      repo.compartmentById(ctx.db, booking.compartment_id),
      repo.ledgerOfBooking(ctx.db, businessOf(ctx), bookingId),
    ]);
    return {
      result: true as const,
      booking: bookingView(booking, compartment!),
      history: history.map(ledgerView),
    };
  }

  async get(ctx: OperationContext, bookingId: number) {
    const booking = await this.visible(ctx, bookingId, false);
    const compartment = await repo.compartmentById(ctx.db, booking.compartment_id);
    return { result: true as const, booking: bookingView(booking, compartment!) };
  }

  async list(
    ctx: OperationContext,
    query: {
      site_id?: number;
      order_id?: number;
      purpose?: BookingPurpose;
      state?: string;
    } & CursorPageQuery,
  ) {
    const page = await repo.bookingsPage(
      ctx.db,
      businessOf(ctx),
      {
        ...(query.site_id !== undefined ? { siteId: query.site_id } : {}),
        ...(query.order_id !== undefined ? { orderId: query.order_id } : {}),
        ...(query.purpose !== undefined ? { purpose: query.purpose } : {}),
        ...(query.state !== undefined ? { states: [query.state] } : {}),
      },
      cursorWindow(query),
    );
    const compartments = await repo.compartmentsByIds(ctx.db, [
      ...new Set(page.rows.map((row) => row.compartment_id)),
    ]);
    const byId = new Map(compartments.map((c) => [c.id, c]));
    return {
      result: true as const,
      ...cursorEnvelopeOf(query, page),
      bookings: page.rows.map((row) => bookingView(row, byId.get(row.compartment_id)!)),
    };
  }

  /** A booking of the caller's business, or at a site it operates; another's is not found. */
  async visible(ctx: OperationContext, bookingId: number, lock: boolean) {
    const businessId = businessOf(ctx);
    const booking = await repo.bookingById(ctx.db, bookingId, lock);
    if (!booking || (booking.business_id !== businessId && booking.operator_business_id !== businessId)) {
      throw new AppError('LOCKER_BOOKING_NOT_FOUND', { params: { id: bookingId } });
    }
    return booking;
  }

  // ----- the device's answers -----

  /**
   * A device answered a command. Only a pending command of that device counts; one answered after
   * its deadline has failed already. An opening carries its booking on (deposited, collected,
   * retrieved); a refusal leaves the booking as it was, ready to try again.
   */
  async answered(db: Queryable, deviceId: number, ack: { command_id: string; ok: boolean; error?: string }) {
    await inTransaction(db, async (trx) => {
      const now = this.clock.now();
      const pending = await repo.commandById(trx, ack.command_id);
      if (!pending || pending.device_id !== deviceId) return;
      const late = pending.expires_at < now;
      const ok = ack.ok && !late;
      const command = await repo.answerCommand(trx, pending.id, deviceId, {
        status: ok ? 'acked' : 'failed',
        error: ok ? null : late ? 'answered after its deadline' : (ack.error ?? 'refused by the device'),
        answered_at: now,
      });
      if (!command) return;
      await this.settle(trx, command, now);
    });
  }

  /**
   * Commands still unanswered past their deadline have failed: run every second by the
   * background work of each instance (the conditional update lets them race). A sweep rather
   * than an outbox message per command, so a busy locker site's openings do not queue twice in
   * its business's outbox lane. Answers how many failed.
   */
  async failOverdueCommands(db: Queryable): Promise<number> {
    return inTransaction(db, async (trx) => {
      const now = this.clock.now();
      const failed = await repo.failOverdueCommands(trx, now, 'not answered in time', 500);
      for (const command of failed) await this.settle(trx, command, now);
      return failed.length;
    });
  }

  private async settle(db: Queryable, command: repo.CommandRow, now: Date) {
    const booking =
      command.booking_id === null ? undefined : await repo.bookingById(db, command.booking_id, true);
    const place = booking
      ? this.placeOf(booking)
      : {
          business_id: command.business_id,
          site_id: (await repo.deviceById(db, command.device_id))!.site_id,
        };
    const entries: repo.LedgerEntry[] = [
      {
        ...place,
        device_id: command.device_id,
        compartment_id: command.compartment_id,
        command_id: command.id,
        kind: command.status === 'acked' ? 'command_acked' : 'command_failed',
        actor_kind: 'device',
        actor_user_id: null,
        details: command.error
          ? { action: command.action, error: command.error }
          : { action: command.action },
        at: now,
      },
    ];
    if (booking && booking.opening_command_id === command.id && booking.opening) {
      if (command.status === 'acked') entries.push(await this.opened(db, booking, booking.opening, now));
      else await repo.updateBooking(db, booking.id, { opening: null, opening_command_id: null });
    }
    await repo.appendLedger(db, entries);
  }

  /** What an opening did, once the device says the door opened. */
  private async opened(
    db: Queryable,
    booking: repo.BookingRow,
    opening: Opening,
    now: Date,
  ): Promise<repo.LedgerEntry> {
    const site = (await repo.siteById(db, booking.site_id))!;
    const done = { opening: null, opening_command_id: null } as const;
    if (opening === 'deposit') {
      const deadline = new Date(now.getTime() + site.hold_hours * 3_600_000);
      await repo.updateBooking(db, booking.id, {
        ...done,
        state: 'occupied',
        deposited_at: now,
        pickup_expires_at: deadline,
      });
      await repo.setCompartment(db, booking.compartment_id, { state: 'occupied', booking_id: booking.id });
      await this.pickupDeadline(db, booking, deadline);
      await this.orderSide.deposited(db, booking, site);
    } else {
      await repo.updateBooking(db, booking.id, {
        ...done,
        state: opening === 'pickup' ? 'collected' : 'retrieved',
        finished_at: now,
      });
      await repo.setCompartment(db, booking.compartment_id, { state: 'free', booking_id: null });
      if (opening === 'pickup') await this.orderSide.collected(db, booking, site);
    }
    const kind = opening === 'retrieval' ? 'retrieval' : opening;
    return {
      ...this.placeOf(booking),
      kind,
      actor_kind: 'device',
      actor_user_id: null,
      details: { purpose: booking.purpose },
      at: now,
    };
  }

  private pickupDeadline(db: Queryable, booking: repo.BookingRow, deadline: Date) {
    return enqueue(db, this.clock, {
      topic: PICKUP_DEADLINE_TOPIC,
      businessId: booking.business_id,
      messageId: `locker_pickup_deadline_${booking.id}_${deadline.getTime()}`,
      payload: { booking_id: booking.id },
      availableAt: deadline,
    });
  }

  /** The outbox handler of pickup deadlines: a parcel still waiting has expired, and goes back. */
  pickupDeadlineHandler(db: Queryable): OutboxHandler {
    return async (message) => {
      const { booking_id } = message.payload as { booking_id: number };
      await inTransaction(db, async (trx) => {
        const now = this.clock.now();
        const booking = await repo.bookingById(trx, booking_id, true);
        if (booking?.state !== 'occupied' || !booking.pickup_expires_at || booking.pickup_expires_at > now) {
          return;
        }
        await repo.updateBooking(trx, booking.id, { state: 'expired' });
        await repo.appendLedger(trx, [
          { ...this.placeOf(booking), kind: 'expired', actor_kind: 'system', actor_user_id: null, at: now },
        ]);
        const site = (await repo.siteById(trx, booking.site_id))!;
        await this.orderSide.track(trx, booking, site, {
          status_code: 'delivery_failed',
          incident_reason: {
            code: 'recipient_absent',
            message: 'Not collected from the parcel locker in time',
          },
        });
      });
      return { done: true };
    };
  }

  /** Where a ledger row of this booking belongs: the operator's site, and the tenant when it is another business. */
  placeOf(booking: repo.BookingRow) {
    return {
      business_id: booking.operator_business_id,
      tenant_business_id: booking.business_id === booking.operator_business_id ? null : booking.business_id,
      site_id: booking.site_id,
      device_id: booking.device_id,
      compartment_id: booking.compartment_id,
      booking_id: booking.id,
      order_id: booking.order_id,
      relay_id: booking.relay_id,
    };
  }
}
