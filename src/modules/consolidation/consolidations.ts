import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { toMinor } from '../../platform/money.ts';
import type { Address } from '../orders/index.ts';
import type { CartonSolverInput, CartonSolverOutput, PackagingCatalog, Solvers } from '../packing/index.ts';
import type { ShippingService } from '../shipping/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import type { Forwarding } from './forwarding.ts';
import * as repo from './repository.ts';
import type { ParcelItem } from './tables.ts';

/** Grams the new carton and its filling add to the parcels it holds (without a catalog carton). */
export const REPACK_ALLOWANCE_GRAMS = 300;
/** How long the packing solver may look for the carton of a consolidation. */
const PACKING_TIME_MS = 500;
/** The parcels may fill at most this share of a catalog carton's inside (room for filling). */
const PACKING_FILL_PERCENT = 90;

export interface Carton {
  weight_grams: number;
  length_mm: number;
  width_mm: number;
  height_mm: number;
  /** The catalog carton the packing solver chose; null: the parcels stacked (no catalog carton holds them all). */
  packaging_id: number | null;
}

/**
 * Consolidations: a customer's received parcels repacked into one outbound shipment, with its
 * customs declaration, quoted through the business's carriers and shipped with one label.
 */
export class Consolidations {
  constructor(
    private readonly clock: Clock,
    private readonly forwarding: Forwarding,
    private readonly shipping: ShippingService,
    private readonly tracking: TrackingService,
    private readonly packaging: PackagingCatalog,
    private readonly solvers: Solvers,
  ) {}

  async request(
    ctx: OperationContext,
    input: { customer_id?: number; parcel_ids: number[]; dropoff: Address; residential: boolean },
  ) {
    const businessId = businessOf(ctx);
    const ids = [...new Set(input.parcel_ids)].sort((a, b) => a - b);
    const customerId = this.forwarding.customerScope(ctx, input.customer_id);
    // Locked in id order: two requests naming the same parcel wait for each other.
    const parcels = await repo.parcelsOf(ctx.db, businessId, {
      ids,
      customerId,
      limit: ids.length,
      lock: true,
    });
    const missing = ids.find((id) => !parcels.some((p) => p.id === id));
    if (missing !== undefined)
      throw new AppError('INBOUND_PARCEL_NOT_FOUND', { params: { parcel: missing } });
    const owners = new Set(parcels.map((p) => p.customer_user_id));
    if (owners.size > 1) {
      // One customer's parcels go together; naming another's reads as not found.
      throw new AppError('INBOUND_PARCEL_NOT_FOUND', { params: { parcel: parcels.at(-1)!.id } });
    }
    const unready = parcels.find((p) => p.state !== 'received');
    if (unready) {
      throw new AppError('INBOUND_PARCEL_STATE', {
        params: { parcel: unready.reference, state: unready.state },
      });
    }
    const row = await repo.insertConsolidation(ctx.db, {
      business_id: businessId,
      customer_user_id: parcels[0]!.customer_user_id,
      suite_id: parcels[0]!.suite_id,
      state: 'requested',
      parcel_ids: ids,
      dropoff: input.dropoff,
      residential: input.residential,
      package: (await this.packed(ctx, parcels)) ?? stacked(parcels),
      customs: customsOf(parcels),
      order_id: null,
      tracking_number: null,
      carrier: null,
      service: null,
      created_at: this.clock.now(),
      shipped_at: null,
    });
    await repo.updateParcels(ctx.db, businessId, ids, { state: 'consolidated', consolidation_id: row.id });
    const quotes = await this.shipping.compare(ctx, await this.shipment(ctx, row));
    return {
      result: true as const,
      consolidation: view(row),
      quotes: quotes.rates,
      unavailable: quotes.unavailable,
    };
  }

  async detail(ctx: OperationContext, id: number) {
    const row = await this.consolidation(ctx, id);
    const quotes =
      row.state === 'requested'
        ? (await this.shipping.compare(ctx, await this.shipment(ctx, row))).rates
        : [];
    return { result: true as const, consolidation: view(row), quotes, unavailable: [] };
  }

  /**
   * Buys the outbound label: the carrier service named, or the cheapest of all. The parcels
   * leave the warehouse (their storage stops) and their timelines say where they went.
   */
  async ship(ctx: OperationContext, input: { id: number; carrier?: string; service?: string }) {
    const businessId = businessOf(ctx);
    const row = await this.consolidation(ctx, input.id, { lock: true });
    if (row.state === 'shipped') {
      throw new AppError('CONSOLIDATION_SHIPPED', {
        params: { id: row.id },
        details: { tracking_number: row.tracking_number },
      });
    }
    const shipment = await this.shipment(ctx, row);
    const fields = { ...shipment, customer_id: row.customer_user_id, order_ref: `CONSOLIDATION-${row.id}` };
    const shipped =
      input.carrier !== undefined && input.service !== undefined
        ? await this.shipping.createLabel(ctx, { ...fields, carrier: input.carrier, service: input.service })
        : await this.shipping.quoteAndShip(ctx, { ...fields, prefer: 'cheapest', carrier: input.carrier });
    const at = this.clock.now();
    const saved = await repo.shipConsolidation(ctx.db, row.id, {
      order_id: shipped.order_id,
      tracking_number: shipped.tracking_number,
      carrier: shipped.rate.carrier,
      service: shipped.rate.service,
      shipped_at: at,
    });
    const parcels = await repo.updateParcels(ctx.db, businessId, row.parcel_ids, {
      state: 'shipped',
      left_at: at,
    });
    await this.tracking.appendEvents(
      ctx,
      businessId,
      parcels.map((parcel) => ({
        pkg: { id: null, trackingNumber: parcel.reference },
        event: {
          status_code: 'package_outbound',
          source: { type: 'self_delivery' as const, reference: shipped.tracking_number },
          description: `Consolidated and shipped as ${shipped.tracking_number}`,
        },
      })),
    );
    return { result: true as const, consolidation: view(saved), rate: shipped.rate, labels: shipped.labels };
  }

  private async consolidation(ctx: OperationContext, id: number, options: { lock?: boolean } = {}) {
    const row = await repo.consolidationOf(ctx.db, businessOf(ctx), id, options);
    const customerId = this.forwarding.customerScope(ctx);
    if (!row || (customerId !== undefined && row.customer_user_id !== customerId)) {
      throw new AppError('CONSOLIDATION_NOT_FOUND', { params: { id } });
    }
    return row;
  }

  /** From the suite's warehouse to the customer's address: the repacked carton. */
  private async shipment(ctx: OperationContext, row: repo.ConsolidationRow) {
    const [suite] = await repo.suitesOf(ctx.db, row.business_id, { id: row.suite_id });
    const warehouse = (await this.forwarding.warehouseList(ctx)).find((w) => w.id === suite!.warehouse_id)!;
    const a = warehouse.address;
    const pickup: Address = {
      name: warehouse.name,
      line1: a.line1,
      ...(a.city ? { city: a.city } : {}),
      ...(a.postal_code ? { postal_code: a.postal_code } : {}),
      ...(a.country ? { country: a.country } : {}),
      ...(a.lat !== null ? { lat: a.lat } : {}),
      ...(a.lng !== null ? { lng: a.lng } : {}),
    };
    return {
      pickup,
      dropoff: row.dropoff as Address,
      residential: row.residential,
      packages: [
        {
          weight_grams: row.package.weight_grams,
          length_mm: row.package.length_mm,
          width_mm: row.package.width_mm,
          height_mm: row.package.height_mm,
          description: `Consolidation ${row.id}`,
        },
      ],
    };
  }

  /**
   * The one carton of the business's packaging catalog the packing solver puts every parcel in
   * (on its worker threads, each parcel whole); null without a catalog or when no single carton
   * holds them all.
   */
  private async packed(ctx: OperationContext, parcels: repo.ParcelRow[]): Promise<Carton | null> {
    const { packaging } = await this.packaging.list(ctx, { active: true });
    if (packaging.length === 0) return null;
    const size = (d: { length_mm: number; width_mm: number; height_mm: number }) => ({
      length: d.length_mm,
      width: d.width_mm,
      height: d.height_mm,
    });
    const input: CartonSolverInput = {
      catalog: packaging.map((carton) => ({
        id: carton.id,
        inner: size(carton.inner),
        outer: size(carton.outer),
        tareGrams: carton.tare_grams,
        maxGrossGrams: carton.max_gross_grams,
        costMinor: toMinor(carton.cost, carton.currency) ?? 0,
        active: true,
      })),
      items: parcels.map((parcel) => ({
        id: parcel.id,
        dimensions: { length: parcel.length_mm!, width: parcel.width_mm!, height: parcel.height_mm! },
        weightGrams: parcel.weight_grams!,
        quantity: 1,
      })),
      targetUtilizationPercent: PACKING_FILL_PERCENT,
      timeLimitMs: PACKING_TIME_MS,
      seed: 1,
    };
    const solved = await this.solvers.run<CartonSolverOutput>('cartons', input, PACKING_TIME_MS);
    const [only] = solved.packages;
    if (!only || solved.packages.length > 1 || solved.unfit.length > 0) return null;
    return {
      weight_grams: only.grossGrams,
      length_mm: only.outer.length,
      width_mm: only.outer.width,
      height_mm: only.outer.height,
      packaging_id: only.carton.id,
    };
  }
}

/**
 * The carton without a catalog one: the parcels, measured at receiving, stacked on their largest
 * faces: the largest footprint, their heights summed, their weights and the allowance.
 */
export function stacked(parcels: repo.ParcelRow[]): Carton {
  const sized = parcels.map((p) => [p.length_mm!, p.width_mm!, p.height_mm!].sort((a, b) => b - a));
  return {
    weight_grams: parcels.reduce((sum, p) => sum + p.weight_grams!, REPACK_ALLOWANCE_GRAMS),
    length_mm: Math.max(...sized.map((s) => s[0]!)),
    width_mm: Math.max(...sized.map((s) => s[1]!)),
    height_mm: sized.reduce((sum, s) => sum + s[2]!, 0),
    packaging_id: null,
  };
}

/** The customs declaration: every declared item of every parcel, and the value by currency. */
export function customsOf(parcels: repo.ParcelRow[]) {
  const items = parcels.flatMap((parcel) =>
    (parcel.items as ParcelItem[]).map((item) => ({ ...item, parcel_id: parcel.id })),
  );
  const totals = new Map<string, number>();
  for (const item of items) totals.set(item.currency, (totals.get(item.currency) ?? 0) + item.value);
  return {
    contents_type: 'merchandise',
    items,
    total_value: [...totals].map(([currency, amount]) => ({
      currency,
      amount: Math.round(amount * 100) / 100,
    })),
  };
}

function view(row: repo.ConsolidationRow) {
  return {
    id: row.id,
    customer_id: row.customer_user_id,
    suite_id: row.suite_id,
    state: row.state,
    // node-pg reads a bigint[] as strings.
    parcel_ids: row.parcel_ids.map(Number),
    dropoff: row.dropoff as Address,
    residential: row.residential,
    package: row.package,
    customs: row.customs as ReturnType<typeof customsOf>,
    order_id: row.order_id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    service: row.service,
    created_at: row.created_at.toISOString(),
    shipped_at: row.shipped_at?.toISOString() ?? null,
  };
}
