import { z } from 'zod';
import { type Language, validationErrorMap } from '../i18n/index.ts';
import { safeParseInSlices } from '../slices.ts';
import { validationFailed } from './answers.ts';
import type { Operation } from './operation.ts';

/**
 * The input of a call as the operation's schema reads it, or VALIDATION_FAILED, on every door
 * alike. A write refuses fields it does not know, at any depth: a misspelt field would otherwise
 * be dropped and the write done without it (a delivery recorded without its proof). A read
 * ignores them: it loses nothing, and a query string may carry what a browser or a proxy added.
 */
export async function checkedInput(
  operation: Operation,
  rawInput: unknown,
  lang: Language,
): Promise<unknown> {
  const schema = operation.kind === 'mutation' ? withoutUnknownFields(operation.input) : operation.input;
  // In slices: 5,000 records to import must not hold every other request meanwhile.
  const parsed = await safeParseInSlices(schema, rawInput ?? {}, { error: validationErrorMap(lang) });
  if (parsed.success) return parsed.data;
  throw validationFailed(parsed.error);
}

/** What the walk reads of a schema's definition, whatever its kind. */
// biome-ignore lint/suspicious/noExplicitAny: zod's definitions differ by kind; each case reads its own fields
type AnyDef = Record<string, any> & { type: string };

function isPreprocess(def: AnyDef): boolean {
  return (def.in as z.ZodType)._zod.def.type === 'transform';
}

const strictVersions = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with every object in it refusing keys it does not name (`unrecognized_keys`), as a
 * write reads its input. An object that says itself what other keys may hold (a loose object, a
 * catchall) keeps its rule; a document a field carries as text and parses (a pipe after a
 * transform) is the document's format's to judge. Built once per schema.
 */
export function withoutUnknownFields<T extends z.ZodType>(schema: T): T {
  let strict = strictVersions.get(schema);
  if (!strict) {
    strict = strictened(schema);
    strictVersions.set(schema, strict);
  }
  return strict as T;
}

function strictened(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as AnyDef;
  const strict = withoutUnknownFields;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([key, field]) => [key, strict(field)]),
      );
      return schema.clone({ ...def, shape, catchall: def.catchall ?? z.never() } as never);
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return cloneWith(schema, def, { innerType: strict(def.innerType) });
    case 'lazy':
      return schema.clone({ ...def, getter: () => strict(def.getter()) } as never);
    case 'pipe':
      // What a preprocess hands on is still the caller's input; what a transform made is not.
      return isPreprocess(def)
        ? cloneWith(schema, def, { out: strict(def.out) })
        : cloneWith(schema, def, { in: strict(def.in) });
    case 'array':
      return cloneWith(schema, def, { element: strict(def.element) });
    case 'record':
      return cloneWith(schema, def, { valueType: strict(def.valueType) });
    case 'union':
      return cloneWith(schema, def, { options: (def.options as z.ZodType[]).map(strict) });
    case 'tuple':
      return cloneWith(schema, def, {
        items: (def.items as z.ZodType[]).map(strict),
        rest: def.rest ? strict(def.rest) : def.rest,
      });
    default:
      return schema;
  }
}

/** The schema with these parts in place of its own; itself when none of them changed. */
function cloneWith(schema: z.ZodType, def: AnyDef, parts: Record<string, unknown>): z.ZodType {
  const changed = Object.entries(parts).some(([key, part]) =>
    Array.isArray(part) ? part.some((item, index) => item !== def[key][index]) : part !== def[key],
  );
  return changed ? schema.clone({ ...def, ...parts } as never) : schema;
}
