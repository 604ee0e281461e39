import { z } from 'zod';
import { validationFailed } from '../../platform/catalog/executor.ts';
import { fieldIssue, fieldMessage } from '../../platform/i18n/field-messages.ts';
import { type Language, validationErrorMap } from '../../platform/i18n/index.ts';
import { FIELD_TYPES, type FieldSpec, type FieldType, GEOCODING_STATUSES } from './tables.ts';

/** Fields a dataset declares at most. */
export const MAX_FIELDS = 50;
/** Bytes of JSON one record's values take at most. */
export const MAX_RECORD_BYTES = 16_384;
/** Rows one import (CSV or JSON) takes at most. */
export const MAX_IMPORT_ROWS = 5_000;
/** Records one dataset holds at most. */
export const MAX_RECORDS = 100_000;
/** Characters a text value holds at most. */
export const MAX_TEXT = 2_000;

const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** The types that place a record on the map; a dataset has at most one such field. */
const LOCATION_TYPES: readonly FieldType[] = ['address', 'geo_point'];

// The datasets vocabulary, one named type each in the contract.
export const fieldTypeSchema = z.enum(FIELD_TYPES).meta({ title: 'DatasetFieldType' });
export const geocodingStatusSchema = z.enum(GEOCODING_STATUSES).meta({ title: 'GeocodingStatus' });

const fieldSpec = z.object({
  name: z
    .string()
    .regex(FIELD_NAME, fieldMessage('field_name'))
    .describe('How values are keyed: a lowercase letter, then lowercase letters, digits and _ (40 at most)'),
  label: z.string().trim().min(1).max(100).optional().describe('How people read it: "Dock count"'),
  type: fieldTypeSchema,
  required: z.boolean().default(false),
  values: z
    .array(z.string().trim().min(1).max(100))
    .min(1)
    .max(100)
    .optional()
    .describe('Enum fields: the values allowed'),
});

/** A dataset's declared fields: unique names, enum values where (and only where) they belong. */
export const fieldsInput = z
  .array(fieldSpec)
  .max(MAX_FIELDS)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    let locations = 0;
    fields.forEach((field, index) => {
      if (seen.has(field.name)) {
        ctx.addIssue({ code: 'custom', path: [index, 'name'], ...fieldIssue('unique', { field: 'name' }) });
      }
      seen.add(field.name);
      if (field.type === 'enum' && !field.values) {
        ctx.addIssue({ code: 'custom', path: [index, 'values'], ...fieldIssue('enum_values_required') });
      }
      if (field.type !== 'enum' && field.values) {
        ctx.addIssue({ code: 'custom', path: [index, 'values'], ...fieldIssue('enum_values_only') });
      }
      if (field.type === 'enum' && field.values && new Set(field.values).size !== field.values.length) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'values'],
          ...fieldIssue('unique', { field: 'value' }),
        });
      }
      if (LOCATION_TYPES.includes(field.type) && ++locations > 1) {
        ctx.addIssue({ code: 'custom', path: [index, 'type'], ...fieldIssue('one_location_field') });
      }
    });
  })
  .describe(
    `The fields of each record, in order (at most ${MAX_FIELDS}); at most one address or geo_point field, which places the record`,
  );

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

/** An address value: one line of text, optionally its country and coordinates (both or neither). */
const addressValue = z
  .object({
    text: z.string().trim().min(3).max(300).describe('One line: "8 Quai Perrache, 69002 Lyon"'),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, fieldMessage('country_code'))
      .optional(),
    lat: latitude.optional(),
    lng: longitude.optional(),
  })
  .strict()
  .refine((address) => (address.lat === undefined) === (address.lng === undefined), {
    ...fieldMessage('lat_lng_together'),
    path: ['lng'],
  });

const geoPointValue = z.object({ lat: latitude, lng: longitude }).strict();

/** The schema of one value of a field of this type. */
function valueSchema(field: FieldSpec): z.ZodType {
  switch (field.type) {
    case 'text':
      return z.string().trim().min(1).max(MAX_TEXT);
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.iso.date();
    case 'address':
      return addressValue;
    case 'geo_point':
      return geoPointValue;
    case 'enum':
      return z.enum(field.values as [string, ...string[]]);
  }
}

/** The outcome of checking one record's values (see valuesChecker). */
export type CheckedValues =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; issues: z.core.$ZodIssue[] };

/**
 * The check of a record's values against its dataset's fields, with the refusals as the
 * executor's (`values.<field>` named in `details`, messages in the caller's language). A null or
 * absent optional value is left out; a key the schema does not declare is refused. The schemas
 * are built once: an import checks thousands of records against the same fields, and building
 * them cost more than using them.
 */
export function valuesChecker(
  fields: FieldSpec[],
  lang: Language,
): (values: Record<string, unknown>) => CheckedValues {
  const shape = Object.fromEntries(
    fields.map((field) => [field.name, field.required ? valueSchema(field) : valueSchema(field).optional()]),
  );
  const declared = new Set(fields.map((field) => field.name));
  const schema = z.object({ values: z.looseObject(shape) });
  // Unknown keys and the size are checked on their own, so a refusal names them beside the
  // values at fault (zod skips a refinement of an object whose fields failed).
  const whole = z.object({
    values: z
      .record(z.string(), z.unknown())
      .superRefine((record, ctx) => {
        for (const key of Object.keys(record)) {
          if (!declared.has(key)) {
            ctx.addIssue({ code: 'custom', path: [key], ...fieldIssue('unknown_field', { field: key }) });
          }
        }
      })
      .refine((record) => Buffer.byteLength(JSON.stringify(record)) <= MAX_RECORD_BYTES, {
        ...fieldMessage('record_too_large', { max: MAX_RECORD_BYTES }),
      }),
  });
  const error = { error: validationErrorMap(lang) };
  return (values) => {
    const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
    const parsed = schema.safeParse({ values: given }, error);
    const outer = whole.safeParse({ values: given }, error);
    const issues = [
      ...(outer.success ? [] : outer.error.issues),
      ...(parsed.success ? [] : parsed.error.issues),
    ];
    if (!parsed.success || issues.length > 0) return { ok: false, issues };
    // Keys come back in the schema's order, so equal records read alike.
    const ordered: Record<string, unknown> = {};
    for (const field of fields) {
      const value = (parsed.data.values as Record<string, unknown>)[field.name];
      if (value !== undefined) ordered[field.name] = value;
    }
    return { ok: true, values: ordered };
  };
}

/** One record's values checked, or the 422 VALIDATION_FAILED refusal thrown. */
export function validValues(fields: FieldSpec[], values: Record<string, unknown>, lang: Language) {
  const checked = valuesChecker(fields, lang)(values);
  if (!checked.ok) throw validationFailed({ issues: checked.issues });
  return checked.values;
}

/** The field that places a record on the map, if the dataset has one. */
export function locationField(fields: FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => LOCATION_TYPES.includes(field.type));
}

/** A human name for a record: its first text value, else the dataset's name and the record's id. */
export function labelOf(
  fields: FieldSpec[],
  values: Record<string, unknown>,
  datasetName: string,
  id: number,
) {
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === 'text' && typeof value === 'string') return value;
  }
  return `${datasetName} #${id}`;
}

/** The lower-cased words of a record that the word search compares: texts, enum values, addresses. */
export function searchTextOf(fields: FieldSpec[], values: Record<string, unknown>): string {
  const words: string[] = [];
  for (const field of fields) {
    const value = values[field.name];
    if ((field.type === 'text' || field.type === 'enum') && typeof value === 'string') words.push(value);
    if (field.type === 'address' && value && typeof value === 'object') {
      words.push((value as { text: string }).text);
    }
  }
  return words.join(' ').toLowerCase();
}

/**
 * A CSV row as values: each column names a field, or `<field>.lat`, `<field>.lng`,
 * `<field>.country` for the parts of an address or geo point. Cells are text: a number, a boolean
 * or coordinates are read from it; a cell that does not read as its type is kept as text so the
 * validation names the field. An empty cell is no value.
 */
export function valuesFromCsv(fields: FieldSpec[], row: Record<string, string>): Record<string, unknown> {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const values: Record<string, unknown> = {};
  const part = (name: string) => {
    const existing = values[name];
    if (existing && typeof existing === 'object') return existing as Record<string, unknown>;
    const made: Record<string, unknown> = {};
    values[name] = made;
    return made;
  };
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    const [name, sub] = column.split('.', 2) as [string, string | undefined];
    const field = byName.get(name);
    if (!field) {
      values[column] = cell;
      continue;
    }
    if (sub !== undefined) {
      const coordinate = sub === 'lat' || sub === 'lng';
      part(name)[sub] = coordinate ? numberOf(cell) : cell;
      continue;
    }
    switch (field.type) {
      case 'number':
        values[name] = numberOf(cell);
        break;
      case 'boolean':
        values[name] = booleanOf(cell);
        break;
      case 'address':
        part(name).text = cell;
        break;
      default:
        values[name] = cell;
    }
  }
  return values;
}

function numberOf(cell: string): unknown {
  const number = Number(cell);
  return cell.trim() !== '' && Number.isFinite(number) ? number : cell;
}

function booleanOf(cell: string): unknown {
  const word = cell.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(word)) return true;
  if (['false', 'no', '0'].includes(word)) return false;
  return cell;
}

/** One condition on a field in a search: equality, membership, or a range (numbers and dates). */
export const conditionInput = z
  .object({
    eq: z.union([z.string(), z.number(), z.boolean()]).optional(),
    in: z
      .array(z.union([z.string(), z.number()]))
      .min(1)
      .max(100)
      .optional(),
    gt: z.union([z.number(), z.string()]).optional(),
    gte: z.union([z.number(), z.string()]).optional(),
    lt: z.union([z.number(), z.string()]).optional(),
    lte: z.union([z.number(), z.string()]).optional(),
  })
  .strict()
  .meta({ title: 'DatasetCondition' });
export type Condition = z.output<typeof conditionInput>;
export const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;

/** A search's conditions checked against the fields: each names a field, fits its type and its values. */
export function checkConditions(fields: FieldSpec[], where: Record<string, Condition>, lang: Language) {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const schema = z.object({
    where: z.record(z.string(), conditionInput).superRefine((conditions, ctx) => {
      for (const [name, condition] of Object.entries(conditions)) {
        const field = byName.get(name);
        if (!field) {
          ctx.addIssue({ code: 'custom', path: [name], ...fieldIssue('unknown_field', { field: name }) });
          continue;
        }
        const refuse = (op: string) =>
          ctx.addIssue({
            code: 'custom',
            path: [name, op],
            ...fieldIssue('filter_not_applicable', { op, type: field.type }),
          });
        const value = (op: string, given: unknown) => {
          const checked = valueSchema(field).safeParse(given, { error: validationErrorMap(lang) });
          for (const issue of checked.success ? [] : checked.error.issues) {
            ctx.addIssue({ code: 'custom', path: [name, op], message: issue.message });
          }
        };
        if (condition.eq !== undefined) {
          if (LOCATION_TYPES.includes(field.type)) refuse('eq');
          else value('eq', condition.eq);
        }
        if (condition.in !== undefined) {
          if (field.type !== 'enum' && field.type !== 'text' && field.type !== 'number') refuse('in');
          else {
            for (const [index, item] of condition.in.entries()) value(`in.${index}`, item);
          }
        }
        for (const op of RANGE_OPS) {
          if (condition[op] === undefined) continue;
          if (field.type !== 'number' && field.type !== 'date') refuse(op);
          else value(op, condition[op]);
        }
      }
    }),
  });
  const parsed = schema.safeParse({ where }, { error: validationErrorMap(lang) });
  if (!parsed.success) throw validationFailed(parsed.error);
  return byName;
}
