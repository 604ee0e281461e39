import type { OperationContext } from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';
import { type OrdersService, orderInputSchema } from '../orders/index.ts';
import type { LockerBookings } from './bookings.ts';
import * as repo from './repository.ts';
import type { LockerSites } from './sites.ts';

export interface SendInput {
  site_id: number;
  dropoff: { line1: string } & Record<string, unknown>;
  packages: Array<{
    weight_grams?: number;
    length_mm?: number;
    width_mm?: number;
    height_mm?: number;
    description?: string;
  }>;
  note?: string;
}

/**
 * Device orders: a customer sends a parcel from a locker (the `send` and `return` quick actions).
 * The order is of the `device_order` family, picked up at the site at the site's send price,
 * which price hiding treats like the other families; the compartment is reserved for the drop.
 */
export class DeviceOrders {
  constructor(
    private readonly sites: LockerSites,
    private readonly bookings: LockerBookings,
    private readonly orders: OrdersService,
  ) {}

  async send(ctx: OperationContext, input: SendInput) {
    const site = await repo.siteById(ctx.db, input.site_id);
    if (!site || site.business_id !== ctx.business) {
      throw new AppError('LOCKER_SITE_NOT_FOUND', { params: { id: input.site_id } });
    }
    const price = this.sites.sendPriceOf(site);
    const address = site.address as { line1: string };
    const [order] = await this.orders.intake.create(ctx, [
      orderInputSchema.parse({
        family: 'device_order',
        pickup: { ...address, name: site.name },
        dropoff: input.dropoff,
        packages: input.packages,
        ...(input.note ? { note: input.note } : {}),
        ...(price ? { shipping_price: price.amount, currency: price.currency } : {}),
      }),
    ]);
    const reserved = await this.bookings.reserve(ctx, {
      site_id: site.id,
      purpose: 'send',
      order_id: order!.id,
    });
    // The sender drops with the drop code; the business's driver collects (collect_locker_parcel).
    return {
      result: true as const,
      order_id: order!.id,
      tracking_numbers: order!.packages.map((pkg) => pkg.tracking_number),
      booking: reserved.booking,
      drop_code: reserved.codes.drop_code,
    };
  }
}
