import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { LockerBookings } from './bookings.ts';
import * as repo from './repository.ts';
import type { SizeClass } from './tables.ts';
import { bookingView, ledgerView } from './views.ts';

/**
 * Luggage relay: a bag carried between sites in hops (a station, then a hotel). Each hop is a
 * booking at its site, reserved when the relay starts: its drop code for whoever brings the bag
 * there, its pickup code for whoever takes it on. The chain of custody is the ledger of those
 * bookings, in order.
 */
export class LuggageRelays {
  constructor(
    private readonly clock: Clock,
    private readonly bookings: LockerBookings,
  ) {}

  async create(
    ctx: OperationContext,
    input: { bag_tag: string; owner_name?: string; site_ids: number[]; size_class: SizeClass },
  ) {
    const businessId = businessOf(ctx);
    const relay = await repo.insertRelay(ctx.db, {
      business_id: businessId,
      bag_tag: input.bag_tag,
      owner_name: input.owner_name ?? null,
      site_ids: input.site_ids,
      created_by: ctx.caller?.userId ?? null,
      created_at: this.clock.now(),
    });
    if (!relay) throw new AppError('LUGGAGE_TAG_TAKEN', { params: { tag: input.bag_tag } });
    const hops = [];
    for (const [hop, siteId] of input.site_ids.entries()) {
      const reserved = await this.bookings.reserve(ctx, {
        site_id: siteId,
        purpose: 'luggage',
        size_class: input.size_class,
        relay: { id: relay.id, hop: hop + 1 },
        ...(input.owner_name ? { recipient_name: input.owner_name } : {}),
      });
      hops.push({ booking: reserved.booking, codes: reserved.codes });
    }
    return { result: true as const, relay_id: relay.id, bag_tag: relay.bag_tag, hops };
  }

  async get(ctx: OperationContext, filter: { id?: number; bag_tag?: string }) {
    const relay = await repo.relayOf(ctx.db, businessOf(ctx), {
      ...(filter.id !== undefined ? { id: filter.id } : {}),
      ...(filter.bag_tag !== undefined ? { bagTag: filter.bag_tag } : {}),
    });
    if (!relay)
      throw new AppError('LUGGAGE_RELAY_NOT_FOUND', { params: { relay: filter.bag_tag ?? filter.id ?? '' } });
    const bookings = await repo.bookingsOfRelay(ctx.db, relay.id);
    const compartments = new Map(
      (
        await repo.compartmentsByIds(
          ctx.db,
          bookings.map((b) => b.compartment_id),
        )
      ).map((c) => [c.id, c]),
    );
    const custody = [];
    for (const booking of bookings) {
      custody.push(...(await repo.ledgerOfBooking(ctx.db, relay.business_id, booking.id)));
    }
    return {
      result: true as const,
      relay: {
        id: relay.id,
        bag_tag: relay.bag_tag,
        owner_name: relay.owner_name,
        site_ids: relay.site_ids.map(Number),
        created_at: relay.created_at.toISOString(),
        hops: bookings.map((b) => bookingView(b, compartments.get(b.compartment_id)!)),
        custody: custody.sort((a, b) => a.id - b.id).map(ledgerView),
      },
    };
  }
}
