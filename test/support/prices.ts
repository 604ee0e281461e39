/** What the price-hiding walk looks for: money keys in answers, and GraphQL documents that ask for every field. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  type GraphQLOutputType,
  getNamedType,
  isAbstractType,
  isNonNullType,
  isObjectType,
} from 'graphql';

/**
 * Keys that carry money in any answer, listed here rather than taken from the policy under
 * test: a key dropped from the policy must show up as a leak, not vanish from the check.
 */
const MONEY_KEYS = new Set([
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'price',
  'prices',
  'total',
  'subtotal',
  'amount',
  'base_price',
  'paid_amount',
  'amount_paid',
  'balance',
]);

/** Every key of a JSON tree that names money, with its path (a page's `total` is a count, not money). */
export function priceFieldsIn(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => priceFieldsIn(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  const isPage = 'page' in node && 'per_page' in node;
  return Object.entries(node).flatMap(([key, value]) => [
    ...(MONEY_KEYS.has(key) && !(isPage && key === 'total') ? [`${path}.${key}`] : []),
    ...priceFieldsIn(value, `${path}.${key}`),
  ]);
}

/** The service's GraphQL schema, to ask for every field of an answer. */
const SCHEMA = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

/** A selection of every field of `type` (fields that need arguments left out), to a depth. */
function everything(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isAbstractType(named)) {
    const kinds = SCHEMA.getPossibleTypes(named).map((t) => `... on ${t.name} ${everything(t, depth)}`);
    return `{ __typename ${kinds.join(' ')} }`;
  }
  if (!isObjectType(named)) return '';
  if (depth > 6) return '{ __typename }';
  const fields = Object.values(named.getFields()).filter((field) =>
    field.args.every((a) => !isNonNullType(a.type)),
  );
  return `{ ${fields.map((field) => `${field.name} ${everything(field.type, depth + 1)}`).join(' ')} }`;
}

/** A GraphQL document calling `field` with `input` as variables and selecting every field of its answer. */
export function documentFor(field: string, input: Record<string, unknown>): string {
  const query = SCHEMA.getQueryType()!.getFields()[field];
  const definition = query ?? SCHEMA.getMutationType()!.getFields()[field];
  assert.ok(definition, `no GraphQL field ${field}`);
  const args = definition.args.filter((arg) => arg.name in input);
  const variables = args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
  const call = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${query ? 'query' : 'mutation'}${variables ? `(${variables})` : ''} { ${field}${call ? `(${call})` : ''} ${everything(definition.type)} }`;
}

/** Price fields of a GraphQL answer that hold a value (GraphQL answers a hidden field as null). */
export function pricesIn(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => pricesIn(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  const isPage = 'page' in node && 'per_page' in node;
  return Object.entries(node).flatMap(([key, value]) => [
    ...(MONEY_KEYS.has(key) && !(isPage && key === 'total') && value !== null ? [`${path}.${key}`] : []),
    ...pricesIn(value, `${path}.${key}`),
  ]);
}
