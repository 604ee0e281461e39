/**
 * A schema of an OpenAPI document made whole for a JSON Schema validator: the named types it
 * refers to (`#/components/schemas/...`) come along as its own `$defs`.
 */
export function standaloneSchema(
  schema: unknown,
  document: { components?: { schemas?: Record<string, unknown> } },
): Record<string, unknown> {
  const local = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return { ...local(schema), $defs: local(document.components?.schemas ?? {}) };
}

/** A response of an OpenAPI document, followed to components.responses when it refers there. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
export function responseOf(document: any, response: unknown): any {
  const ref = (response as { $ref?: string } | undefined)?.$ref;
  if (!ref) return response;
  const name = ref.replace(/^#\/components\/responses\//, '');
  const shared = document.components?.responses?.[name];
  if (!shared) throw new Error(`${ref} names no shared response`);
  return shared;
}
