import { RateLimiterMemory } from 'rate-limiter-flexible';
import { businessOf, type OperationContext, Representation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { rateLimited } from '../../platform/limits.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import { instantOf, MAX_SPAN_DAYS, slotStarts, wallTime } from './availability.ts';
import type { ContactSender } from './contact.ts';
import { icalendar } from './ical.ts';
import * as repo from './repository.ts';
import { CODE_TTL_MINUTES, MAX_CODE_ATTEMPTS } from './schemas.ts';
import { codeMatches, hashCode, type LinkSigner, newCode, newReference } from './secrets.ts';
import { type BookingState, type ReservationsTables, TAKING_STATES } from './tables.ts';

/** Messages to a booker (its code, a waitlist offer), sent by the outbox after the booking commits. */
export const CONTACT_TOPIC = 'reservation.contact';
/** A held place whose code was not given, or an offer not accepted, by its deadline. */
export const DEADLINE_TOPIC = 'reservation.deadline';

type Db = Queryable<ReservationsTables>;

export interface BookingSettings {
  /** The service's public address: links in messages are absolute. */
  baseUrl: string;
  /** Bookings each client address may start an hour (each sends a message). */
  bookingsPerAddressPerHour: number;
}

export interface PublicResourceRef {
  business: string;
  resource_id: number;
}

/**
 * Bookings by people without an account: a slot's place held while its code travels, confirmed
 * by the code, kept or given back through the booking's signed link; the waitlist behind a full
 * slot, whose first person is offered each place that frees up, for a time.
 *
 * Every change to a slot's places locks its capacity row first (then the booking), so bookings of
 * one slot queue there and the row's `taken` never passes its capacity (its CHECK says so too).
 */
export class ReservationBookings {
  private readonly byAddress: RateLimiterMemory;

  constructor(
    private readonly clock: Clock,
    private readonly sender: ContactSender,
    private readonly signer: LinkSigner,
    private readonly settings: BookingSettings,
    private readonly businessIdOf: (db: Queryable, code: string) => Promise<number | undefined>,
  ) {
    this.byAddress = new RateLimiterMemory({ points: settings.bookingsPerAddressPerHour, duration: 3600 });
  }

  // ----- public -----

  async openSlots(ctx: OperationContext, input: PublicResourceRef & { from?: string; days: number }) {
    const resource = await this.publicResource(ctx.db, input);
    const now = this.clock.now();
    const from = input.from ? this.dayStart(input.from, resource.time_zone) : now;
    const to = new Date(from.getTime() + Math.min(input.days, MAX_SPAN_DAYS) * 86_400_000);
    const starts = slotStarts(resource, from < now ? now : from, to);
    const rows = await repo.slotsBetween(ctx.db, resource.id, from, to);
    const taken = new Map(rows.map((row) => [row.starts_at.getTime(), row.taken]));
    return {
      result: true as const,
      resource: {
        business: input.business,
        id: resource.id,
        name: resource.name,
        kind: resource.kind,
        time_zone: resource.time_zone,
        slot_minutes: resource.slot_minutes,
      },
      slots: starts.map((start) => {
        const remaining = Math.max(0, resource.capacity - (taken.get(start.getTime()) ?? 0));
        return {
          starts_at: start.toISOString(),
          ends_at: endOf(start, resource).toISOString(),
          local_start: wallTime(start, resource.time_zone),
          remaining,
          waitlist_open: remaining === 0 && resource.waitlist,
        };
      }),
    };
  }

  /** A place held (or a waitlist place when the slot is full) until the code sent to the contact is given. */
  async book(
    ctx: OperationContext,
    input: PublicResourceRef & { starts_at: string; name: string; contact: string; waitlist: boolean },
  ) {
    await this.byAddress.consume(ctx.ip ?? 'unknown').catch((refusal) => {
      throw rateLimited(refusal.msBeforeNext ?? 60_000);
    });
    const resource = await this.publicResource(ctx.db, input);
    const now = this.clock.now();
    const start = new Date(input.starts_at);
    const offered =
      !Number.isNaN(start.getTime()) &&
      start > now &&
      slotStarts(resource, start, new Date(start.getTime() + 1)).length === 1;
    if (!offered)
      throw new AppError('RESERVATION_SLOT_NOT_OFFERED', { params: { starts_at: input.starts_at } });
    const slot = await repo.lockSlot(ctx.db, resource, start);
    const hasRoom = slot.taken < slot.capacity;
    if (!hasRoom && !(resource.waitlist && input.waitlist)) throw new AppError('RESERVATION_SLOT_FULL');
    if (hasRoom) await repo.setTaken(ctx.db, slot.id, slot.taken + 1);
    const codeExpiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
    const booking = await repo.insertBooking(ctx.db, {
      business_id: resource.business_id,
      resource_id: resource.id,
      slot_id: slot.id,
      reference: newReference(),
      state: hasRoom ? 'held' : 'waitlisted',
      name: input.name,
      contact: input.contact,
      contact_kind: input.contact.includes('@') ? 'email' : 'phone',
      code_hash: null,
      code_expires_at: codeExpiresAt,
      offer_expires_at: null,
      created_at: now,
      confirmed_at: null,
      ended_at: null,
    });
    await this.message(ctx.db, booking, 'code');
    await this.deadline(ctx.db, booking, codeExpiresAt);
    return { result: true as const, booking: bookingView(booking, slot.starts_at, resource) };
  }

  /** The code sent to the contact: a held place is confirmed, a waitlist place becomes a live one. */
  async confirm(ctx: OperationContext, input: { reference: string; code: string }) {
    const found = await this.byReference(ctx.db, input.reference);
    const { slot, booking } = await this.lockWithSlot(ctx.db, found);
    const now = this.clock.now();
    if (booking.contact_confirmed || !['held', 'waitlisted'].includes(booking.state)) {
      if (booking.state === 'lapsed') throw new AppError('RESERVATION_CODE_EXPIRED');
      throw new AppError('RESERVATION_CLOSED', { params: { state: booking.state } });
    }
    if (!booking.code_hash || !booking.code_expires_at || booking.code_expires_at <= now) {
      // Not sent yet (the outbox has it) reads as wrong; past its time as expired.
      if (booking.code_expires_at && booking.code_expires_at <= now) {
        await this.lapse(ctx.db, booking, slot, now);
        throw new AppError('RESERVATION_CODE_EXPIRED', { commit: true });
      }
      throw new AppError('RESERVATION_CODE_WRONG');
    }
    if (!codeMatches(input.code, booking.code_hash)) {
      const attempts = booking.code_attempts + 1;
      if (attempts >= MAX_CODE_ATTEMPTS) {
        await this.lapse(ctx.db, booking, slot, now);
        throw new AppError('RESERVATION_CODE_EXPIRED', { commit: true });
      }
      await repo.updateBooking(ctx.db, booking.id, { code_attempts: attempts });
      throw new AppError('RESERVATION_CODE_WRONG', { commit: true });
    }
    const confirmed = await repo.updateBooking(ctx.db, booking.id, {
      contact_confirmed: true,
      code_hash: null,
      code_expires_at: null,
      ...(booking.state === 'held' ? { state: 'confirmed', confirmed_at: now } : {}),
    });
    // A place may have freed while this person's waitlist place was unconfirmed.
    if (confirmed.state === 'waitlisted') await this.promote(ctx.db, slot);
    const after = (await repo.bookingById(ctx.db, booking.id))!;
    return this.answer(ctx.db, after, slot.starts_at);
  }

  /** The booking as its signed link shows it. */
  async get(ctx: OperationContext, input: { reference: string; signature: string }) {
    const booking = await this.signed(ctx.db, input);
    const slot = await repo.slotById(ctx.db, booking.slot_id);
    return this.answer(ctx.db, booking, slot.starts_at);
  }

  /** The booking as an iCalendar file, cancelled (METHOD:CANCEL) once it no longer holds a place. */
  async calendar(ctx: OperationContext, input: { reference: string; signature: string }) {
    const booking = await this.signed(ctx.db, input);
    const slot = await repo.slotById(ctx.db, booking.slot_id);
    const resource = (await repo.resourceOf(ctx.db, booking.business_id, booking.resource_id))!;
    return new Representation(
      'text/calendar; charset=utf-8',
      Buffer.from(
        icalendar({
          uid: `${booking.reference}@reservations.tms`,
          start: slot.starts_at,
          end: endOf(slot.starts_at, resource),
          stamp: this.clock.now(),
          summary: resource.name,
          description: `Booking ${booking.reference} for ${booking.name}`,
          cancelled: !TAKING_STATES.includes(booking.state) && booking.state !== 'attended',
        }),
      ),
      {
        'content-disposition': `attachment; filename="booking-${booking.reference}.ics"`,
        'cache-control': 'private, no-store',
      },
    );
  }

  async cancelByLink(ctx: OperationContext, input: { reference: string; signature: string }) {
    const booking = await this.signed(ctx.db, input);
    return this.cancelBooking(ctx.db, booking);
  }

  /** Moves a live booking to another slot of its resource that has room; it stays confirmed. */
  async change(
    ctx: OperationContext,
    input: { reference: string; signature: string; starts_at: string },
  ): Promise<BookingAnswer> {
    const found = await this.signed(ctx.db, input);
    const resource = (await repo.resourceOf(ctx.db, found.business_id, found.resource_id))!;
    const now = this.clock.now();
    const start = new Date(input.starts_at);
    if (
      Number.isNaN(start.getTime()) ||
      start <= now ||
      slotStarts(resource, start, new Date(start.getTime() + 1)).length !== 1
    ) {
      throw new AppError('RESERVATION_SLOT_NOT_OFFERED', { params: { starts_at: input.starts_at } });
    }
    const old = await repo.slotById(ctx.db, found.slot_id);
    // Two capacity rows: locked in start order, as every change locks them, so two moves never deadlock.
    const [first, second] = old.starts_at < start ? [old.starts_at, start] : [start, old.starts_at];
    const locked = [
      await repo.lockSlot(ctx.db, resource, first),
      await repo.lockSlot(ctx.db, resource, second),
    ];
    const from = locked.find((slot) => slot.id === old.id)!;
    const to = locked.find((slot) => slot.id !== old.id) ?? from;
    const booking = (await repo.bookingById(ctx.db, found.id, true))!;
    // Moved meanwhile by another change: start again from where it is now.
    if (booking.slot_id !== old.id) return this.change(ctx, input);
    if (booking.state !== 'confirmed') {
      throw new AppError('RESERVATION_CLOSED', { params: { state: booking.state } });
    }
    if (to.id === from.id) return this.answer(ctx.db, booking, from.starts_at);
    if (to.taken >= to.capacity) throw new AppError('RESERVATION_SLOT_FULL');
    await repo.setTaken(ctx.db, to.id, to.taken + 1);
    await repo.setTaken(ctx.db, from.id, from.taken - 1);
    const moved = await repo.updateBooking(ctx.db, booking.id, { slot_id: to.id });
    await this.promote(ctx.db, { ...from, taken: from.taken - 1 });
    return this.answer(ctx.db, moved, to.starts_at);
  }

  /** A waitlist offer taken, before it expires. */
  async accept(ctx: OperationContext, input: { reference: string; signature: string }) {
    const found = await this.signed(ctx.db, input);
    const { slot, booking } = await this.lockWithSlot(ctx.db, found);
    const now = this.clock.now();
    if (booking.state === 'offered' && booking.offer_expires_at && booking.offer_expires_at <= now) {
      await this.lapse(ctx.db, booking, slot, now);
      throw new AppError('RESERVATION_OFFER_EXPIRED', { commit: true });
    }
    if (booking.state !== 'offered') {
      if (booking.state === 'lapsed' && booking.offer_expires_at)
        throw new AppError('RESERVATION_OFFER_EXPIRED');
      throw new AppError('RESERVATION_CLOSED', { params: { state: booking.state } });
    }
    const accepted = await repo.updateBooking(ctx.db, booking.id, { state: 'confirmed', confirmed_at: now });
    return this.answer(ctx.db, accepted, slot.starts_at);
  }

  // ----- staff -----

  async list(
    ctx: OperationContext,
    input: { resource_id?: number; states?: BookingState[]; from?: string; to?: string } & CursorPageQuery,
  ) {
    const businessId = businessOf(ctx);
    const page = await repo.bookingsOf(
      ctx.db,
      businessId,
      {
        resourceId: input.resource_id,
        states: input.states,
        from: input.from ? new Date(input.from) : undefined,
        to: input.to ? new Date(input.to) : undefined,
      },
      cursorWindow(input),
    );
    const resources = new Map((await repo.resourcesOf(ctx.db, businessId, 10_000)).map((r) => [r.id, r]));
    const positions = await this.waitlistPositions(ctx.db, page.rows);
    return {
      result: true as const,
      ...cursorEnvelopeOf(input, page),
      bookings: page.rows.map((row) => ({
        ...bookingView(row, row.starts_at, resources.get(row.resource_id)!),
        id: row.id,
        contact: row.contact,
        contact_kind: row.contact_kind,
        created_at: row.created_at.toISOString(),
        waitlist_position: positions.get(row.id) ?? null,
      })),
    };
  }

  async cancelByStaff(ctx: OperationContext, bookingId: number) {
    return this.cancelBooking(ctx.db, await this.ownBooking(ctx, bookingId));
  }

  async markAttended(ctx: OperationContext, bookingId: number) {
    const booking = await this.ownBooking(ctx, bookingId);
    if (booking.state !== 'confirmed')
      throw new AppError('RESERVATION_CLOSED', { params: { state: booking.state } });
    const attended = await repo.updateBooking(ctx.db, booking.id, {
      state: 'attended',
      ended_at: this.clock.now(),
    });
    const slot = await repo.slotById(ctx.db, booking.slot_id);
    return this.answer(ctx.db, attended, slot.starts_at);
  }

  // ----- background -----

  /** Sends a booker's code or offer; the code is made here, so it is never stored but hashed. */
  contactHandler(db: Db): OutboxHandler {
    return async (message) => {
      const { booking_id, purpose } = message.payload as { booking_id: number; purpose: 'code' | 'offer' };
      await inTransaction(db, async (trx) => {
        const booking = await repo.bookingById(trx, booking_id, true);
        if (!booking) return;
        const resource = (await repo.resourceOf(trx, booking.business_id, booking.resource_id))!;
        const slot = await repo.slotById(trx, booking.slot_id);
        const when = `${wallTime(slot.starts_at, resource.time_zone).replace('T', ' ')} (${resource.time_zone})`;
        const { page } = await this.links(trx, booking.reference);
        if (purpose === 'code') {
          const waiting =
            !booking.contact_confirmed &&
            booking.code_expires_at &&
            booking.code_expires_at > this.clock.now();
          if (!waiting) return;
          const code = newCode();
          await repo.updateBooking(trx, booking.id, { code_hash: hashCode(code), code_attempts: 0 });
          await this.sender.send({
            kind: booking.contact_kind,
            to: booking.contact,
            subject: `Your code for ${resource.name}: ${code}`,
            text: `Confirmation code: ${code}\n${resource.name}, ${when}.\nValid ${CODE_TTL_MINUTES} minutes. Your booking (cancel or change): ${page}`,
          });
        } else if (booking.state === 'offered' && booking.offer_expires_at) {
          await this.sender.send({
            kind: booking.contact_kind,
            to: booking.contact,
            subject: `A place is free for ${resource.name}`,
            text: `A place is free: ${resource.name}, ${when}.\nAccept it before ${booking.offer_expires_at.toISOString()} on ${page}\nAfter that it goes to the next person waiting.`,
          });
        }
      });
      return { done: true };
    };
  }

  /** A held place whose code was not given, a waitlist place never confirmed, an offer not accepted: let go. */
  deadlineHandler(db: Db): OutboxHandler {
    return async (message) => {
      const { booking_id } = message.payload as { booking_id: number };
      await inTransaction(db, async (trx) => {
        const found = await repo.bookingById(trx, booking_id);
        if (!found) return;
        const { slot, booking } = await this.lockWithSlot(trx, found);
        const now = this.clock.now();
        const codeLapsed =
          !booking.contact_confirmed &&
          (booking.state === 'held' || booking.state === 'waitlisted') &&
          booking.code_expires_at !== null &&
          booking.code_expires_at <= now;
        const offerLapsed =
          booking.state === 'offered' && booking.offer_expires_at !== null && booking.offer_expires_at <= now;
        if (codeLapsed || offerLapsed) await this.lapse(trx, booking, slot, now);
      });
      return { done: true };
    };
  }

  // ----- inside -----

  private async cancelBooking(db: Db, found: repo.BookingRow) {
    const { slot, booking } = await this.lockWithSlot(db, found);
    if (!['held', 'confirmed', 'waitlisted', 'offered'].includes(booking.state)) {
      throw new AppError('RESERVATION_CLOSED', { params: { state: booking.state } });
    }
    const cancelled = await repo.updateBooking(db, booking.id, {
      state: 'cancelled',
      ended_at: this.clock.now(),
    });
    if (TAKING_STATES.includes(booking.state)) {
      await repo.setTaken(db, slot.id, slot.taken - 1);
      await this.promote(db, { ...slot, taken: slot.taken - 1 });
    }
    return this.answer(db, cancelled, slot.starts_at);
  }

  /**
   * A booking and its slot's capacity row, locked in that order (the order every change takes);
   * a booking moved to another slot between the reading and the locking is locked again there.
   */
  private async lockWithSlot(
    db: Db,
    found: repo.BookingRow,
  ): Promise<{ slot: repo.SlotRow; booking: repo.BookingRow }> {
    const slot = await repo.lockSlotById(db, found.slot_id);
    const booking = (await repo.bookingById(db, found.id, true))!;
    return booking.slot_id === slot.id ? { slot, booking } : this.lockWithSlot(db, booking);
  }

  /** Gives a booking's place back (if it held one) and offers it to the next person waiting. */
  private async lapse(db: Db, booking: repo.BookingRow, slot: repo.SlotRow, now: Date) {
    await repo.updateBooking(db, booking.id, { state: 'lapsed', ended_at: now, code_hash: null });
    if (TAKING_STATES.includes(booking.state)) {
      await repo.setTaken(db, slot.id, slot.taken - 1);
      await this.promote(db, { ...slot, taken: slot.taken - 1 });
    }
  }

  /** Each free place of a (locked) slot goes, as an offer, to the first confirmed person waiting. */
  private async promote(db: Db, slot: repo.SlotRow) {
    const free = slot.capacity - slot.taken;
    if (free <= 0) return;
    const waiting = await repo.firstWaiting(db, slot.id, free);
    if (waiting.length === 0) return;
    const resource = (await repo.resourceOf(db, slot.business_id, slot.resource_id))!;
    const expiresAt = new Date(this.clock.now().getTime() + resource.offer_minutes * 60_000);
    for (const person of waiting) {
      const offered = await repo.updateBooking(db, person.id, {
        state: 'offered',
        offer_expires_at: expiresAt,
      });
      await this.message(db, offered, 'offer');
      await this.deadline(db, offered, expiresAt);
    }
    await repo.setTaken(db, slot.id, slot.taken + waiting.length);
  }

  private message(db: Db, booking: repo.BookingRow, purpose: 'code' | 'offer') {
    return enqueue(db, this.clock, {
      topic: CONTACT_TOPIC,
      businessId: booking.business_id,
      messageId: `reservation_${purpose}_${booking.id}_${this.clock.now().getTime()}`,
      payload: { booking_id: booking.id, purpose },
    });
  }

  private deadline(db: Db, booking: repo.BookingRow, at: Date) {
    return enqueue(db, this.clock, {
      topic: DEADLINE_TOPIC,
      businessId: booking.business_id,
      messageId: `reservation_deadline_${booking.id}_${at.getTime()}`,
      payload: { booking_id: booking.id },
      availableAt: at,
    });
  }

  private async waitlistPositions(db: Db, rows: repo.BookingRow[]) {
    const positions = new Map<number, number>();
    for (const slotId of new Set(rows.filter((r) => r.state === 'waitlisted').map((r) => r.slot_id))) {
      const queue = await repo.firstWaiting(db, slotId, MAX_WAITING_SHOWN, false);
      for (const [index, row] of queue.entries()) positions.set(row.id, index + 1);
    }
    return positions;
  }

  private async answer(db: Db, booking: repo.BookingRow, startsAt: Date): Promise<BookingAnswer> {
    const resource = (await repo.resourceOf(db, booking.business_id, booking.resource_id))!;
    return {
      result: true as const,
      booking: bookingView(booking, startsAt, resource),
      links: await this.links(db, booking.reference),
    };
  }

  /** A booking's signed links: its API address, its calendar file, and its page for people. */
  private async links(db: Db, reference: string) {
    const signature = await this.signer.sign(db, reference);
    const query = `?signature=${signature}`;
    const api = `${this.settings.baseUrl}/api/v1/bookings/${reference}`;
    return {
      manage: api + query,
      calendar: `${api}/calendar${query}`,
      page: `${this.settings.baseUrl}/booking/${reference}${query}`,
    };
  }

  /** Midnight of a calendar day on the resource's wall clock. */
  private dayStart(day: string, timeZone: string): Date {
    return instantOf(new Date(`${day}T00:00:00Z`), timeZone);
  }

  private async publicResource(db: Db, ref: PublicResourceRef) {
    const businessId = await this.businessIdOf(db, ref.business);
    const resource =
      businessId === undefined ? undefined : await repo.resourceOf(db, businessId, ref.resource_id);
    if (!resource?.published) {
      throw new AppError('RESERVATION_RESOURCE_NOT_FOUND', { params: { id: ref.resource_id } });
    }
    return resource;
  }

  private async byReference(db: Db, reference: string) {
    const booking = await repo.bookingByReference(db, reference);
    if (!booking) throw new AppError('RESERVATION_NOT_FOUND');
    return booking;
  }

  private async signed(db: Db, input: { reference: string; signature: string }) {
    const booking = await this.byReference(db, input.reference);
    if (!(await this.signer.verify(db, booking.reference, input.signature))) {
      throw new AppError('RESERVATION_LINK_INVALID');
    }
    return booking;
  }

  private async ownBooking(ctx: OperationContext, id: number) {
    const booking = await repo.bookingById(ctx.db, id);
    if (!booking || booking.business_id !== businessOf(ctx)) throw new AppError('RESERVATION_NOT_FOUND');
    return booking;
  }
}

interface BookingAnswer {
  result: true;
  booking: ReturnType<typeof bookingView>;
  links: { manage: string; calendar: string; page: string };
}

/** Positions are counted among the first this many waiting of a slot. */
const MAX_WAITING_SHOWN = 1000;

/** A booking as its booker (and staff) see it. */
function bookingView(booking: repo.BookingRow, startsAt: Date, resource: repo.ResourceRow) {
  return {
    reference: booking.reference,
    resource_id: booking.resource_id,
    resource_name: resource.name,
    time_zone: resource.time_zone,
    starts_at: startsAt.toISOString(),
    ends_at: endOf(startsAt, resource).toISOString(),
    state: booking.state,
    contact_confirmed: booking.contact_confirmed,
    name: booking.name,
    offer_expires_at: booking.state === 'offered' ? (booking.offer_expires_at?.toISOString() ?? null) : null,
    code_expires_at: booking.contact_confirmed ? null : (booking.code_expires_at?.toISOString() ?? null),
  };
}

function endOf(start: Date, resource: repo.ResourceRow): Date {
  return new Date(start.getTime() + resource.slot_minutes * 60_000);
}
