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
