import { validationFailed } from '../../platform/catalog/executor.ts';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Geocoder } from '../../platform/geocoding.ts';
import type { Language } from '../../platform/i18n/index.ts';
import type { OutboxHandler } from '../../platform/outbox/outbox.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import { mapInSlices, parseCsvInSlices, TimeSlices } from '../../platform/slices.ts';
import { RecordImports, roomFor } from './importing.ts';
import { RecordPlacing } from './placing.ts';
import * as repo from './repository.ts';
import {
  type Condition,
  checkConditions,
  labelOf,
  locationField,
  MAX_IMPORT_ROWS,
  searchTextOf,
  validValues,
  valuesChecker,
  valuesFromCsv,
} from './schema.ts';
import { type FieldSpec, GEOCODING_STATUSES, type GeocodingStatus } from './tables.ts';
import { type DatasetRow, datasetView, groupView, recordView, rounded } from './views.ts';

type Values = Record<string, unknown>;

/** Records a schema change reads at a time while it checks them all. */
const SCHEMA_CHECK_BATCH = 1_000;
/** Records a refused schema change names, at most. */
const CONFLICTS_SHOWN = 10;

export interface SearchInput extends PageQuery {
  dataset_id: number;
  q?: string;
  where?: Record<string, Condition>;
  near?: { lat: number; lng: number; radius_m: number };
  order?: 'relevance' | 'distance' | 'newest';
}

/** A placed record whose address matches words, as the address search and the built-in geocoder use it. */
export interface Place {
  dataset_id: number;
  dataset_name: string;
  record_id: number;
  label: string;
  address_text: string;
  lat: number;
  lng: number;
  score: number;
}

/**
 * A business's datasets: groups, datasets with a declared field schema, and their records,
 * checked against the schema on every write, imported from CSV or JSON with a report per row,
 * placed on the map through the geocoder, and searched by fields, words and distance.
 */
export class DatasetsService {
  private readonly placing: RecordPlacing;
  private readonly imports: RecordImports;

  /** `geocoding`: how records are placed as they are written, and later (see RecordPlacing). */
  constructor(
    private readonly clock: Clock,
    geocoding: { now: Geocoder | null; later?: Geocoder | null },
  ) {
    this.placing = new RecordPlacing(clock, geocoding);
    this.imports = new RecordImports(clock, this.placing);
  }

  // Groups -----------------------------------------------------------------------------------

  async groups(ctx: OperationContext, query: PageQuery) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countGroups(ctx.db, businessId),
      repo.groupsOf(ctx.db, businessId, pageWindow(query)),
    ]);
    return { result: true as const, ...envelopeOf(query, total), groups: rows.map(groupView) };
  }

  async createGroup(ctx: OperationContext, input: { name: string; description?: string }) {
    const id = await repo.insertGroup(ctx.db, businessOf(ctx), input, this.clock.now());
    return { result: true as const, group: await this.group(ctx, id) };
  }

  async updateGroup(
    ctx: OperationContext,
    id: number,
    input: { name?: string; description?: string | null },
  ) {
    if (!(await repo.updateGroup(ctx.db, businessOf(ctx), id, input, this.clock.now()))) {
      throw new AppError('DATASET_GROUP_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, group: await this.group(ctx, id) };
  }

  /**
   * A group goes only empty, unless the caller asks its datasets to be ungrouped first: deleting a
   * group never deletes a dataset.
   */
  async deleteGroup(ctx: OperationContext, id: number, ungroup: boolean) {
    const businessId = businessOf(ctx);
    if (!(await repo.lockGroup(ctx.db, businessId, id, 'update'))) {
      throw new AppError('DATASET_GROUP_NOT_FOUND', { params: { id } });
    }
    const group = await this.group(ctx, id);
    if (group.dataset_count > 0 && !ungroup) {
      throw new AppError('DATASET_GROUP_NOT_EMPTY', { params: { id, count: group.dataset_count } });
    }
    const ungrouped = ungroup ? await repo.ungroupDatasets(ctx.db, businessId, id, this.clock.now()) : 0;
    await repo.deleteGroup(ctx.db, businessId, id);
    return { result: true as const, deleted: id, ungrouped_datasets: ungrouped };
  }

  private async group(ctx: OperationContext, id: number) {
    const [row] = await repo.groupsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    if (!row) throw new AppError('DATASET_GROUP_NOT_FOUND', { params: { id } });
    return groupView(row);
  }

  // Datasets ---------------------------------------------------------------------------------

  async list(ctx: OperationContext, query: PageQuery & { group_id?: number }) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countDatasets(ctx.db, businessId, query.group_id),
      repo.datasetsOf(ctx.db, businessId, { groupId: query.group_id, ...pageWindow(query) }),
    ]);
    return { result: true as const, ...envelopeOf(query, total), datasets: rows.map(datasetView) };
  }

  /** One dataset with its schema, its record count and how many records are in each geocoding status. */
  async get(ctx: OperationContext, id: number) {
    const dataset = await this.dataset(ctx, id);
    const counts = await repo.geocodingCounts(ctx.db, id);
    const geocoding = Object.fromEntries(GEOCODING_STATUSES.map((status) => [status, 0])) as Record<
      GeocodingStatus,
      number
    >;
    for (const row of counts) geocoding[row.geocoding_status] = row.count;
    return { result: true as const, dataset: { ...dataset, geocoding } };
  }

  async create(
    ctx: OperationContext,
    input: { name: string; description?: string; group_id?: number; fields: FieldSpec[] },
  ) {
    const businessId = businessOf(ctx);
    if (input.group_id !== undefined) await this.lockGroup(ctx, input.group_id);
    const id = await repo.insertDataset(
      ctx.db,
      businessId,
      {
        name: input.name,
        description: input.description ?? null,
        group_id: input.group_id ?? null,
        fields: input.fields,
      },
      this.clock.now(),
    );
    return { result: true as const, dataset: await this.dataset(ctx, id) };
  }

  /**
   * Renames, describes, moves to another group, or changes the schema. A new schema is checked
   * against every record first: it is refused (409, the records at fault named) unless each
   * record stays valid. A field left out of the new schema takes its values with it.
   */
  async update(
    ctx: OperationContext,
    id: number,
    input: { name?: string; description?: string | null; group_id?: number | null; fields?: FieldSpec[] },
  ) {
    const businessId = businessOf(ctx);
    const now = this.clock.now();
    const current = await repo.datasetForWrite(ctx.db, businessId, id, 'update');
    if (!current) throw new AppError('DATASET_NOT_FOUND', { params: { id } });
    if (input.group_id !== undefined && input.group_id !== null) await this.lockGroup(ctx, input.group_id);
    if (input.fields) await this.changeSchema(ctx, current, input.fields, now);
    await repo.updateDataset(ctx.db, businessId, id, input, now);
    return { result: true as const, dataset: await this.dataset(ctx, id) };
  }

  async remove(ctx: OperationContext, id: number) {
    const businessId = businessOf(ctx);
    const current = await repo.datasetForWrite(ctx.db, businessId, id, 'update');
    if (!current) throw new AppError('DATASET_NOT_FOUND', { params: { id } });
    const records = await repo.countRecords(ctx.db, id);
    await repo.deleteDataset(ctx.db, businessId, id);
    return { result: true as const, deleted: id, deleted_records: records };
  }

  private async changeSchema(ctx: OperationContext, current: DatasetRow, fields: FieldSpec[], now: Date) {
    const kept = new Set(fields.map((field) => field.name));
    const removed = current.fields.map((field) => field.name).filter((name) => !kept.has(name));
    const conflicts: Array<{ record_id: number; fields: unknown }> = [];
    let refused = 0;
    const searchTexts = new Map<number, string>();
    const check = valuesChecker(fields, ctx.lang);
    const slices = new TimeSlices();
    for (let after = 0; ; ) {
      const batch = await repo.recordsAfter(ctx.db, current.id, after, SCHEMA_CHECK_BATCH);
      if (batch.length === 0) break;
      for (const row of batch) {
        const values = Object.fromEntries(Object.entries(row.data).filter(([name]) => kept.has(name)));
        const checked = check(values);
        await slices.next();
        if (!checked.ok) {
          refused++;
          if (conflicts.length < CONFLICTS_SHOWN) {
            conflicts.push({
              record_id: row.id,
              fields: validationFailed({ issues: checked.issues }).options.details!.fields,
            });
          }
        } else searchTexts.set(row.id, searchTextOf(fields, checked.values));
      }
      after = batch[batch.length - 1]!.id;
    }
    if (refused > 0) {
      throw new AppError('DATASET_SCHEMA_CONFLICT', {
        params: { count: refused },
        details: { records: conflicts },
      });
    }
    await repo.dropValues(ctx.db, current.id, removed, now);
    const before = locationField(current.fields);
    const after = locationField(fields);
    // A location field renamed, retyped or removed: no record holds a value in the new one.
    if (before && (before.name !== after?.name || before.type !== after?.type)) {
      await repo.unplaceRecords(ctx.db, current.id, now);
    }
    for (const [recordId, text] of searchTexts) await repo.setSearchText(ctx.db, current.id, recordId, text);
  }

  private async lockGroup(ctx: OperationContext, id: number) {
    if (!(await repo.lockGroup(ctx.db, businessOf(ctx), id))) {
      throw new AppError('DATASET_GROUP_NOT_FOUND', { params: { id } });
    }
  }

  private async dataset(ctx: OperationContext, id: number) {
    const [row] = await repo.datasetsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    if (!row) throw new AppError('DATASET_NOT_FOUND', { params: { id } });
    return datasetView(row);
  }

  /** The dataset records are written to, held against a concurrent schema change. */
  private async forRecords(ctx: OperationContext, id: number) {
    const dataset = await repo.datasetForWrite(ctx.db, businessOf(ctx), id, 'share');
    if (!dataset) throw new AppError('DATASET_NOT_FOUND', { params: { id } });
    return dataset;
  }

  // Records ----------------------------------------------------------------------------------

  async record(ctx: OperationContext, datasetId: number, id: number) {
    const dataset = await this.readable(ctx, datasetId);
    const row = await repo.recordOf(ctx.db, { businessId: dataset.business_id, id: datasetId }, id);
    if (!row) throw new AppError('DATASET_RECORD_NOT_FOUND', { params: { id } });
    return { result: true as const, record: recordView(row) };
  }

  async createRecord(ctx: OperationContext, datasetId: number, values: Values) {
    const dataset = await this.forRecords(ctx, datasetId);
    const checked = validValues(dataset.fields, values, ctx.lang);
    await roomFor(ctx.db, dataset, 1);
    const id = await this.insert(ctx, dataset, checked);
    await this.placing.placeLater(ctx.db, dataset, [id]);
    return { result: true as const, record: await this.one(ctx, dataset, id) };
  }

  /** Changes the values sent (a null removes one); the whole record is checked again. */
  async updateRecord(ctx: OperationContext, datasetId: number, id: number, changes: Values) {
    const dataset = await this.forRecords(ctx, datasetId);
    const key = { businessId: dataset.business_id, id: dataset.id };
    const previous = await repo.recordOf(ctx.db, key, id);
    if (!previous) throw new AppError('DATASET_RECORD_NOT_FOUND', { params: { id } });
    const merged = { ...previous.data, ...changes };
    const checked = validValues(dataset.fields, merged, ctx.lang);
    const placement = await this.placing.place(ctx.db, dataset, checked, previous);
    await repo.updateRecord(
      ctx.db,
      key,
      id,
      { data: checked, search_text: searchTextOf(dataset.fields, checked), ...placement },
      this.clock.now(),
    );
    await this.placing.placeLater(ctx.db, dataset, [id]);
    return { result: true as const, record: await this.one(ctx, dataset, id) };
  }

  async deleteRecord(ctx: OperationContext, datasetId: number, id: number) {
    const dataset = await this.forRecords(ctx, datasetId);
    if (!(await repo.deleteRecord(ctx.db, { businessId: dataset.business_id, id: dataset.id }, id))) {
      throw new AppError('DATASET_RECORD_NOT_FOUND', { params: { id } });
    }
    return { result: true as const, deleted: id };
  }

  /**
   * A CSV file with a header row of field names (and `<field>.lat`, `<field>.lng`,
   * `<field>.country` for addresses and geo points), one record per row, reported by line.
   */
  async importCsv(
    ctx: OperationContext,
    input: { dataset_id: number; csv: string; all_or_nothing: boolean },
  ) {
    const dataset = await this.readable(ctx, input.dataset_id);
    // Parsed and checked in slices: a 5,000-row file must not hold every other request meanwhile.
    const csv = await parseCsvInSlices(input.csv, MAX_IMPORT_ROWS);
    if ('unreadable' in csv) throw new AppError('CSV_UNREADABLE', { params: { reason: csv.unreadable } });
    if ('tooLong' in csv) throw new AppError('CSV_TOO_LONG', { params: { limit: MAX_IMPORT_ROWS } });
    const rows = await mapInSlices(csv.rows, (row) => valuesFromCsv(dataset.fields, row));
    const { stopped_at, ...report } = await this.imports.run(
      ctx,
      dataset,
      { rows, content: input.csv },
      input.all_or_nothing,
    );
    // The header is line 1.
    return {
      ...report,
      stopped_at: stopped_at === null ? null : { line: stopped_at + 2 },
      rows: report.rows.map(({ index, ...row }) => ({ line: index + 2, ...row })),
    };
  }

  /** Records as JSON objects of values, reported by their index in `records`. */
  async importJson(
    ctx: OperationContext,
    input: { dataset_id: number; records: Values[]; all_or_nothing: boolean },
  ) {
    const dataset = await this.readable(ctx, input.dataset_id);
    const { stopped_at, ...report } = await this.imports.run(
      ctx,
      dataset,
      { rows: input.records, content: JSON.stringify(input.records) },
      input.all_or_nothing,
    );
    return { ...report, stopped_at: stopped_at === null ? null : { index: stopped_at } };
  }

  private async insert(ctx: OperationContext, dataset: DatasetRow, values: Values) {
    const placement = await this.placing.place(ctx.db, dataset, values);
    return repo.insertRecord(
      ctx.db,
      { businessId: dataset.business_id, id: dataset.id },
      { data: values, search_text: searchTextOf(dataset.fields, values), ...placement },
      this.clock.now(),
    );
  }

  /** The outbox handler that places pending records with the public geocoder (RecordPlacing.placer). */
  placer(db: Queryable): OutboxHandler {
    return this.placing.placer(db);
  }

  private async one(ctx: OperationContext, dataset: DatasetRow, id: number) {
    const row = await repo.recordOf(ctx.db, { businessId: dataset.business_id, id: dataset.id }, id);
    return recordView(row!);
  }

  /** The dataset a read names, or 404 when it is not the caller's business's. */
  private async readable(ctx: OperationContext, id: number): Promise<DatasetRow> {
    const [row] = await repo.datasetsOf(ctx.db, businessOf(ctx), { ids: [id], limit: 1, offset: 0 });
    if (!row) throw new AppError('DATASET_NOT_FOUND', { params: { id } });
    return row;
  }

  // Search -----------------------------------------------------------------------------------

  /**
   * A dataset's records by conditions on fields, words (typos forgiven) and distance from a
   * point. Best word match first when words are given, nearest first when asked, else newest.
   */
  async search(ctx: OperationContext, input: SearchInput) {
    const dataset = await this.readable(ctx, input.dataset_id);
    const byName = checkConditions(dataset.fields, input.where ?? {}, ctx.lang);
    const search: repo.RecordSearch = {
      businessId: dataset.business_id,
      datasetId: dataset.id,
      words: input.q,
      where: Object.entries(input.where ?? {}).map(([name, condition]) => ({
        field: byName.get(name)!,
        condition,
      })),
      near: input.near,
      order: input.order ?? (input.q ? 'relevance' : 'newest'),
    };
    const [total, rows] = await Promise.all([
      repo.countMatches(ctx.db, search),
      repo.matches(ctx.db, search, pageWindow(input)),
    ]);
    return {
      result: true as const,
      ...envelopeOf(input, total),
      dataset: { id: dataset.id, name: dataset.name },
      records: rows.map((row) => ({
        ...recordView(row),
        score: row.score === null ? null : rounded(row.score),
        distance_m: row.distance_m === null ? null : Math.round(row.distance_m),
      })),
    };
  }

  /**
   * A dataset's placed records (those with a point) that match a search, newest first, at most
   * `limit`, with the dataset's fields: what a map layer draws. Null when the business has no
   * such dataset; conditions that do not fit its fields are refused as the search refuses them.
   */
  async placedRecords(
    db: Queryable,
    businessId: number,
    search: { dataset_id: number; q?: string; where?: Record<string, Condition>; near?: SearchInput['near'] },
    limit: number,
    lang: Language,
  ) {
    const [dataset] = await repo.datasetsOf(db, businessId, {
      ids: [search.dataset_id],
      limit: 1,
      offset: 0,
    });
    if (!dataset) return null;
    const byName = checkConditions(dataset.fields, search.where ?? {}, lang);
    const query: repo.RecordSearch = {
      businessId,
      datasetId: dataset.id,
      words: search.q,
      where: Object.entries(search.where ?? {}).map(([name, condition]) => ({
        field: byName.get(name)!,
        condition,
      })),
      near: search.near,
      order: 'newest',
      placed: true,
    };
    const [total, rows] = await Promise.all([
      repo.countMatches(db, query),
      repo.matches(db, query, { limit, offset: 0 }),
    ]);
    return {
      dataset: { id: dataset.id, name: dataset.name, fields: dataset.fields },
      total: Number(total),
      records: rows.map((row) => ({
        id: row.id,
        label: labelOf(dataset.fields, row.data, dataset.name, row.id),
        values: row.data,
        lat: row.lat!,
        lng: row.lng!,
      })),
    };
  }

  /** Placed dataset records whose address matches the words, typos forgiven, best first. */
  async searchPlaces(db: Queryable, businessId: number, q: string, limit: number): Promise<Place[]> {
    return (await repo.placesLike(db, businessId, q, limit)).map(placeOf);
  }

  /** For each of the words, the `limit` placed records at least `minScore` alike, best first. */
  async placesLike(
    db: Queryable,
    businessId: number,
    words: string[],
    limit: number,
    minScore: number,
  ): Promise<Place[][]> {
    const lower = words.map((text) => text.toLowerCase());
    const answers = await repo.placesLikeEach(db, businessId, lower, limit, minScore);
    return answers.map((rows) => rows.map(placeOf));
  }
}

/** A placed record as the address search and the built-in geocoder take it. */
function placeOf(row: {
  id: number;
  dataset_id: number;
  dataset_name: string;
  fields: FieldSpec[];
  data: Values;
  address_text: string | null;
  lat: number | null;
  lng: number | null;
  score: number;
}): Place {
  return {
    dataset_id: row.dataset_id,
    dataset_name: row.dataset_name,
    record_id: row.id,
    label: labelOf(row.fields, row.data, row.dataset_name, row.id),
    address_text: row.address_text!,
    lat: row.lat!,
    lng: row.lng!,
    score: rounded(row.score),
  };
}
