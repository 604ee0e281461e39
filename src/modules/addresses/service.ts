import type { Selectable } from 'kysely';
import { z } from 'zod';
import { validationFailed } from '../../platform/catalog/executor.ts';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { GeocodeResult, Geocoder } from '../../platform/geocoding.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { errorMessage, validationErrorMap } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import { addressSchema, openingHoursSchema } from '../../platform/schemas.ts';
import { mapInSlices, parseCsvInSlices, TimeSlices } from '../../platform/slices.ts';
import { GeocoderUnavailable, type PlaceMatch, type PlaceSource } from './geocoding.ts';
import * as repo from './repository.ts';
import { type AddressesTables, POI_CATEGORIES } from './tables.ts';

/** A saved address as callers write it: an order address with a label and notes for the driver. */
export const savedAddressInput = addressSchema.extend({
  label: z.string().trim().min(1).max(100).describe('How people find it: "Head office", "Lyon depot"'),
  delivery_notes: z.string().trim().max(500).optional(),
});
export type SavedAddressInput = z.output<typeof savedAddressInput>;

/** What kind of place a point of interest is. */
export const poiCategorySchema = z.enum(POI_CATEGORIES).meta({ title: 'PointOfInterestCategory' });

/** A point of interest as callers write it: a place of the business with its opening hours. */
export const poiInput = z.object({
  name: z.string().trim().min(1).max(100),
  category: poiCategorySchema,
  line1: z.string().trim().min(1).max(200),
  postal_code: z.string().trim().max(20).optional(),
  city: z.string().trim().max(100).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, fieldMessage('country_code'))
    .optional(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  opening_hours: openingHoursSchema.default({}),
  notes: z.string().trim().max(500).optional(),
});
export type PoiInput = z.output<typeof poiInput>;

/** Rows one CSV import takes at most. */
export const MAX_IMPORT_ROWS = 5_000;

type Row = Selectable<AddressesTables['saved_addresses']>;

/**
 * Address books: the business's own and each customer's, written one by one or imported from a
 * CSV file with a report per row, and searched with typos forgiven.
 */
export class AddressesService {
  constructor(
    private readonly clock: Clock,
    private readonly finders: {
      /** Other modules' placed records (datasets), searched with the book. */
      places: () => PlaceSource | null;
      /** A public geocoder by URL, asked when nothing of the business's own matches; null when none is configured. */
      publicGeocoder: Geocoder | null;
      /** The configured geocoder: the business's own data, then the public one. */
      geocoder: Geocoder | null;
      /** The business's own data alone: answers from the database, never waits on the network. */
      ownData?: Geocoder | null;
    } = { places: () => null, publicGeocoder: null, geocoder: null },
  ) {}

  /** Places an address on the map with the configured geocoders; `found: false` when none knows it. */
  async geocode(
    ctx: OperationContext,
    input: { address: string; country?: string },
    options: { ownDataOnly?: boolean } = {},
  ) {
    const geocoder = options.ownDataOnly ? this.finders.ownData : this.finders.geocoder;
    const found = await geocoder
      ?.geocode(ctx.db, { businessId: businessOf(ctx), text: input.address, country: input.country ?? null })
      .catch((error: unknown) => {
        if (error instanceof GeocoderUnavailable) {
          throw new AppError('GEOCODER_UNAVAILABLE', { params: { reason: error.message } });
        }
        throw error;
      });
    return found
      ? { result: true as const, found: true, place: found }
      : { result: true as const, found: false, place: null };
  }

  async create(ctx: OperationContext, input: SavedAddressInput & { customer_id?: number }) {
    const book = this.bookOf(ctx, input.customer_id);
    const id = await repo.insertAddress(ctx.db, book, valuesOf(input), this.clock.now());
    return { result: true as const, address: await this.one(ctx, book, id) };
  }

  async update(
    ctx: OperationContext,
    id: number,
    input: Partial<SavedAddressInput> & { customer_id?: number },
  ) {
    const book = this.bookOf(ctx, input.customer_id);
    const { customer_id: _customer, ...changes } = input;
    const updated = await repo.updateAddress(ctx.db, book, id, valuesOf(changes), this.clock.now());
    if (!updated) throw new AppError('ADDRESS_NOT_FOUND', { params: { id } });
    return { result: true as const, address: await this.one(ctx, book, id) };
  }

  async remove(ctx: OperationContext, id: number, customerId?: number) {
    if (!(await repo.deleteAddress(ctx.db, this.bookOf(ctx, customerId), id))) {
      throw new AppError('ADDRESS_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, deleted: id };
  }

  async list(ctx: OperationContext, query: PageQuery & { customer_id?: number }) {
    const book = this.bookOf(ctx, query.customer_id);
    const [total, rows] = await Promise.all([
      repo.countAddresses(ctx.db, book),
      repo.addressesOf(ctx.db, book, pageWindow(query)),
    ]);
    return { result: true as const, ...envelopeOf(query, total), addresses: rows.map(viewOf) };
  }

  /**
   * A CSV file with a header row of field names, one address per row. Every row is checked first
   * and reported (its line, and the address made or why not); with `all_or_nothing` one bad row
   * and none is saved.
   */
  async importCsv(
    ctx: OperationContext,
    input: { csv: string; customer_id?: number; all_or_nothing: boolean },
  ) {
    const book = this.bookOf(ctx, input.customer_id);
    // Parsed and checked in slices: a 5,000-row file must not hold every other request meanwhile.
    const csv = await parseCsvInSlices(input.csv, MAX_IMPORT_ROWS);
    if ('unreadable' in csv) throw new AppError('CSV_UNREADABLE', { params: { reason: csv.unreadable } });
    if ('tooLong' in csv) throw new AppError('CSV_TOO_LONG', { params: { limit: MAX_IMPORT_ROWS } });
    const records = csv.rows;
    const errorMap = { error: validationErrorMap(ctx.lang) };
    const checked = await mapInSlices(records, (record, index) => {
      const line = index + 2;
      const parsed = savedAddressInput.safeParse(fromCsv(record), errorMap);
      return parsed.success
        ? { line, input: parsed.data }
        : { line, refusal: validationFailed(parsed.error) };
    });
    const refused = checked.filter((row) => 'refusal' in row).length;
    const saving = !input.all_or_nothing || refused === 0;
    const rows = [];
    const slices = new TimeSlices();
    for (const row of checked) {
      await slices.next();
      if ('refusal' in row) {
        const refusal = row.refusal!;
        rows.push({
          line: row.line,
          success: false,
          error_code: refusal.code,
          message: errorMessage(refusal.code, ctx.lang, refusal.options.params),
          details: refusal.options.details,
        });
      } else if (saving) {
        const id = await repo.insertAddress(ctx.db, book, valuesOf(row.input), this.clock.now());
        rows.push({ line: row.line, success: true, id });
      } else {
        rows.push({
          line: row.line,
          success: false,
          error_code: 'NOT_SAVED',
          message: 'Not saved: another row was refused.',
        });
      }
    }
    const created = rows.filter((row) => row.success).length;
    return { result: created > 0 || records.length === 0, created, refused, rows };
  }

  /**
   * The caller's address book, the business's points of interest and (for staff) its placed
   * dataset records searched by words, typos forgiven, best match first. When none of them matches and a public
   * geocoder is configured, its place answers instead (source `geocoder`); a geocoder that cannot
   * answer now leaves the answer empty rather than failing the search.
   */
  async search(ctx: OperationContext, input: { q: string; limit: number }) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const books = caller.kind === 'customer' ? [caller.userId] : [null];
    const [addresses, pois, records] = await Promise.all([
      repo.searchAddresses(ctx.db, businessId, books, input.q, input.limit),
      repo.searchPois(ctx.db, businessId, input.q, input.limit),
      // Datasets are the business's internal data: a customer's search leaves them out.
      caller.kind === 'customer'
        ? []
        : (this.finders.places()?.searchPlaces(ctx.db, businessId, input.q, input.limit) ?? []),
    ]);
    const rounded = (score: number) => Math.round(score * 100) / 100;
    const matches: SearchMatch[] = [
      ...addresses.map((row) => ({
        source: 'address_book' as const,
        score: rounded(row.score),
        address: viewOf(row),
      })),
      ...pois.map((row) => ({
        source: 'point_of_interest' as const,
        score: rounded(row.score),
        address: poiAddress(row),
      })),
      ...records.map((place) => ({
        source: 'dataset_record' as const,
        score: rounded(place.score),
        address: placeAddress(place),
      })),
    ];
    if (matches.length === 0 && this.finders.publicGeocoder) {
      const found = await this.finders.publicGeocoder
        .geocode(ctx.db, { businessId, text: input.q })
        .catch((error: unknown) => {
          if (error instanceof GeocoderUnavailable) return null;
          throw error;
        });
      if (found)
        matches.push({ source: 'geocoder', score: found.confidence, address: geocodedAddress(found) });
    }
    return {
      result: true as const,
      matches: matches.sort((x, y) => y.score - x.score).slice(0, input.limit),
    };
  }

  /**
   * A saved address as an order writes it out, for an order that names it instead. A customer
   * names one of its own book; staff one of the business's book or of the order's customer.
   * Null when none of those books holds it.
   */
  async orderAddress(ctx: OperationContext, id: number, orderCustomerId: number | null) {
    const caller = callerOf(ctx);
    const books =
      caller.kind === 'customer'
        ? [caller.userId]
        : [null, ...(orderCustomerId === null ? [] : [orderCustomerId])];
    const row = await repo.addressInBooks(ctx.db, businessOf(ctx), books, id);
    if (!row) return null;
    const address = {
      name: row.contact_name ?? undefined,
      phone: row.phone ?? undefined,
      line1: row.line1,
      line2: row.line2 ?? undefined,
      city: row.city ?? undefined,
      postal_code: row.postal_code ?? undefined,
      country: row.country ?? undefined,
      lat: row.lat ?? undefined,
      lng: row.lng ?? undefined,
    };
    return { address, deliveryNotes: row.delivery_notes };
  }

  async createPoi(ctx: OperationContext, input: PoiInput) {
    const id = await repo.insertPoi(ctx.db, businessOf(ctx), input, this.clock.now());
    return { result: true as const, point: await this.poi(ctx, id) };
  }

  async updatePoi(ctx: OperationContext, id: number, input: Partial<PoiInput>) {
    if (!(await repo.updatePoi(ctx.db, businessOf(ctx), id, input, this.clock.now()))) {
      throw new AppError('POI_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, point: await this.poi(ctx, id) };
  }

  async deletePoi(ctx: OperationContext, id: number) {
    if (!(await repo.deletePoi(ctx.db, businessOf(ctx), id)))
      throw new AppError('POI_NOT_FOUND', { params: { id } });
    return { result: true as const, deleted: id };
  }

  async pois(ctx: OperationContext, query: PageQuery & { category?: string }) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countPois(ctx.db, businessId, query.category),
      repo.poisOf(ctx.db, businessId, { category: query.category, ...pageWindow(query) }),
    ]);
    return { result: true as const, ...envelopeOf(query, total), points: rows.map(poiView) };
  }

  /** The business's points of interest (of these categories) as a map draws them, at most `limit`. */
  async mapPlaces(
    db: Queryable,
    businessId: number,
    categories: readonly string[] | undefined,
    limit: number,
  ) {
    return repo.poisForMap(db, businessId, categories, limit);
  }

  /**
   * The entries of the business's own address book that have a point, as a map draws them, at
   * most `limit`; customers' books never.
   */
  async mapAddresses(db: Queryable, businessId: number, limit: number) {
    const rows = await repo.placedAddressesOf(db, businessId, limit);
    return rows.map((row) => ({ ...viewOf(row), lat: row.lat!, lng: row.lng! }));
  }

  private async poi(ctx: OperationContext, id: number) {
    const [row] = await repo.poisOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    return poiView(row!);
  }

  /** A customer's own book; for staff, the business's, or one customer's when they name it. */
  private bookOf(ctx: OperationContext, customerId?: number): repo.Book {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    if (caller.kind === 'customer') return { businessId, customerUserId: caller.userId };
    return { businessId, customerUserId: customerId ?? null };
  }

  private async one(ctx: OperationContext, book: repo.Book, id: number) {
    const [row] = await repo.addressesOf(ctx.db, book, { ids: [id], limit: 1, offset: 0 });
    return viewOf(row!);
  }
}

type PoiRow = Selectable<AddressesTables['points_of_interest']>;

function poiView(row: PoiRow) {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    line1: row.line1,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    lat: row.lat,
    lng: row.lng,
    opening_hours: row.opening_hours,
    notes: row.notes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A point of interest as a search match shows it: like a saved address, its category as label. */
function poiAddress(row: PoiRow) {
  const { name, notes, opening_hours: _hours, ...place } = poiView(row);
  return {
    ...place,
    customer_id: null,
    label: name,
    name: null,
    phone: null,
    line2: null,
    delivery_notes: notes,
  };
}

type SearchMatch = {
  source: 'address_book' | 'point_of_interest' | 'dataset_record' | 'geocoder';
  score: number;
  address:
    | ReturnType<typeof viewOf>
    | ReturnType<typeof poiAddress>
    | ReturnType<typeof placeAddress>
    | ReturnType<typeof geocodedAddress>;
};

/** A placed dataset record as a search match shows it: its name as label, its address as one line. */
function placeAddress(place: PlaceMatch) {
  return {
    ...emptyAddress,
    id: place.record_id,
    dataset_id: place.dataset_id,
    label: place.label,
    line1: place.address_text,
    lat: place.lat,
    lng: place.lng,
  };
}

/** A public geocoder's place: its name as it gives it, nothing saved behind it. */
function geocodedAddress(found: GeocodeResult) {
  return {
    ...emptyAddress,
    id: null,
    label: found.label,
    line1: found.label,
    lat: found.lat,
    lng: found.lng,
  };
}

const emptyAddress = {
  customer_id: null,
  name: null,
  phone: null,
  line2: null,
  postal_code: null,
  city: null,
  country: null,
  delivery_notes: null,
  created_at: null,
  updated_at: null,
};

/** The columns of an address as callers write it: its `name` is the contact's. */
function valuesOf<T extends Partial<SavedAddressInput>>({ name, ...rest }: T) {
  return { ...rest, ...(name === undefined ? {} : { contact_name: name }) };
}

/** CSV cells are text: empty ones are absent, coordinates are numbers. */
function fromCsv(record: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, cell] of Object.entries(record)) {
    if (cell === '') continue;
    values[field] = field === 'lat' || field === 'lng' ? Number(cell) : cell;
  }
  return values;
}

function viewOf(row: Row) {
  return {
    id: row.id,
    customer_id: row.customer_user_id,
    label: row.label,
    name: row.contact_name,
    phone: row.phone,
    line1: row.line1,
    line2: row.line2,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    lat: row.lat,
    lng: row.lng,
    delivery_notes: row.delivery_notes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
