import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { validationFailed } from '../../platform/catalog/executor.ts';
import { IMPORT_BUDGET_SECONDS } from '../../platform/catalog/jobs.ts';
import type { OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { errorMessage, type Language } from '../../platform/i18n/index.ts';
import { mapInSlices, TimeSlices } from '../../platform/slices.ts';
import type { RecordPlacing } from './placing.ts';
import * as repo from './repository.ts';
import { type CheckedValues, MAX_RECORDS, searchTextOf, valuesChecker } from './schema.ts';
import type { DatasetRow } from './views.ts';

type Values = Record<string, unknown>;

/** Rows one transaction of an import saves: the most a failure midway costs. */
export const CHUNK_ROWS = 250;

/**
 * How long an import goes on saving rows: its job budget less a minute for the row in hand, the
 * last commit and the report, so that a run ends with its report before its job is taken for dead.
 */
export const SAVING_MS = (IMPORT_BUDGET_SECONDS - 60) * 1_000;

/** What a run of an import answers, rows by their position in the file or list (from 0). */
export interface ImportReport {
  result: boolean;
  created: number;
  saved_before: number;
  refused: number;
  complete: boolean;
  stopped_at: number | null;
  rows: ReportRow[];
}

type ReportRow = {
  index: number;
  success: boolean;
  id?: number;
  error_code?: string;
  message?: string;
  details?: Record<string, unknown>;
};

/** Why a run stopped before its last row. */
type Stop = { at: number; reason: 'time' | 'schema' };

/** A run of an import with all_or_nothing that stopped: what it saved goes back with its transaction. */
class NothingKept extends Error {
  constructor(readonly stop: Stop) {
    super('The import stopped before its end, and all or nothing was asked');
  }
}

/** Why a row after the stop was not saved: `NOT_REACHED`, or NOT_SAVED when all or nothing was asked. */
const NOT_REACHED: Record<Stop['reason'], string> = {
  time: 'Not saved: the import ran out of time before this row. Import the same file (or list) again to save the rest.',
  schema:
    "Not saved: the dataset's fields changed during the import. Import the same file (or list) again to check the rest against them.",
};
const NOTHING_KEPT = 'Not saved: the import stopped before its last row, and all or nothing was asked.';

/** A run of an import as its chunks share it: what they save and how far they are. */
interface ImportRun {
  ctx: OperationContext;
  /** The fields the rows were checked against. */
  fields: DatasetRow['fields'];
  key: string;
  /** When the run stops saving (clock milliseconds). */
  deadline: number;
  total: number;
  done: number;
}

/**
 * Imports of records into a dataset. Every row is checked first; then the good ones are saved in
 * chunks of CHUNK_ROWS, each committed on its own, so a run that stops (its time is up, the
 * database failed) keeps every chunk done before. Each record remembers the import it came from (a
 * digest of the file or list) and its row: importing the same file again saves only the rows no
 * earlier run saved, and reports the others with their records. With `all_or_nothing` the rows
 * are saved in one transaction, as that option asks.
 */
export class RecordImports {
  constructor(
    private readonly clock: Clock,
    private readonly placing: RecordPlacing,
  ) {}

  async run(
    ctx: OperationContext,
    dataset: DatasetRow,
    source: { rows: Values[]; content: string },
    allOrNothing: boolean,
  ): Promise<ImportReport> {
    const deadline = this.clock.now().getTime() + SAVING_MS;
    const key = createHash('sha256').update(source.content).digest('hex');
    const before = await repo.importedRows(ctx.db, { businessId: dataset.business_id, id: dataset.id }, key);
    const check = valuesChecker(dataset.fields, ctx.lang);
    // A row saved by an earlier run is not checked again: it is in the dataset already.
    const checked = await mapInSlices(source.rows, (values, index) =>
      before.has(index) ? undefined : check(values),
    );
    const refused = checked.filter((row) => row !== undefined && !row.ok).length;
    const saving = !allOrNothing || refused === 0;
    const pending = checked.flatMap((row, index) => (row?.ok ? [index] : []));
    const saved = new Map<number, number>();
    let stop: Stop | undefined;
    if (saving && pending.length > 0) {
      await roomFor(ctx.db, dataset, pending.length);
      const run: ImportRun = { ctx, fields: dataset.fields, key, deadline, total: pending.length, done: 0 };
      const chunks = allOrNothing ? [pending] : chunksOf(pending, CHUNK_ROWS);
      try {
        for (const chunk of chunks) {
          const rows = chunk.map((index) => ({
            index,
            values: (checked[index] as { values: Values }).values,
          }));
          const outcome = await inTransaction(ctx.db, async (trx) => {
            const done = await this.saveChunk(trx, dataset, rows, run);
            // Thrown inside: the transaction goes back with all it saved.
            if (done.stop && allOrNothing) throw new NothingKept(done.stop);
            return done;
          });
          for (const [index, id] of outcome.saved) saved.set(index, id);
          for (const [index, id] of outcome.before) before.set(index, id);
          if (outcome.stop) {
            stop = outcome.stop;
            break;
          }
        }
      } catch (error) {
        if (!(error instanceof NothingKept)) throw error;
        stop = error.stop;
        saved.clear();
      }
    }
    const rows = await mapInSlices(checked, (row, index) =>
      reportRow(index, row, { saved, before, saving, stop, allOrNothing }, ctx.lang),
    );
    const savedBefore = rows.filter((row) => row.success && !saved.has(row.index)).length;
    return {
      result: saved.size + savedBefore > 0 || rows.length === 0,
      created: saved.size,
      saved_before: savedBefore,
      refused,
      complete: stop === undefined,
      stopped_at: stop?.at ?? null,
      rows,
    };
  }

  /**
   * Saves rows in one transaction, the dataset held against a schema change meanwhile, until they
   * are done or the time is up. A change of the dataset's fields since the rows were checked stops
   * the import before the chunk: its rows were checked against the fields it no longer has.
   */
  private async saveChunk(
    trx: Queryable,
    checkedAgainst: DatasetRow,
    rows: Array<{ index: number; values: Values }>,
    run: ImportRun,
  ): Promise<{ saved: Map<number, number>; before: Map<number, number>; stop?: Stop }> {
    const saved = new Map<number, number>();
    const before = new Map<number, number>();
    const dataset = await repo.datasetForWrite(trx, checkedAgainst.business_id, checkedAgainst.id, 'share');
    if (!dataset) throw new AppError('DATASET_NOT_FOUND', { params: { id: checkedAgainst.id } });
    if (!isDeepStrictEqual(dataset.fields, run.fields))
      return { saved, before, stop: { at: rows[0]!.index, reason: 'schema' } };
    await roomFor(trx, dataset, rows.length);
    const target = { businessId: dataset.business_id, id: dataset.id };
    await this.placing.expect(
      trx,
      dataset,
      rows.map((row) => row.values),
    );
    const slices = new TimeSlices();
    let stop: Stop | undefined;
    for (const { index, values } of rows) {
      if (this.clock.now().getTime() >= run.deadline) {
        stop = { at: index, reason: 'time' };
        break;
      }
      await slices.next();
      const placement = await this.placing.place(trx, dataset, values);
      const record = { data: values, search_text: searchTextOf(dataset.fields, values), ...placement };
      const insert = () =>
        repo.insertImportedRecord(trx, target, record, this.clock.now(), { key: run.key, row: index });
      let id = await insert();
      if (id === undefined) {
        // Another run of the same import saved this row meanwhile; unless its record is gone since.
        const other = (await repo.importedRows(trx, target, run.key)).get(index);
        if (other === undefined) id = await insert();
        else before.set(index, other);
      }
      if (id !== undefined) saved.set(index, id);
      run.done++;
      run.ctx.progress?.((100 * run.done) / run.total);
    }
    await this.placing.placeLater(trx, dataset, [...saved.values()]);
    return { saved, before, stop };
  }
}

/** Refuses writes that would take a dataset past its record limit. */
export async function roomFor(db: Queryable, dataset: DatasetRow, adding: number): Promise<void> {
  if (adding === 0) return;
  if ((await repo.countRecords(db, dataset.id)) + adding > MAX_RECORDS) {
    throw new AppError('DATASET_FULL', { params: { id: dataset.id, limit: MAX_RECORDS } });
  }
}

function chunksOf<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** A row's line of the report: its record, why it was refused, or why it was not saved. */
function reportRow(
  index: number,
  row: CheckedValues | undefined,
  run: {
    saved: Map<number, number>;
    before: Map<number, number>;
    saving: boolean;
    stop: Stop | undefined;
    allOrNothing: boolean;
  },
  lang: Language,
): ReportRow {
  const id = run.saved.get(index) ?? run.before.get(index);
  if (id !== undefined) return { index, success: true, id };
  if (row && !row.ok) {
    const refusal = validationFailed({ issues: row.issues });
    return {
      index,
      success: false,
      error_code: refusal.code,
      message: errorMessage(refusal.code, lang, refusal.options.params),
      details: refusal.options.details,
    };
  }
  if (!run.saving)
    return { index, success: false, error_code: 'NOT_SAVED', message: 'Not saved: another row was refused.' };
  if (run.allOrNothing) return { index, success: false, error_code: 'NOT_SAVED', message: NOTHING_KEPT };
  return {
    index,
    success: false,
    error_code: 'NOT_REACHED',
    message: NOT_REACHED[run.stop?.reason ?? 'time'],
  };
}
