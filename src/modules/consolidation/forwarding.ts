import { randomBytes } from 'node:crypto';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { toMajor, toMinor } from '../../platform/money.ts';
import { type CursorPageQuery, cursorEnvelopeOf, cursorWindow } from '../../platform/pagination.ts';
import type { TrackingService } from '../tracking/index.ts';
import type { WarehousesService } from '../warehouses/index.ts';
import * as repo from './repository.ts';
import type { ParcelItem, ParcelState } from './tables.ts';

const DAY_MS = 86_400_000;
/** Suite codes and parcel references: no 0/O or 1/I to misread on a label. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface Settings {
  free_storage_days: number;
  storage_fee_minor: number;
  currency: string;
  webhook_secret: string | null;
}

const DEFAULT_SETTINGS: Settings = {
  free_storage_days: 14,
  storage_fee_minor: 0,
  currency: 'EUR',
  webhook_secret: null,
};

/**
 * Package forwarding: the business's settings, its customers' suites at its warehouses, their
 * pre-announced parcels and receiving them. Each parcel has a timeline of its own in the
 * tracking module, under the parcel's reference.
 */
export class Forwarding {
  constructor(
    private readonly clock: Clock,
    private readonly tracking: TrackingService,
    private readonly warehouses: WarehousesService,
  ) {}

  // ----- settings -----

  async settings(ctx: OperationContext): Promise<Settings> {
    return (await repo.settingsOf(ctx.db, businessOf(ctx))) ?? DEFAULT_SETTINGS;
  }

  async configure(
    ctx: OperationContext,
    input: {
      free_storage_days?: number;
      storage_fee_per_day?: number;
      currency?: string;
      generate_webhook_secret?: boolean;
    },
  ) {
    const businessId = businessOf(ctx);
    const current = await this.settings(ctx);
    const currency = input.currency ?? current.currency;
    const fee =
      input.storage_fee_per_day === undefined
        ? current.storage_fee_minor
        : toMinor(input.storage_fee_per_day, currency);
    if (fee === null) throw invalidField('storage_fee_per_day', 'finer_than_currency');
    const generated = input.generate_webhook_secret
      ? `fws_${randomBytes(24).toString('base64url')}`
      : undefined;
    const saved = await repo.saveSettings(ctx.db, {
      business_id: businessId,
      webhook_secret: generated ?? current.webhook_secret,
      free_storage_days: input.free_storage_days ?? current.free_storage_days,
      storage_fee_minor: fee,
      currency,
      updated_at: this.clock.now(),
    });
    return {
      result: true as const,
      settings: settingsView(saved),
      // The whole secret is shown once, when the service made it.
      ...(generated ? { webhook_secret: generated } : {}),
    };
  }

  async settingsAnswer(ctx: OperationContext) {
    return { result: true as const, settings: settingsView(await this.settings(ctx)) };
  }

  // ----- suites -----

  async assignSuite(ctx: OperationContext, input: { customer_id: number; warehouse_id: number }) {
    const businessId = businessOf(ctx);
    const warehouse = await this.warehouse(ctx, input.warehouse_id);
    const [existing] = await repo.suitesOf(ctx.db, businessId, { customerId: input.customer_id });
    if (existing) {
      throw new AppError('SUITE_EXISTS', {
        params: { suite: existing.code },
        details: { suite: existing.code },
      });
    }
    for (;;) {
      const suite = await repo.insertSuite(ctx.db, {
        business_id: businessId,
        warehouse_id: warehouse.id,
        customer_user_id: input.customer_id,
        code: `${warehouse.code}-${randomCode(6)}`,
        created_at: this.clock.now(),
      });
      // Nothing inserted: the code was taken (two assignments of one customer wait on its key).
      if (suite) return { result: true as const, suite: suiteView(suite, warehouse) };
      const [raced] = await repo.suitesOf(ctx.db, businessId, { customerId: input.customer_id });
      if (raced)
        throw new AppError('SUITE_EXISTS', { params: { suite: raced.code }, details: { suite: raced.code } });
    }
  }

  /** The suites of the business (a customer: their own), with the address to ship to. */
  async suites(ctx: OperationContext, input: { customer_id?: number } & CursorPageQuery) {
    const page = await repo.suitesPage(
      ctx.db,
      businessOf(ctx),
      { customerId: this.customerScope(ctx, input.customer_id) },
      cursorWindow(input),
    );
    const warehouses = await this.warehouseList(ctx);
    return {
      result: true as const,
      ...cursorEnvelopeOf(input, page),
      suites: page.rows.map((row) => suiteView(row, warehouses.find((w) => w.id === row.warehouse_id)!)),
    };
  }

  // ----- parcels -----

  async announce(
    ctx: OperationContext,
    input: { customer_id?: number; carrier: string; tracking_number: string; items: ParcelItem[] },
  ) {
    const businessId = businessOf(ctx);
    const customerId = this.customerScope(ctx, input.customer_id);
    if (customerId === undefined) throw invalidField('customer_id', 'required');
    const [suite] = await repo.suitesOf(ctx.db, businessId, { customerId });
    if (!suite) throw new AppError('SUITE_NOT_FOUND', { params: { suite: `customer ${customerId}` } });
    const carrier = normalCarrier(input.carrier);
    const trackingNumber = normalNumber(input.tracking_number);
    const row = await repo.insertParcel(ctx.db, {
      business_id: businessId,
      suite_id: suite.id,
      customer_user_id: customerId,
      reference: `FW${randomCode(12)}`,
      carrier,
      tracking_number: trackingNumber,
      state: 'announced',
      items: input.items,
      weight_grams: null,
      length_mm: null,
      width_mm: null,
      height_mm: null,
      received_at: null,
      received_by: null,
      consolidation_id: null,
      left_at: null,
      created_at: this.clock.now(),
    });
    if (!row) {
      throw new AppError('INBOUND_PARCEL_EXISTS', { params: { carrier, number: trackingNumber } });
    }
    await this.tracking.appendEvent(
      ctx,
      businessId,
      { id: null, trackingNumber: row.reference },
      {
        status_code: 'information_submitted',
        source: { type: 'self_delivery', reference: `${carrier} ${trackingNumber}` },
        description: `Announced for suite ${suite.code}`,
      },
    );
    return { result: true as const, parcel: await this.view(ctx, row) };
  }

  async list(ctx: OperationContext, input: { customer_id?: number; state?: ParcelState } & CursorPageQuery) {
    const page = await repo.parcelsPage(
      ctx.db,
      businessOf(ctx),
      { customerId: this.customerScope(ctx, input.customer_id), state: input.state },
      cursorWindow(input),
    );
    const settings = await this.settings(ctx);
    const now = this.clock.now();
    return {
      result: true as const,
      ...cursorEnvelopeOf(input, page),
      parcels: page.rows.map((row) => parcelView(row, settings, now)),
    };
  }

  /** One parcel with its timeline (the provider's events and the warehouse's). */
  async detail(ctx: OperationContext, id: number) {
    const row = await this.parcel(ctx, id);
    const page = await this.tracking.timeline(ctx.db, row.reference);
    return { result: true as const, parcel: await this.view(ctx, row), timeline: page.timeline };
  }

  /**
   * Receives an announced parcel at its suite's warehouse, found by its carrier's number:
   * measured, photographed (links), and its free storage days start.
   */
  async receive(
    ctx: OperationContext,
    input: {
      carrier?: string;
      tracking_number: string;
      weight_grams: number;
      length_mm: number;
      width_mm: number;
      height_mm: number;
      photo_urls: string[];
    },
  ) {
    const businessId = businessOf(ctx);
    const trackingNumber = normalNumber(input.tracking_number);
    const found = await repo.parcelsOf(ctx.db, businessId, {
      trackingNumber,
      carrier: input.carrier === undefined ? undefined : normalCarrier(input.carrier),
      limit: 2,
      lock: true,
    });
    const row = found[0];
    if (!row || found.length > 1)
      throw new AppError('INBOUND_PARCEL_NOT_FOUND', { params: { parcel: trackingNumber } });
    if (row.state !== 'announced') {
      throw new AppError('INBOUND_PARCEL_STATE', { params: { parcel: row.reference, state: row.state } });
    }
    const at = this.clock.now();
    const [received] = await repo.updateParcels(ctx.db, businessId, [row.id], {
      state: 'received',
      weight_grams: input.weight_grams,
      length_mm: input.length_mm,
      width_mm: input.width_mm,
      height_mm: input.height_mm,
      photo_urls: input.photo_urls,
      received_at: at,
      received_by: callerOf(ctx).userId,
    });
    const [suite] = await repo.suitesOf(ctx.db, businessId, { id: row.suite_id });
    const warehouse = (await this.warehouseList(ctx)).find((w) => w.id === suite!.warehouse_id);
    await this.tracking.appendEvent(
      ctx,
      businessId,
      { id: null, trackingNumber: row.reference },
      {
        status_code: 'received',
        source: { type: 'self_delivery' },
        ...(warehouse ? { location: warehouseLocation(warehouse) } : {}),
        description: `Received at ${warehouse?.name ?? 'the warehouse'}`,
      },
    );
    return { result: true as const, parcel: await this.view(ctx, received!) };
  }

  // ----- shared with consolidations and pushes -----

  async parcel(ctx: OperationContext, id: number): Promise<repo.ParcelRow> {
    const [row] = await repo.parcelsOf(ctx.db, businessOf(ctx), {
      ids: [id],
      customerId: this.customerScope(ctx),
      limit: 1,
    });
    if (!row) throw new AppError('INBOUND_PARCEL_NOT_FOUND', { params: { parcel: id } });
    return row;
  }

  async view(ctx: OperationContext, row: repo.ParcelRow) {
    return parcelView(row, await this.settings(ctx), this.clock.now());
  }

  /** A customer reads and acts on their own parcels only; staff on any customer's they name. */
  customerScope(ctx: OperationContext, asked?: number): number | undefined {
    const caller = callerOf(ctx);
    return caller.kind === 'customer' ? caller.userId : asked;
  }

  async warehouseList(ctx: OperationContext) {
    return (await this.warehouses.sites.list(ctx, { page: 1, per_page: 200 })).warehouses;
  }

  private async warehouse(ctx: OperationContext, id: number) {
    const found = (await this.warehouseList(ctx)).find((w) => w.id === id);
    if (!found) throw new AppError('WAREHOUSE_NOT_FOUND', { params: { id } });
    return found;
  }
}

type WarehouseView = Awaited<ReturnType<Forwarding['warehouseList']>>[number];

function warehouseLocation(warehouse: WarehouseView) {
  const a = warehouse.address;
  return {
    name: warehouse.name,
    address: a.line1,
    ...(a.city ? { city: a.city } : {}),
    ...(a.postal_code ? { postal_code: a.postal_code } : {}),
    ...(a.country ? { country: a.country } : {}),
  };
}

function suiteView(row: repo.SuiteRow, warehouse: WarehouseView) {
  const a = warehouse.address;
  return {
    id: row.id,
    code: row.code,
    customer_id: row.customer_user_id,
    warehouse_id: row.warehouse_id,
    // What the customer writes as the delivery address at the shops they buy from.
    address: {
      line1: a.line1,
      line2: `Suite ${row.code}`,
      ...(a.city ? { city: a.city } : {}),
      ...(a.postal_code ? { postal_code: a.postal_code } : {}),
      ...(a.country ? { country: a.country } : {}),
    },
    created_at: row.created_at.toISOString(),
  };
}

function settingsView(row: Settings) {
  return {
    free_storage_days: row.free_storage_days,
    storage_fee_per_day: toMajor(row.storage_fee_minor, row.currency),
    currency: row.currency,
    webhook_secret_set: row.webhook_secret !== null,
    webhook_secret_hint: row.webhook_secret ? `…${row.webhook_secret.slice(-4)}` : null,
  };
}

/**
 * Storage of a received parcel: every started day counts, from receiving until it leaves (its
 * consolidation ships) or now; the first `free_storage_days` are free, each later one costs the fee.
 */
export function storageOf(row: repo.ParcelRow, settings: Settings, now: Date) {
  if (!row.received_at) return null;
  const end = row.left_at ?? now;
  const days = Math.max(0, Math.ceil((end.getTime() - row.received_at.getTime()) / DAY_MS));
  const chargeable = Math.max(0, days - settings.free_storage_days);
  return {
    days_stored: days,
    free_days: settings.free_storage_days,
    chargeable_days: chargeable,
    free_until: new Date(row.received_at.getTime() + settings.free_storage_days * DAY_MS).toISOString(),
    fee: {
      amount: toMajor(chargeable * settings.storage_fee_minor, settings.currency),
      currency: settings.currency,
    },
  };
}

export function parcelView(row: repo.ParcelRow, settings: Settings, now: Date) {
  return {
    id: row.id,
    reference: row.reference,
    customer_id: row.customer_user_id,
    suite_id: row.suite_id,
    carrier: row.carrier,
    tracking_number: row.tracking_number,
    state: row.state,
    items: row.items,
    measured:
      row.weight_grams === null
        ? null
        : {
            weight_grams: row.weight_grams,
            length_mm: row.length_mm!,
            width_mm: row.width_mm!,
            height_mm: row.height_mm!,
          },
    photo_urls: row.photo_urls,
    received_at: row.received_at?.toISOString() ?? null,
    consolidation_id: row.consolidation_id,
    storage: storageOf(row, settings, now),
    created_at: row.created_at.toISOString(),
  };
}

/** Carriers as AfterShip names them (slugs): lower case. */
export function normalCarrier(carrier: string): string {
  return carrier.trim().toLowerCase();
}

export function normalNumber(number: string): string {
  return number.replace(/\s+/g, '').toUpperCase();
}

/** A refusal of one field, in the shape of the input validation's. */
function invalidField(field: string, code: string): AppError {
  const fields = [{ field, code, message: field }];
  return new AppError('VALIDATION_FAILED', { params: { fields: field }, details: { fields } });
}

function randomCode(length: number): string {
  const bytes = randomBytes(length);
  return [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}
