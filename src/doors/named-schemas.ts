import type { JsonSchema } from './json-schema.ts';

type Io = 'input' | 'output';

const VALUES = new Set(['default', 'const', 'enum', 'examples', 'example']);

/**
 * The named types of the contract. A schema the catalog gives a title (`.meta({ title: 'Order' })`
 * on the zod schema) is one type wherever it appears: the OpenAPI document lists it once under
 * `components.schemas` and refers to it from every operation, so a generated client has an
 * `Order`, not one copy per operation. A title names one shape: two different schemas under one
 * title fail the build of the document. Where a type's input form differs from its answer form
 * (a field with a default is optional in the one, always present in the other), the input form is
 * `<Title>Input`.
 */
export class NamedSchemas {
  private readonly shapes = new Map<string, { body: JsonSchema; json: string }>();
  /** Every reference written, by the shape it names, renamed where the two forms differ. */
  private readonly references = new Map<string, Array<{ $ref: string }>>();

  constructor(private readonly prefix = '#/components/schemas/') {}

  /** The schema with each titled part, at any depth, replaced by a reference to its component. */
  refer(node: unknown, io: Io): JsonSchema {
    return this.walk(node, io) as JsonSchema;
  }

  private walk(node: unknown, io: Io): unknown {
    if (Array.isArray(node)) return node.map((item) => this.walk(item, io));
    if (!node || typeof node !== 'object') return node;
    const schema = node as Record<string, unknown>;
    const inner: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      // Values, not schemas: a default or an example may hold a field called title.
      // A named type's default, as its description, belongs to the place that uses it.
      if (key === 'default' && typeof schema.title === 'string') continue;
      if (VALUES.has(key)) inner[key] = value;
      else if (!((key === 'title' || key === 'description') && typeof value === 'string'))
        inner[key] = this.walk(value, io);
    }
    const { title, description } = schema;
    const described = {
      ...(typeof description === 'string' ? { description } : {}),
      ...(title !== undefined && 'default' in schema ? { default: schema.default } : {}),
    };
    if (typeof title !== 'string') return { ...inner, ...described };
    const key = `${io} ${title}`;
    const json = JSON.stringify(inner);
    const known = this.shapes.get(key);
    if (known && known.json !== json) {
      throw new Error(`Two different ${io} schemas are both named ${title}: give one another title`);
    }
    if (!known) this.shapes.set(key, { body: inner as JsonSchema, json });
    // What this field means and its default are the place's, beside the reference.
    const reference = { $ref: `${this.prefix}${title}`, ...described };
    const written = this.references.get(key) ?? [];
    written.push(reference);
    this.references.set(key, written);
    return reference;
  }

  /**
   * Each named type once, by name; references to an input form that differs are renamed to it.
   * A type whose input form refers to another's `<Title>Input` differs from its answer form too,
   * which shows only once that reference is renamed: the comparison runs until nothing moves.
   */
  components(): Record<string, JsonSchema> {
    const apart = new Set<string>();
    const nameOf = (io: Io, title: string) => (io === 'input' && apart.has(title) ? `${title}Input` : title);
    for (let moved = true; moved; ) {
      moved = false;
      for (const [key, references] of this.references) {
        const [io, title] = key.split(' ') as [Io, string];
        for (const reference of references) reference.$ref = `${this.prefix}${nameOf(io, title)}`;
      }
      for (const [key, { body }] of this.shapes) {
        const [io, title] = key.split(' ') as [Io, string];
        const answerForm = this.shapes.get(`output ${title}`);
        if (io !== 'input' || !answerForm || apart.has(title)) continue;
        if (JSON.stringify(body) !== JSON.stringify(answerForm.body)) {
          apart.add(title);
          moved = true;
        }
      }
    }
    const components: Record<string, JsonSchema> = {};
    for (const [key, { body }] of this.shapes) {
      const [io, title] = key.split(' ') as [Io, string];
      components[nameOf(io, title)] = body;
    }
    return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b, 'en')));
  }
}
