import { z } from 'zod';

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
}

/**
 * An operation's schema as JSON Schema (draft 2020-12), as the caller sends it (input) or as the
 * service answers it (output): what the OpenAPI document publishes and the GraphQL door reads.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return spellOutEnumKeyedRecords(json) as Record<string, unknown>;
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
