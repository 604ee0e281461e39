import {
  astFromValue,
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLString,
  isEnumType,
  isScalarType,
  printSchema,
} from 'graphql';
import type { z } from 'zod';
import type { Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { answerSchemaOf, type JsonSchema, jsonSchemaOf } from '../json-schema.ts';
import { GraphQLJSON } from './json-scalar.ts';

type Io = 'input' | 'output';

/** Runs an operation for a root field: the door's translation to the executor. */
export type ResolveOperation = (operation: Operation, input: unknown, context: unknown) => Promise<unknown>;

/** The operation's schema as the caller sends it (input) or as the service answers it (output). */
function schemaOf(schema: z.ZodType, io: Io): JsonSchema {
  return jsonSchemaOf(schema, io) as JsonSchema;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const FIELD_NAME = /^[a-z][A-Za-z0-9]*$/;
const isName = (name: string) => NAME.test(name) && !name.startsWith('__');
const isEnumValueName = (name: string) =>
  isName(name) && name !== 'true' && name !== 'false' && name !== 'null';

/** order_ref -> OrderRef, NEW_ORDER -> NewOrder, clientOrderCreate -> ClientOrderCreate. */
function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => {
      const rest = part === part.toUpperCase() ? part.slice(1).toLowerCase() : part.slice(1);
      return part.charAt(0).toUpperCase() + rest;
    })
    .join('');
}

/** A schema that allows null: `{}` (unknown), a null type, or a branch that does. */
function acceptsNull(node: JsonSchema): boolean {
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (node.anyOf?.some(acceptsNull) || node.oneOf?.some(acceptsNull)) return true;
  if (node.enum?.includes(null) || node.const === null) return true;
  return isUnconstrained(node);
}

function isUnconstrained(node: JsonSchema): boolean {
  return (
    node.type === undefined &&
    node.anyOf === undefined &&
    node.oneOf === undefined &&
    node.allOf === undefined &&
    node.enum === undefined &&
    node.const === undefined &&
    node.$ref === undefined &&
    node.properties === undefined
  );
}

const isNullSchema = (node: JsonSchema) => node.type === 'null';

/** A schema in one piece: its $ref followed and a "X or null" taken apart into X and nullable. */
interface Shape {
  node: JsonSchema;
  nullable: boolean;
  description?: string;
  default?: unknown;
  /** The $refs followed to get here, so a schema that contains itself ends instead of looping. */
  refs: readonly string[];
}

function shapeOf(node: JsonSchema, root: JsonSchema, seen: readonly string[] = []): Shape | 'recursive' {
  const description = node.description;
  const fallback = node.default;
  const merge = (inner: Shape): Shape => ({
    ...inner,
    description: description ?? inner.description,
    default: fallback ?? inner.default,
  });
  if (node.$ref) {
    if (seen.includes(node.$ref)) return 'recursive';
    const target = resolveRef(node.$ref, root);
    if (!target) return { node: {}, nullable: true, description, refs: seen };
    const inner = shapeOf(target, root, [...seen, node.$ref]);
    return inner === 'recursive' ? inner : merge(inner);
  }
  const branches = node.anyOf ?? node.oneOf;
  if (branches && node.type === undefined) {
    const others = branches.filter((branch) => !isNullSchema(branch));
    const nullable = others.length < branches.length;
    if (others.length === 1) {
      const inner = shapeOf(others[0]!, root, seen);
      return inner === 'recursive' ? inner : merge({ ...inner, nullable: inner.nullable || nullable });
    }
    return {
      node,
      nullable: nullable || branches.some(acceptsNull),
      description,
      default: fallback,
      refs: seen,
    };
  }
  if (Array.isArray(node.type)) {
    const types = node.type.filter((type) => type !== 'null');
    const nullable = types.length < node.type.length;
    const shape = { nullable, description, default: fallback, refs: seen };
    return types.length === 1
      ? { ...shape, node: { ...node, type: types[0] } }
      : { ...shape, node, nullable: true };
  }
  return { node, nullable: acceptsNull(node), description, default: fallback, refs: seen };
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  const match = /^#\/\$defs\/(.+)$/.exec(ref);
  return match ? root.$defs?.[decodeURIComponent(match[1]!)] : undefined;
}

/** The fields of an object schema (enum-keyed records come spelled out); undefined for anything else. */
function fieldsOf(node: JsonSchema): { entries: [string, JsonSchema][]; required: Set<string> } | undefined {
  if (node.type !== 'object' || !node.properties) return undefined;
  return { entries: Object.entries(node.properties), required: new Set(node.required ?? []) };
}

/** Where a type is made: the operation's GraphQL name, input or output, and the path of fields to it. */
interface Site {
  operation: Operation;
  prefix: string;
  io: Io;
  root: JsonSchema;
  path: readonly string[];
  refs: readonly string[];
}

interface Converted {
  /** The nullable form; the caller adds non-null where the field is required. */
  type: GraphQLOutputType | GraphQLInputType;
  nullable: boolean;
  description?: string;
  default?: unknown;
}

/**
 * Turns the JSON Schemas of operations into GraphQL types, naming each type after the operation's
 * GraphQL name and the path of fields that leads to it (types used in arguments end in Input).
 */
class TypeFactory {
  private readonly madeBy = new Map<string, string>(
    ['Query', 'Mutation', 'JSON', 'String', 'Int', 'Float', 'Boolean', 'ID'].map((name) => [name, 'GraphQL']),
  );

  /** Types shared by title (see convert), with the shape each was made from. */
  private readonly titled = new Map<
    string,
    { type: GraphQLObjectType | GraphQLInputObjectType | GraphQLEnumType; shape: string }
  >();

  /** The one type of this title, made the first time; a title given to two shapes is an error. */
  private shared<T extends GraphQLObjectType | GraphQLInputObjectType | GraphQLEnumType>(
    title: string,
    schema: JsonSchema,
    make: () => T,
  ): T {
    const { description: _meaning, default: _default, ...shape } = schema;
    const json = JSON.stringify(shape);
    const known = this.titled.get(title);
    if (known) {
      if (known.shape !== json)
        throw new Error(`Two different schemas are both named ${title}: give one another title`);
      return known.type as T;
    }
    const type = make();
    this.titled.set(title, { type, shape: json });
    return type;
  }

  private claim(name: string, site: Site): string {
    const by = `${site.operation.name} (${site.io} ${site.path.join('.') || 'root'})`;
    const earlier = this.madeBy.get(name);
    if (earlier) throw new Error(`GraphQL type name ${name} is derived twice: for ${earlier} and for ${by}`);
    this.madeBy.set(name, by);
    return name;
  }

  private typeName(site: Site): string {
    const path = site.path.map(pascal).join('');
    if (site.io === 'input') return `${site.prefix}${path}Input`;
    return site.path.length === 0 ? `${site.prefix}Result` : `${site.prefix}${path}`;
  }

  convert(node: JsonSchema, site: Site): Converted {
    const shape = shapeOf(node, site.root, site.refs);
    if (shape === 'recursive') return { type: GraphQLJSON, nullable: true, description: node.description };
    const described = { nullable: shape.nullable, description: shape.description, default: shape.default };
    const schema = shape.node;
    const within: Site = { ...site, refs: shape.refs };
    const type = schema.type ?? (schema.enum ? 'string' : undefined);
    switch (type) {
      case 'string': {
        const values = schema.enum;
        if (values && values.length > 0 && values.every((v) => typeof v === 'string' && isEnumValueName(v))) {
          const title = schema.title && isName(schema.title) ? schema.title : undefined;
          const type = title
            ? this.shared(title, schema, () => this.enumType(values as string[], site, title))
            : this.enumType(values as string[], site);
          return { ...described, type };
        }
        if (values?.some((v) => typeof v !== 'string')) return { ...described, type: GraphQLJSON };
        return { ...described, type: GraphQLString };
      }
      case 'integer':
        return { ...described, type: GraphQLInt };
      case 'number':
        return { ...described, type: GraphQLFloat };
      case 'boolean':
        return { ...described, type: GraphQLBoolean };
      case 'array': {
        if (!schema.items || Array.isArray(schema.items) || schema.prefixItems) {
          return { ...described, type: GraphQLJSON };
        }
        const item = this.convert(schema.items, within);
        const itemType = item.nullable ? item.type : new GraphQLNonNull(item.type);
        return { ...described, type: new GraphQLList(itemType) as GraphQLOutputType & GraphQLInputType };
      }
      case 'object': {
        const fields = fieldsOf(schema);
        const usable = fields && fields.entries.length > 0 && fields.entries.every(([name]) => isName(name));
        if (!fields || !usable) return { ...described, type: GraphQLJSON };
        // A titled object (an Order, a dry run's SkippedEffect) is one type, whichever operation
        // holds it; its input form is <Title>Input.
        const named = schema.title && isName(schema.title) ? schema.title : undefined;
        if (named) {
          const title = site.io === 'input' ? `${named}Input` : named;
          const at: Site = { ...within, prefix: title, path: [] };
          const type = this.shared(title, schema, () =>
            this.objectType(fields.entries, fields.required, at, title),
          );
          return { ...described, type };
        }
        return { ...described, type: this.objectType(fields.entries, fields.required, within) };
      }
      default:
        return { ...described, type: GraphQLJSON };
    }
  }

  private enumType(values: string[], site: Site, title?: string): GraphQLEnumType {
    return new GraphQLEnumType({
      name: this.claim(title ?? this.typeName(site), site),
      values: Object.fromEntries(values.map((value) => [value, { value }])),
    });
  }

  private objectType(
    entries: [string, JsonSchema][],
    required: Set<string>,
    site: Site,
    title?: string,
  ): GraphQLObjectType | GraphQLInputObjectType {
    const name = this.claim(title ?? this.typeName(site), site);
    const converted = entries.map(([field, node]) => {
      const child = this.convert(node, { ...site, path: [...site.path, field] });
      return [field, child, required.has(field) && !child.nullable] as const;
    });
    if (site.io === 'output') {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
      for (const [field, child, nonNull] of converted) {
        const type = child.type as GraphQLOutputType;
        fields[field] = { type: nonNull ? new GraphQLNonNull(type) : type, description: child.description };
      }
      return new GraphQLObjectType({ name, fields });
    }
    const fields: GraphQLInputFieldConfigMap = {};
    for (const [field, child, nonNull] of converted) fields[field] = inputField(child, nonNull);
    return new GraphQLInputObjectType({ name, fields });
  }

  /** One Query or Mutation field: the input object's fields as arguments, the output as its type. */
  rootField(
    operation: Operation,
    name: string,
    resolve?: ResolveOperation,
  ): GraphQLFieldConfig<unknown, unknown> {
    const prefix = pascal(name);
    const inputSchema = schemaOf(operation.input, 'input');
    // The answer's schema: a mutation's result type holds the fields a dry run adds.
    const outputSchema = answerSchemaOf(operation) as JsonSchema;
    const inputSite: Site = { operation, prefix, io: 'input', root: inputSchema, path: [], refs: [] };
    const output = this.convert(outputSchema, { ...inputSite, io: 'output', root: outputSchema });

    const args: GraphQLFieldConfigArgumentMap = {};
    let toInput: (given: Record<string, unknown>) => unknown;
    const shape = shapeOf(inputSchema, inputSchema);
    const fields = shape === 'recursive' ? undefined : fieldsOf(shape.node);
    if (fields?.entries.every(([field]) => isName(field))) {
      for (const [field, node] of fields.entries) {
        const child = this.convert(node, { ...inputSite, path: [field] });
        args[field] = inputField(child, fields.required.has(field) && !child.nullable);
      }
      toInput = (given) => withoutNulls(given, inputSchema, inputSchema);
    } else {
      args.input = { type: GraphQLJSON, description: 'The whole input of the operation, as one JSON value' };
      toInput = (given) => given.input ?? undefined;
    }

    return {
      type: output.type as GraphQLOutputType,
      description: describeOperation(operation),
      args,
      ...(resolve
        ? { resolve: (_source, given, context) => resolve(operation, toInput(given), context) }
        : {}),
    };
  }
}

function inputField(child: Converted, nonNull: boolean) {
  const type = child.type as GraphQLInputType;
  const config: { type: GraphQLInputType; description?: string; defaultValue?: unknown } = {
    type: nonNull ? new GraphQLNonNull(type) : type,
    description: child.description,
  };
  // Defaults are shown for plain values; the operation applies them whatever the door.
  if (child.default !== undefined && (isEnumType(type) || (isScalarType(type) && type !== GraphQLJSON))) {
    try {
      if (astFromValue(child.default, type)) config.defaultValue = child.default;
    } catch {
      // not representable in GraphQL: left to the operation
    }
  }
  return config;
}

/**
 * The arguments as the operation's input: plain objects, and without the nulls GraphQL lets a
 * caller write for an optional field that the operation itself does not accept (absent instead).
 */
function withoutNulls(value: unknown, node: JsonSchema | undefined, root: JsonSchema): unknown {
  // Without a schema there is no null to drop: a free-form JSON value passes as it is, however deep.
  if (!node) return value;
  if (Array.isArray(value)) {
    const items = node && structural(node, root)?.items;
    return value.map((item) => withoutNulls(item, items && !Array.isArray(items) ? items : undefined, root));
  }
  if (value !== null && typeof value === 'object') {
    const shape = node && structural(node, root);
    const fields = shape ? fieldsOf(shape) : undefined;
    const byName = new Map(fields?.entries);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const child = byName.get(key);
      if (item === null && child && !acceptsNull(child)) continue;
      copy[key] = withoutNulls(item, child, root);
    }
    return copy;
  }
  return value;
}

function structural(node: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const shape = shapeOf(node, root);
  return shape === 'recursive' ? undefined : shape.node;
}

function describeOperation(operation: Operation): string {
  return [operation.summary, operation.description, whoMayCall(operation)].filter(Boolean).join('\n\n');
}

/** Who may call, in words; the door carries bearer tokens, so only public and token access fit it. */
function whoMayCall(operation: Operation): string {
  const access = operation.access;
  if (access.public) return 'Public: no token needed.';
  if (!('kinds' in access)) {
    throw new Error(
      `Operation ${operation.name} has a GraphQL name but an access the GraphQL door cannot carry ` +
        '(it passes bearer tokens only): drop the name, or forward its credentials in src/doors/graphql/index.ts',
    );
  }
  const kinds = access.kinds === 'any' ? 'any account' : access.kinds.join(', ');
  const scopes = access.scopes?.length ? `; scopes ${access.scopes.join(', ')}` : '';
  return `Needs a bearer token (${kinds}${scopes}).`;
}

/**
 * The GraphQL schema of the catalog: every operation with a `graphql` name, queries on Query and
 * mutations on Mutation. Without `resolve` the schema is for printing only.
 */
export function buildGraphqlSchema(catalog: Catalog, resolve?: ResolveOperation): GraphQLSchema {
  const factory = new TypeFactory();
  const roots = { query: {}, mutation: {} } as Record<
    Operation['kind'],
    GraphQLFieldConfigMap<unknown, unknown>
  >;
  const owners = new Map<string, string>();
  for (const operation of catalog.list()) {
    const name = operation.graphql;
    if (name === undefined) continue;
    if (!FIELD_NAME.test(name)) {
      throw new Error(`Operation ${operation.name}: GraphQL name ${name} is not camelCase`);
    }
    const owner = owners.get(name);
    if (owner) throw new Error(`GraphQL name ${name} is given to both ${owner} and ${operation.name}`);
    owners.set(name, operation.name);
    roots[operation.kind][name] = factory.rootField(operation, name, resolve);
  }
  const hasMutations = Object.keys(roots.mutation).length > 0;
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: roots.query }),
    ...(hasMutations
      ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: roots.mutation }) }
      : {}),
  });
}

/** The schema in SDL, as committed in schema.graphql. */
export function printGraphqlSchema(catalog: Catalog): string {
  return `${printSchema(buildGraphqlSchema(catalog))}\n`;
}
