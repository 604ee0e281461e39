import type { JsonSchema } from '../json-schema.ts';

/**
 * A query string and a path carry text only; an operation's input schema says what JSON each
 * field is. The REST door turns the text into that JSON before the executor validates it, so
 * input schemas stay the plain types any door (GraphQL, an agent's tool call) fills: a list from
 * `a,b` or a repeated parameter, a boolean from true/false/1/0, a number from decimal text. Text
 * that is none of these stays as it was, for validation to refuse in the caller's language.
 */
export function textValueReader(
  input: JsonSchema,
): (values: Record<string, unknown>) => Record<string, unknown> {
  const kinds = new Map(
    Object.entries(input.properties ?? {}).map(([name, schema]) => [name, kindOf(schema, input)]),
  );
  return (values) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, read(value, kinds.get(name) ?? 'text')]),
    );
}

type Scalar = 'boolean' | 'integer' | 'number' | 'text';
type Kind = Scalar | { list: Scalar };

function kindOf(schema: JsonSchema, root: JsonSchema): Kind {
  const node = resolved(schema, root);
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter(
    (type) => type && type !== 'null',
  );
  if (types.includes('array')) {
    const items = Array.isArray(node.items) ? node.items[0] : node.items;
    const item = items ? kindOf(items, root) : 'text';
    return { list: typeof item === 'string' ? item : 'text' };
  }
  for (const scalar of ['boolean', 'integer', 'number'] as const) if (types.includes(scalar)) return scalar;
  return 'text';
}

/** The schema itself: its $ref followed, and of "X or null" the X. */
function resolved(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (schema.$ref?.startsWith('#/$defs/')) {
    const target = root.$defs?.[schema.$ref.slice('#/$defs/'.length)];
    return target ? resolved(target, root) : schema;
  }
  const branches = (schema.anyOf ?? schema.oneOf)?.filter((branch) => branch.type !== 'null');
  if (schema.type === undefined && branches?.length === 1) return resolved(branches[0]!, root);
  return schema;
}

function read(value: unknown, kind: Kind): unknown {
  if (typeof kind === 'object') {
    const texts = (Array.isArray(value) ? value : [value]).flatMap((part) =>
      typeof part === 'string' ? part.split(',').map((piece) => piece.trim()) : [part],
    );
    // An empty piece (`status=`, `A,`) stays for validation to refuse: dropped, `status=` would
    // become an empty filter that silently matches nothing.
    return texts.map((part) => read(part, kind.list));
  }
  if (typeof value !== 'string') return value;
  switch (kind) {
    case 'boolean':
      return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
    case 'integer':
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    default:
      return value;
  }
}
