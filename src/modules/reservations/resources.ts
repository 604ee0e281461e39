import type { z } from 'zod';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import * as repo from './repository.ts';
import { MAX_RESOURCES, type resourceInput } from './schemas.ts';

type ResourceInput = z.output<z.ZodObject<typeof resourceInput>>;

/** The resources a business publishes for booking (a pickup counter, a moving crew, delivery slots). */
export class ReservationResources {
  constructor(
    private readonly clock: Clock,
    private readonly settings: { baseUrl: string },
    private readonly business: {
      timeZoneOf(db: Queryable, businessId: number): Promise<string>;
      codeOf(db: Queryable, businessId: number): Promise<string>;
    },
  ) {}

  async create(ctx: OperationContext, input: ResourceInput) {
    const businessId = businessOf(ctx);
    const existing = await repo.resourcesOf(ctx.db, businessId, MAX_RESOURCES);
    if (existing.length >= MAX_RESOURCES) {
      throw new AppError('VALIDATION_FAILED', {
        details: {
          fields: [{ field: 'name', message: `A business keeps at most ${MAX_RESOURCES} resources.` }],
        },
      });
    }
    const row = await repo.insertResource(ctx.db, {
      business_id: businessId,
      name: input.name,
      kind: input.kind,
      rrule: input.rrule,
      starts_on: input.starts_on,
      time_zone: input.time_zone ?? (await this.business.timeZoneOf(ctx.db, businessId)),
      slot_minutes: input.slot_minutes,
      capacity: input.capacity,
      offer_minutes: input.offer_minutes,
      waitlist: input.waitlist,
      published: input.published,
      created_at: this.clock.now(),
    });
    return { result: true as const, resource: await this.view(ctx.db, row) };
  }

  async list(ctx: OperationContext) {
    const rows = await repo.resourcesOf(ctx.db, businessOf(ctx), MAX_RESOURCES);
    const code = rows.length > 0 ? await this.business.codeOf(ctx.db, businessOf(ctx)) : '';
    return { result: true as const, resources: rows.map((row) => this.viewWith(code, row)) };
  }

  /**
   * Changes what later bookings see; slots already booked keep the capacity they were booked
   * under, so no booking is taken from anyone.
   */
  async update(ctx: OperationContext, input: Partial<ResourceInput> & { resource_id: number }) {
    const { resource_id, ...fields } = input;
    const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const row =
      Object.keys(changes).length > 0
        ? await repo.updateResource(ctx.db, businessOf(ctx), resource_id, changes)
        : await repo.resourceOf(ctx.db, businessOf(ctx), resource_id);
    if (!row) throw new AppError('RESERVATION_RESOURCE_NOT_FOUND', { params: { id: resource_id } });
    return { result: true as const, resource: await this.view(ctx.db, row) };
  }

  private async view(db: Queryable, row: repo.ResourceRow) {
    return this.viewWith(await this.business.codeOf(db, row.business_id), row);
  }

  private viewWith(code: string, row: repo.ResourceRow) {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      rrule: row.rrule,
      starts_on: row.starts_on,
      time_zone: row.time_zone,
      slot_minutes: row.slot_minutes,
      capacity: row.capacity,
      offer_minutes: row.offer_minutes,
      waitlist: row.waitlist,
      published: row.published,
      booking_page: `${this.settings.baseUrl}/book/${encodeURIComponent(code)}/${row.id}`,
    };
  }
}
