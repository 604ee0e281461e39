import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  answersDryRuns,
  answersHiddenPrices,
  DRY_RUN_FIELDS,
  PRICE_HIDDEN_FIELDS,
} from '../platform/catalog/answers.ts';
import type { Operation } from '../platform/catalog/operation.ts';
import { besideBuild } from '../platform/project.ts';

/** The part of JSON Schema that zod writes and the doors read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  title?: string;
}

/**
 * An operation's schema as JSON Schema (draft 2020-12), as the caller sends it (input) or as the
 * service answers it (output): what the OpenAPI document publishes and the GraphQL door reads.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // A copy: the doors reshape what they get. Copying costs a small part of converting.
  return structuredClone(convertedOnce(schema, io));
}

function convertedOnce(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const known = converted[io].get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  const done = withoutSafeIntegerBounds(spellOutEnumKeyedRecords(json)) as Record<string, unknown>;
  converted[io].set(schema, done);
  return done;
}

/** Each operation's input and output as JSON Schema, by operation name. */
export type ConvertedSchemas = Record<
  string,
  { input: Record<string, unknown>; output: Record<string, unknown> }
>;

/** Every operation's schemas converted: what the build keeps beside the built service (src/schema-cache.ts). */
export function convertedSchemasOf(operations: Iterable<Operation>): ConvertedSchemas {
  const schemas: ConvertedSchemas = {};
  for (const operation of operations) {
    schemas[operation.name] = {
      input: convertedOnce(operation.input, 'input'),
      output: convertedOnce(operation.output, 'output'),
    };
  }
  return schemas;
}

/**
 * Takes the schemas the build converted from the same sources (src/schema-cache.ts): a start of
 * the built service then converts none, a third of a second of its main thread (bench/README.md,
 * "Starting the service"). Running from the sources, nothing was kept and each is converted; so
 * is each when the file cannot be read.
 */
export function takeConvertedSchemas(
  operations: Iterable<Operation>,
  file: URL | undefined = besideBuild(CONVERTED_SCHEMAS_FILE),
): void {
  if (!file) return;
  let kept: ConvertedSchemas;
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  for (const operation of operations) {
    const schemas = kept[operation.name];
    if (!schemas) continue;
    converted.input.set(operation.input, schemas.input);
    converted.output.set(operation.output, schemas.output);
  }
}

/** The file the build writes beside the built service's files. */
export const CONVERTED_SCHEMAS_FILE = 'converted-schemas.json';

/**
 * What the operation answers on success, as JSON Schema, for every door that publishes it (the
 * OpenAPI success response, the agent tools' document, the GraphQL result type): its output, and
 * for an operation that answers dry runs the fields a dry run adds (optional: absent otherwise).
 */
export function answerSchemaOf(operation: Operation): Record<string, unknown> {
  const answer = jsonSchemaOf(operation.output, 'output');
  const priced = answersHiddenPrices(operation, answer) ? withFields(answer, priceHiddenFields) : answer;
  return answersDryRuns(operation) ? withFields(priced, dryRunFields) : priced;
}

const dryRunFields = z.object(DRY_RUN_FIELDS);
const priceHiddenFields = z.object(PRICE_HIDDEN_FIELDS);

/**
 * The answer's object, or each object it may be (a dry run adds its fields to any object answer),
 * with these fields beside its own (where it has none of the name); a list or a scalar answer is
 * left as it is.
 */
function withFields(schema: Record<string, unknown>, added: z.ZodObject): Record<string, unknown> {
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (branches) {
    const key = schema.anyOf ? 'anyOf' : 'oneOf';
    return { ...schema, [key]: branches.map((branch) => withFields(branch, added)) };
  }
  if (schema.type !== 'object' || !schema.properties) return schema;
  const fields = (jsonSchemaOf(added, 'output') as JsonSchema).properties;
  // An answer that is a named type with fields added is that type no more.
  const { title: _named, ...unnamed } = schema;
  const own = schema.properties as Record<string, unknown>;
  const extra = Object.entries(fields ?? {}).filter(([name]) => !(name in own));
  return { ...unnamed, properties: { ...own, ...Object.fromEntries(extra) } };
}

/**
 * Each operation's schemas are converted once a process: the REST, GraphQL, MCP, discovery and
 * OpenAPI doors all ask for them at start, and converting was most of the start's CPU time.
 */
const converted = { input: new WeakMap<z.ZodType, Record<string, unknown>>(), output: new WeakMap() };

/**
 * zod bounds every integer by Number.MAX_SAFE_INTEGER either side: what any JSON number of the
 * type holds anyway, and noise in every document that shows the schema.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  return withoutKeywords(
    node,
    (key, value) =>
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER),
  );
}

/** The schema, at every depth, without the keywords `drop` picks (given each one's schema). */
export function withoutKeywords(
  node: unknown,
  drop: (key: string, value: unknown, schema: Record<string, unknown>) => boolean,
): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutKeywords(item, drop));
  if (!node || typeof node !== 'object') return node;
  const schema = node as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !drop(key, value, schema))
      .map(([key, value]) => [key, withoutKeywords(value, drop)]),
  );
}

/**
 * zod writes a record keyed by an enum (every key present) as propertyNames + required with no
 * properties, which validators flag; name each property instead.
 */
function spellOutEnumKeyedRecords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(spellOutEnumKeyedRecords);
  if (!node || typeof node !== 'object') return node;
  const schema = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, spellOutEnumKeyedRecords(value)]),
  ) as Record<string, unknown> & { propertyNames?: { enum?: string[] }; additionalProperties?: unknown };
  const keys = schema.propertyNames?.enum;
  if (keys && !schema.properties && typeof schema.additionalProperties === 'object') {
    const { propertyNames: _names, additionalProperties: value, ...rest } = schema;
    return {
      ...rest,
      properties: Object.fromEntries(keys.map((key) => [key, value])),
      additionalProperties: false,
    };
  }
  return schema;
}
