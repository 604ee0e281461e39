import { pageParams } from '../../platform/pagination.ts';
import { type JsonSchema, withoutKeywords } from '../json-schema.ts';

/**
 * Tool schemas as an agent reads them. A tool list is read into the agent's context at the start
 * of every conversation, so it says everything an agent needs to call a tool, and nothing twice.
 */

/** Repeated blocks smaller than this stay where they are: a `$ref` would save little. */
const SHARED_BLOCK_MIN_BYTES = 64;

/**
 * A tool's input: every field, bound and description, with blocks the schema repeats (an address
 * for pickup and dropoff) named once in `$defs`, and no pattern beside a format that says it.
 */
export function agentInputSchema(input: JsonSchema): JsonSchema {
  const { $defs, ...body } = inclusiveIntegerBounds(
    withoutPatternsBesideFormats(withoutPagingWords(input)),
  ) as JsonSchema;
  return shareRepeatedBlocks(body, $defs ?? {});
}

/**
 * What `page` and `per_page` mean, where they start and their defaults are said once, in the
 * server's instructions, not in every list: each keeps its type, and per_page its maximum.
 */
const PAGING_WORDS = new Set([pageParams.page.description, pageParams.per_page.description]);

function withoutPagingWords(input: JsonSchema): JsonSchema {
  if (!input.properties) return input;
  const properties = Object.fromEntries(
    Object.entries(input.properties).map(([name, field]) => {
      if (!(name in pageParams) || !PAGING_WORDS.has(field.description)) return [name, field];
      const {
        description: _said,
        default: _default,
        minimum: _fromOne,
        ...rest
      } = field as JsonSchema & {
        minimum?: number;
      };
      return [name, rest];
    }),
  );
  return { ...input, properties };
}

/** A format (date, date-time, email) says what its pattern spells out, in a word. */
function withoutPatternsBesideFormats(node: unknown): unknown {
  return withoutKeywords(
    node,
    (key, _value, schema) => key === 'pattern' && typeof schema.format === 'string',
  );
}

/**
 * An integer above n is an integer of at least n + 1: the same values in fewer bytes (every id is
 * one, `exclusiveMinimum: 0` as zod writes a positive integer).
 */
function inclusiveIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inclusiveIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const schema: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, inclusiveIntegerBounds(value)]),
  );
  const { exclusiveMinimum, ...rest } = schema;
  if (schema.type !== 'integer' || typeof exclusiveMinimum !== 'number' || 'minimum' in schema) return schema;
  return { ...rest, minimum: Math.floor(exclusiveMinimum) + 1 };
}

/** A block without its description: what two uses of one shape (the sender, the recipient) share. */
function shapeOf(schema: JsonSchema): string {
  const { description: _description, ...shape } = schema;
  return JSON.stringify(shape);
}

/**
 * Names every object block that appears more than once (the same shape) in `$defs` and points to
 * it, biggest first, so each is written once. Uses whose descriptions differ keep their own beside
 * the `$ref`; one description said by every use stays in the shared block.
 */
function shareRepeatedBlocks(body: JsonSchema, existing: Record<string, JsonSchema>): JsonSchema {
  const counts = new Map<
    string,
    { count: number; names: Set<string>; descriptions: Set<string | undefined> }
  >();
  const count = (node: unknown, field: string, top: boolean) => {
    if (Array.isArray(node)) {
      for (const item of node) count(item, field, false);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const schema = node as JsonSchema;
    if (!top) {
      const key = shapeOf(schema);
      const seen = counts.get(key) ?? {
        count: 0,
        names: new Set<string>(),
        descriptions: new Set<string | undefined>(),
      };
      counts.set(key, {
        count: seen.count + 1,
        names: seen.names.add(field),
        descriptions: seen.descriptions.add(schema.description),
      });
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' || key === '$defs') {
        for (const [name, child] of Object.entries(value as Record<string, unknown>))
          count(child, name, false);
      } else count(value, field, false);
    }
  };
  count(body, 'input', true);
  for (const [name, schema] of Object.entries(existing)) count(schema, name, false);

  const defs: Record<string, JsonSchema> = { ...existing };
  const refOf = new Map<string, { ref: string; ownDescriptions: boolean }>();
  const sorted = [...counts].sort((a, b) => b[0].length - a[0].length);
  for (const [key, { count: times, names, descriptions }] of sorted) {
    const [description] = descriptions;
    const ownDescriptions = descriptions.size > 1;
    const shared: JsonSchema = {
      ...(JSON.parse(key) as JsonSchema),
      ...(ownDescriptions || description === undefined ? {} : { description }),
    };
    if (times < 2 || JSON.stringify(shared).length < SHARED_BLOCK_MIN_BYTES) continue;
    // Named by the fields it stands for: pickup_or_dropoff.
    const base = [...names].join('_or_');
    let name = base;
    for (let n = 2; name in defs; n++) name = `${base}${n}`;
    defs[name] = shared;
    refOf.set(key, { ref: `#/$defs/${name}`, ownDescriptions });
  }
  if (refOf.size === 0) return Object.keys(existing).length > 0 ? { ...body, $defs: existing } : body;

  const replace = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => replace(item, false));
    if (!node || typeof node !== 'object') return node;
    const shared = top ? undefined : refOf.get(shapeOf(node as JsonSchema));
    if (shared) {
      const { description } = node as JsonSchema;
      return shared.ownDescriptions && description !== undefined
        ? { $ref: shared.ref, description }
        : { $ref: shared.ref };
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === 'properties' || key === '$defs'
          ? Object.fromEntries(
              Object.entries(value as Record<string, unknown>).map(([name, child]) => [
                name,
                replace(child, false),
              ]),
            )
          : replace(value, false),
      ]),
    );
  };
  // A shared block's own body keeps its content; blocks inside it point to theirs.
  const sharedDefs = Object.fromEntries(
    Object.entries(defs).map(([name, schema]) => [name, replace(schema, true) as JsonSchema]),
  );
  return { ...(replace(body, true) as JsonSchema), $defs: sharedDefs };
}
