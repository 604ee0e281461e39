import { z } from 'zod';
import { csvLines, IMPORT_JOB_ROWS, importJob } from '../../platform/catalog/jobs.ts';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam } from '../../platform/schemas.ts';
import {
  conditionInput,
  fieldsInput,
  fieldTypeSchema,
  geocodingStatusSchema,
  MAX_IMPORT_ROWS,
  MAX_RECORD_BYTES,
} from './schema.ts';
import type { DatasetsService } from './service.ts';
import { GEOCODING_STATUSES } from './tables.ts';

/** Staff read and write records; the shape of the data (groups, datasets, schemas) is the admin's. */
const READ = { kinds: STAFF, scopes: ['datasets:read'] };
const WRITE_RECORDS = { kinds: STAFF, scopes: ['datasets:write'] };
const DESIGN = { kinds: ['client_admin'] as const, scopes: ['datasets:write'] };
const TAG = 'Dataset';

const groupSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    description: z.string().nullable(),
    dataset_count: z.int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'DatasetGroup' });
const groupAnswer = z.object({ result: z.literal(true), group: groupSchema });
const groupInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).optional(),
});

const fieldSchema = z
  .object({
    name: z.string(),
    label: z.string().nullable(),
    type: fieldTypeSchema,
    required: z.boolean(),
    values: z.array(z.string()).nullable().describe('Enum fields: the values allowed'),
  })
  .meta({ title: 'DatasetField' });

const datasetSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    description: z.string().nullable(),
    // Named so the GraphQL type derived for it does not take the group's own name.
    group: z.object({ id: z.int(), name: z.string() }).meta({ title: 'DatasetGroupRef' }).nullable(),
    fields: z.array(fieldSchema),
    record_count: z.int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'Dataset' });
const datasetAnswer = z.object({ result: z.literal(true), dataset: datasetSchema });

const recordSchema = z
  .object({
    id: z.int(),
    dataset_id: z.int(),
    values: z.record(z.string(), z.unknown()).describe('The values by field name, in their JSON forms'),
    location: z
      .object({ lat: z.number(), lng: z.number() })
      .nullable()
      .describe('Where the record is; null when it is not placed (see geocoding.status)'),
    geocoding: z
      .object({
        status: geocodingStatusSchema,
        provider: z.string().nullable().describe('Who placed it, when geocoded'),
        confidence: z.number().nullable().describe('0 to 1, when geocoded'),
      })
      .meta({ title: 'DatasetGeocoding' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'DatasetRecord' });
const recordAnswer = z.object({ result: z.literal(true), record: recordSchema });

const valuesInput = z
  .record(z.string(), z.unknown())
  .describe(
    `The values by field name: text and enum as strings, number, boolean, date as YYYY-MM-DD, address as { text, country?, lat?, lng? }, geo_point as { lat, lng }; at most ${MAX_RECORD_BYTES} bytes`,
  );
const datasetId = { dataset_id: idParam };
const importReportRow = {
  success: z.boolean(),
  id: z.int().optional(),
  error_code: z.string().optional(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
};
/** The report of an import: each row with where it was (`line` of a CSV file, `index` of a JSON list). */
const importReport = (position: Record<string, z.ZodInt>) =>
  z.object({
    result: z.boolean().describe('false when rows were given and none of them is saved'),
    created: z.int().describe('Rows this run saved'),
    saved_before: z
      .int()
      .describe(
        'Rows an earlier import of the same file or list saved: reported with their record, not saved again',
      ),
    refused: z.int(),
    complete: z
      .boolean()
      .describe('false when the run stopped before its last row (its time ran out): what it saved is kept'),
    stopped_at: z
      .object(position)
      .nullable()
      .describe(
        'The first row not reached when the run stopped; import the same file again to save the rest',
      ),
    rows: z.array(z.object({ ...position, ...importReportRow })),
  });

export function datasetsOperations(datasets: DatasetsService): Operation[] {
  return [
    defineOperation({
      name: 'list_dataset_groups',
      summary: "The business's dataset groups, by name, with how many datasets each holds",
      description:
        "Groups are how people browse a business's datasets; each comes with how many datasets it holds.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_dataset_groups',
        guide:
          "List the business's dataset groups (how its datasets are organised), with their dataset counts.",
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/dataset-groups' },
      graphql: 'datasetGroups',
      input: z.object({ ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, groups: z.array(groupSchema) }),
      handler: (ctx, input) => datasets.groups(ctx, input),
    }),
    defineOperation({
      name: 'create_dataset_group',
      summary: 'Add a dataset group',
      description: 'Put datasets in it with create_dataset or update_dataset (group_id).',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DESIGN,
      rest: { method: 'POST', path: '/v1/client/dataset-groups' },
      graphql: 'createDatasetGroup',
      input: groupInput,
      output: groupAnswer,
      handler: (ctx, input) => datasets.createGroup(ctx, input),
    }),
    defineOperation({
      name: 'update_dataset_group',
      summary: 'Rename or describe a dataset group',
      description: 'Fields left out keep their value.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DESIGN,
      errors: ['DATASET_GROUP_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/dataset-groups/:group_id' },
      graphql: 'updateDatasetGroup',
      input: groupInput.partial().extend({ group_id: idParam }),
      output: groupAnswer,
      handler: (ctx, { group_id, ...changes }) => datasets.updateGroup(ctx, group_id, changes),
    }),
    defineOperation({
      name: 'delete_dataset_group',
      summary: 'Remove a dataset group: refused while it holds datasets, unless they are to be ungrouped',
      description:
        'Refused while datasets are in it, unless ungroup_datasets is true: they then stay, in no group.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DESIGN,
      errors: ['DATASET_GROUP_NOT_FOUND', 'DATASET_GROUP_NOT_EMPTY'],
      rest: { method: 'DELETE', path: '/v1/client/dataset-groups/:group_id' },
      graphql: 'deleteDatasetGroup',
      input: z.object({
        group_id: idParam,
        ungroup_datasets: z
          .boolean()
          .default(false)
          .describe('true: its datasets stay, in no group; false: refused while it holds any'),
      }),
      output: z.object({ result: z.literal(true), deleted: z.int(), ungrouped_datasets: z.int() }),
      handler: (ctx, input) => datasets.deleteGroup(ctx, input.group_id, input.ungroup_datasets),
    }),
    defineOperation({
      name: 'list_datasets',
      summary: "The business's datasets, by name, with their schema and record count",
      description:
        "Each with its fields and record count; group_id narrows to one group. Read a dataset's fields before writing or searching its records.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'list_datasets',
        guide:
          "List the business's datasets (its own tables of records: customer sites, partner lockers, ...) with their fields and record counts; group_id narrows to one group.",
        idempotent: true,
      },
      access: READ,
      rest: { method: 'GET', path: '/v1/client/datasets' },
      graphql: 'datasets',
      input: z.object({
        group_id: idParam.optional().describe('Only the datasets of this group'),
        ...pageParams,
      }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, datasets: z.array(datasetSchema) }),
      handler: (ctx, input) => datasets.list(ctx, input),
    }),
    defineOperation({
      name: 'get_dataset',
      summary: 'One dataset with its schema, record count and how many records are placed on the map',
      description:
        'Its fields (name, type, required, enum values), record count and how many records are placed on the map. Use it before search_dataset_records to know which fields can be filtered.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'get_dataset',
        guide:
          'Read one dataset: its fields (name, type, required, enum values), its record count and its records by geocoding status. Use it before search_dataset_records to know which fields can be filtered.',
        idempotent: true,
      },
      access: READ,
      errors: ['DATASET_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/datasets/:dataset_id' },
      graphql: 'dataset',
      input: z.object(datasetId),
      output: z.object({
        result: z.literal(true),
        dataset: datasetSchema.extend({
          geocoding: z
            .object(Object.fromEntries(GEOCODING_STATUSES.map((status) => [status, z.int()])))
            .describe('How many records are in each geocoding status'),
        }),
      }),
      handler: (ctx, input) => datasets.get(ctx, input.dataset_id),
    }),
    defineOperation({
      name: 'create_dataset',
      summary: 'Add a dataset with its field schema',
      description:
        'Declare the fields records must fit: names, types, whether required, enum values; at most one location field places records on the map.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: DESIGN,
      errors: ['DATASET_GROUP_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/datasets' },
      graphql: 'createDataset',
      input: z.object({
        name: z.string().trim().min(1).max(100),
        description: z.string().trim().max(500).optional(),
        group_id: idParam.optional(),
        fields: fieldsInput.min(1),
      }),
      output: datasetAnswer,
      handler: (ctx, input) => datasets.create(ctx, input),
    }),
    defineOperation({
      name: 'update_dataset',
      summary: 'Rename, describe, regroup a dataset or change its schema: only what is sent changes',
      description:
        'A new `fields` list replaces the schema; it is refused with DATASET_SCHEMA_CONFLICT unless every record ' +
        'stays valid under it. A field left out takes its values with it; group_id null takes the dataset out of its group.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: DESIGN,
      errors: ['DATASET_NOT_FOUND', 'DATASET_GROUP_NOT_FOUND', 'DATASET_SCHEMA_CONFLICT'],
      rest: { method: 'PATCH', path: '/v1/client/datasets/:dataset_id' },
      graphql: 'updateDataset',
      input: z.object({
        ...datasetId,
        name: z.string().trim().min(1).max(100).optional(),
        description: z.string().trim().max(500).nullable().optional(),
        group_id: idParam.nullable().optional().describe('null: out of its group'),
        fields: fieldsInput.min(1).optional(),
      }),
      output: datasetAnswer,
      handler: (ctx, { dataset_id, ...changes }) => datasets.update(ctx, dataset_id, changes),
    }),
    defineOperation({
      name: 'delete_dataset',
      summary: 'Remove a dataset and all its records',
      description: 'Its records go with it, for good.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: DESIGN,
      errors: ['DATASET_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/datasets/:dataset_id' },
      graphql: 'deleteDataset',
      input: z.object(datasetId),
      output: z.object({ result: z.literal(true), deleted: z.int(), deleted_records: z.int() }),
      handler: (ctx, input) => datasets.remove(ctx, input.dataset_id),
    }),
    defineOperation({
      name: 'search_dataset_records',
      summary: "Search a dataset's records by field conditions, words (typos forgiven) and distance",
      description:
        '`where` maps field names to conditions: eq (any type but address and geo_point), in (enum, text, number), ' +
        'gt/gte/lt/lte (number, date). `q` matches words of text, enum and address values, typos forgiven. ' +
        '`near` keeps the records within radius_m metres of a point and gives each its distance. Order: best ' +
        'word match first when q is given, nearest first with order=distance, else newest first.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'search_dataset_records',
        guide:
          'Find records of a dataset: where (conditions on fields: eq, in, gt, gte, lt, lte), q (words, typos forgiven), near (lat, lng, radius_m; order=distance for nearest first), paged. Call get_dataset first for the field names.',
        idempotent: true,
      },
      access: READ,
      errors: ['DATASET_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/datasets/:dataset_id/records/search' },
      graphql: 'searchDatasetRecords',
      input: z
        .object({
          ...datasetId,
          q: z.string().trim().min(2).max(200).optional().describe('Words to look for'),
          where: z
            .record(z.string(), conditionInput)
            .optional()
            .describe(
              'Conditions by field name: { "dock_count": { "gte": 2 }, "status": { "in": ["open"] } }',
            ),
          near: z
            .object({
              lat: z.number().min(-90).max(90),
              lng: z.number().min(-180).max(180),
              radius_m: z.number().positive().max(20_000_000).describe('Metres'),
            })
            .optional(),
          order: z.enum(['relevance', 'distance', 'newest']).optional(),
          ...pageParams,
        })
        .refine((input) => input.order !== 'distance' || input.near !== undefined, {
          ...fieldMessage('near_required'),
          path: ['order'],
        }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        dataset: z.object({ id: z.int(), name: z.string() }),
        records: z.array(
          recordSchema.extend({
            score: z.number().nullable().describe('0 to 1: how well the words match; null without q'),
            distance_m: z.number().nullable().describe('Metres from near; null without near'),
          }),
        ),
      }),
      handler: (ctx, input) => datasets.search(ctx, input),
    }),
    defineOperation({
      name: 'get_dataset_record',
      summary: 'One record of a dataset',
      description: 'Its values, its place on the map when it has one, and how far geocoding got.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: READ,
      errors: ['DATASET_NOT_FOUND', 'DATASET_RECORD_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/datasets/:dataset_id/records/:record_id' },
      graphql: 'datasetRecord',
      input: z.object({ ...datasetId, record_id: idParam }),
      output: recordAnswer,
      handler: (ctx, input) => datasets.record(ctx, input.dataset_id, input.record_id),
    }),
    defineOperation({
      name: 'create_dataset_record',
      summary:
        "Add a record, checked against the dataset's schema; an address without coordinates is geocoded",
      description:
        "Values are checked against the dataset's fields and refused with each one at fault named. An address without coordinates is placed by the business's own places, then by the public geocoder in the background.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE_RECORDS,
      errors: ['DATASET_NOT_FOUND', 'DATASET_FULL'],
      rest: { method: 'POST', path: '/v1/client/datasets/:dataset_id/records' },
      graphql: 'createDatasetRecord',
      input: z.object({ ...datasetId, values: valuesInput }),
      output: recordAnswer,
      handler: (ctx, input) => datasets.createRecord(ctx, input.dataset_id, input.values),
    }),
    defineOperation({
      name: 'update_dataset_record',
      summary: 'Change values of a record: only the values sent change, a null removes one',
      description: "The whole record is checked again against the dataset's fields after the change.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE_RECORDS,
      errors: ['DATASET_NOT_FOUND', 'DATASET_RECORD_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/datasets/:dataset_id/records/:record_id' },
      graphql: 'updateDatasetRecord',
      input: z.object({ ...datasetId, record_id: idParam, values: valuesInput }),
      output: recordAnswer,
      handler: (ctx, input) => datasets.updateRecord(ctx, input.dataset_id, input.record_id, input.values),
    }),
    defineOperation({
      name: 'delete_dataset_record',
      summary: 'Remove a record',
      description: 'Address search and the geocoder stop finding it.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: WRITE_RECORDS,
      errors: ['DATASET_NOT_FOUND', 'DATASET_RECORD_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/datasets/:dataset_id/records/:record_id' },
      graphql: 'deleteDatasetRecord',
      input: z.object({ ...datasetId, record_id: idParam }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => datasets.deleteRecord(ctx, input.dataset_id, input.record_id),
    }),
    defineOperation({
      name: 'import_dataset_records_csv',
      summary: 'Import records from a CSV file, with a report per row',
      description:
        'A header row names the fields (and <field>.lat, <field>.lng, <field>.country for an address or geo point), ' +
        `one record per row, at most ${MAX_IMPORT_ROWS} rows. Every row is checked and reported by line; with ` +
        'all_or_nothing, one refused row and none is saved. Otherwise rows are saved in chunks, each kept once done: ' +
        'a run that stops early (complete: false) keeps them, and importing the same file again saves only the rest. ' +
        `Over REST, a file of ${IMPORT_JOB_ROWS} lines or more, or \`Prefer: respond-async\`, answers 202 with a job (docs/jobs.md).`,
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      expensive: true,
      // Saved in chunks, each committed on its own (docs/datasets.md, "Imports").
      writes: 'stepwise',
      access: WRITE_RECORDS,
      job: importJob((input: { csv: string }) => csvLines(input.csv)),
      errors: ['DATASET_NOT_FOUND', 'DATASET_FULL', 'CSV_UNREADABLE', 'CSV_TOO_LONG'],
      rest: { method: 'POST', path: '/v1/client/datasets/:dataset_id/import/csv' },
      graphql: 'importDatasetRecordsCsv',
      input: z.object({
        ...datasetId,
        csv: z.string().min(1).max(5_000_000).describe('The CSV file, UTF-8'),
        all_or_nothing: z.boolean().default(false),
      }),
      output: importReport({ line: z.int().describe('Line of the file, the header being line 1') }),
      handler: (ctx, input) => datasets.importCsv(ctx, input),
    }),
    defineOperation({
      name: 'import_dataset_records',
      summary: 'Import records given as JSON objects of values, with a report per record',
      description: `At most ${MAX_IMPORT_ROWS} records; every one is checked and reported by its index; with all_or_nothing, one refused record and none is saved. Otherwise records are saved in chunks, each kept once done: a run that stops early (complete: false) keeps them, and importing the same list again saves only the rest. Over REST, ${IMPORT_JOB_ROWS} records or more, or \`Prefer: respond-async\`, answer 202 with a job (docs/jobs.md).`,
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      expensive: true,
      writes: 'stepwise',
      access: WRITE_RECORDS,
      job: importJob((input: { records: unknown[] }) => input.records.length),
      errors: ['DATASET_NOT_FOUND', 'DATASET_FULL'],
      rest: { method: 'POST', path: '/v1/client/datasets/:dataset_id/import' },
      graphql: 'importDatasetRecords',
      input: z.object({
        ...datasetId,
        records: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_IMPORT_ROWS),
        all_or_nothing: z.boolean().default(false),
      }),
      output: importReport({ index: z.int().describe('Index of the record in `records`, from 0') }),
      handler: (ctx, input) => datasets.importJson(ctx, input),
    }),
  ];
}
