import type { z } from 'zod';
import { OPT_IN_FAMILIES } from '../../modules/accounts/index.ts';
import { answersDryRuns } from '../../platform/catalog/answers.ts';
import type { Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError, ERROR_CODES, type ErrorCode, featureDisabled } from '../../platform/errors.ts';
import { CHALLENGES, errorBody } from '../../platform/http/errors.ts';
import { answerSchemaOf, jsonSchemaOf } from '../json-schema.ts';
import { NamedSchemas } from '../named-schemas.ts';
import { declaredRefusals } from '../refusals.ts';
import { committedExamples, type OperationExample, withExample } from './examples.ts';
import { TAG_DESCRIPTIONS } from './tags.ts';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

function securityOf(operation: Operation): Array<Record<string, string[]>> {
  if (operation.access.public) return [];
  return 'provider' in operation.access && operation.access.provider
    ? [{ otepProviderKey: [] }]
    : [{ bearerAuth: [] }];
}

/**
 * The body of the refusal of an opt-in family that is off, made by the same functions as the
 * executor's refusal and the HTTP door's error body, so the example is the answer, word for word.
 */
function featureDisabledExample(feature: string) {
  return errorBody(featureDisabled(feature, 'off'), 'en', 'example');
}

/** A refusal's response: the error shape, and for an opt-in family's 409 its own shape and example. */
function refusalResponse(operation: Operation, codes: ErrorCode[]) {
  const description = `Refused: ${codes.join(', ')}`;
  // The error shape, with exactly the codes of this status: a generated client can switch on them.
  const refusal = (of: readonly ErrorCode[], shape = 'Error') => ({
    allOf: [
      { $ref: `#/components/schemas/${shape}` },
      { type: 'object', properties: { error_code: { type: 'string', enum: of } }, required: ['error_code'] },
    ],
  });
  if (codes.includes('SMS_MARKETING_DISABLED')) {
    return {
      description:
        `${description}. SMS_MARKETING_DISABLED answers while SMS marketing is off for the business, revoked ` +
        'by the platform admin, or not set up yet (details.reason)',
      content: {
        'application/json': {
          schema: refusal(codes),
          examples: {
            SMS_MARKETING_DISABLED: {
              summary: 'SMS marketing is off for the business',
              value: errorBody(
                new AppError('SMS_MARKETING_DISABLED', {
                  details: { feature: 'sms_marketing', reason: 'off' },
                }),
                'en',
                'example',
              ),
            },
          },
        },
      },
    };
  }
  if (!codes.includes('FEATURE_DISABLED') || !operation.feature) {
    return {
      description,
      content: { 'application/json': { schema: refusal(codes) } },
    };
  }
  const others = codes.filter((code) => code !== 'FEATURE_DISABLED');
  const featureSchema = refusal(['FEATURE_DISABLED'], 'FeatureDisabled');
  return {
    description:
      `${description}. FEATURE_DISABLED answers while the opt-in family ${operation.feature} is off for ` +
      'the business, revoked by the platform admin, or not set up yet, with `feature_enabled: false` in the body',
    content: {
      'application/json': {
        schema: codes.length === 1 ? featureSchema : { anyOf: [featureSchema, refusal(others)] },
        examples: {
          FEATURE_DISABLED: {
            summary: `${operation.feature} is off for the business`,
            value: featureDisabledExample(operation.feature),
          },
        },
      },
    },
  };
}

/** A refusal of the credential names how to authenticate (platform/http/server.ts, CHALLENGES). */
function withChallenge<R extends object>(response: R, codes: ErrorCode[]): R {
  const challenges = codes.flatMap((code) => {
    const challenge = CHALLENGES[code];
    return challenge
      ? [
          `${code}: \`${challenge.scheme} realm="${challenge.realm}"\`, with \`error="${challenge.invalid}"\` when a credential was sent`,
        ]
      : [];
  });
  if (challenges.length === 0) return response;
  const description = `How to authenticate (RFC 7235). ${challenges.join('; ')}`;
  return { ...response, headers: { 'WWW-Authenticate': { description, schema: { type: 'string' } } } };
}

/**
 * Refusals as shared responses: most operations refuse with the same few sets of codes (401, 429,
 * 500, 503 alike), so each set is written once under components.responses, named by its codes, and
 * referred to. Inline, they were half the document, and the reference page parsed every copy.
 */
class SharedRefusals {
  readonly #responses = new Map<string, { response: unknown; json: string }>();

  refer(operation: Operation, codes: ErrorCode[]): { $ref: string } {
    const response = withChallenge(refusalResponse(operation, codes), codes);
    // A response differs by its codes, and for an opt-in family's refusal by that family.
    const feature = codes.includes('FEATURE_DISABLED') && operation.feature ? [operation.feature] : [];
    const name = [...codes, ...feature].join('.');
    const json = JSON.stringify(response);
    const known = this.#responses.get(name);
    if (known && known.json !== json) throw new Error(`Two refusals named ${name} differ`);
    if (!known) this.#responses.set(name, { response, json });
    return { $ref: `#/components/responses/${name}` };
  }

  components(): Record<string, unknown> {
    return Object.fromEntries(
      [...this.#responses]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([name, { response }]) => [name, response]),
    );
  }
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return jsonSchemaOf(schema, io) as JsonSchema;
}

/** The version of the API the interface declares; paths carry /v1 (and /v3 for route building). */
export const API_VERSION = '1.0';

/** A call accepted as a job: the job resource (as get_job answers it) and where to follow it. */
function acceptedResponse(catalog: Catalog, named: NamedSchemas) {
  const jobRead = catalog.get('get_job');
  return {
    description: 'Accepted as a job (docs/jobs.md): follow it at Location until it succeeds or fails',
    headers: { Location: { description: 'The job: GET it for its status', schema: { type: 'string' } } },
    ...(jobRead
      ? {
          content: {
            'application/json': { schema: named.refer(schemaOf(jobRead.output, 'output'), 'output') },
          },
        }
      : {}),
  };
}

/**
 * The OpenAPI 3.1 document of the REST door, generated from the operation catalog. `serverUrl` is
 * the API's base: absolute where a deployment serves the document, `/api` in the committed file.
 */
export function buildOpenApiDocument(
  catalog: Catalog,
  options: { serverUrl: string; contactUrl?: string; examples?: Record<string, OperationExample> },
) {
  // The recorded request and answer of each operation (examples-print.ts), shown as its examples.
  const examples = options.examples ?? committedExamples();
  const paths: Record<string, Record<string, unknown>> = {};
  const named = new NamedSchemas();
  const refusals = new SharedRefusals();
  for (const operation of catalog.list()) {
    const binding = operation.rest;
    if (!binding) continue;
    const path = binding.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...binding.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const input = named.refer(schemaOf(operation.input, 'input'), 'input') as JsonSchema;
    const properties = input.properties ?? {};
    const required = new Set(input.required ?? []);
    const body = binding.body;
    const bodyless = binding.method === 'GET' || binding.method === 'DELETE';
    const bytesField = body?.bytes?.field;
    const headerOfField = new Map(
      Object.entries(binding.headers ?? {}).map(([header, field]) => [field, header]),
    );
    // Fields that cannot come in the body come in the query string.
    const inBody = (name: string) =>
      !bodyless &&
      !pathParams.includes(name) &&
      !headerOfField.has(name) &&
      (body?.field ? name === body.field : name !== bytesField);

    const parameters = Object.entries(properties)
      .filter(([name]) => name !== bytesField && !inBody(name))
      .map(([name, schema]) => ({
        name: headerOfField.get(name) ?? name,
        in: pathParams.includes(name) ? 'path' : headerOfField.has(name) ? 'header' : 'query',
        required: pathParams.includes(name) || required.has(name),
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        schema,
      }));
    if (answersDryRuns(operation)) {
      parameters.push({
        name: 'X-Dry-Run',
        in: 'header',
        required: false,
        description:
          '1: run the write in full and answer its result with `dry_run: true`, then roll it back; effects ' +
          'beyond the database (a card charge, an outbound request) are not made and are listed in `skipped_effects`',
        schema: { type: 'string', enum: ['1', 'true'] },
      });
    }
    if (operation.confirm) {
      parameters.push({
        name: 'X-Confirm',
        in: 'header',
        required: false,
        description:
          '1: the caller means this high-risk call. Required with an agent token (without it: 428 ' +
          'CONFIRMATION_REQUIRED); a dry run needs none',
        schema: { type: 'string', enum: ['1', 'true'] },
      });
    }
    if (operation.job) {
      parameters.push({
        name: 'Prefer',
        in: 'header',
        required: false,
        description:
          'respond-async: answer 202 with a job to follow, whatever the input (RFC 7240, docs/jobs.md)',
        schema: { type: 'string' },
      });
    }
    if (binding.etag) {
      parameters.push({
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'The ETag of an earlier answer: 304 without a body while the answer is the same',
        schema: { type: 'string' },
      });
    }
    const bodyFields = Object.keys(properties).filter(inBody);
    const jsonSchema = body?.field
      ? properties[body.field]
      : {
          ...input,
          properties: Object.fromEntries(bodyFields.map((name) => [name, properties[name]!])),
          required: bodyFields.filter((name) => required.has(name)),
        };
    const content: Record<string, { schema: JsonSchema }> = {};
    if (bodyFields.length > 0 && jsonSchema) {
      for (const type of ['application/json', ...(body?.jsonTypes ?? [])])
        content[type] = { schema: jsonSchema };
    }
    for (const type of body?.bytes?.mediaTypes ?? []) {
      content[type] = { schema: { type: 'string', contentMediaType: type } };
    }
    const requestBody =
      Object.keys(content).length === 0
        ? undefined
        : {
            required: body?.bytes !== undefined || bodyFields.some((name) => required.has(name)),
            content,
          };

    const errorResponses: Record<string, unknown> = {};
    for (const [status, codes] of declaredRefusals(operation))
      errorResponses[String(status)] = refusals.refer(operation, codes);

    const described = {
      operationId: operation.name,
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      tags: [operation.tag],
      security: securityOf(operation),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        '200': {
          description: 'Success',
          content: {
            'application/json': { schema: named.refer(answerSchemaOf(operation), 'output') },
            // Media types the caller may ask for with Accept, answered as the bare document.
            ...Object.fromEntries(
              (operation.representations ?? []).map((type) => [
                type,
                { schema: /[+/]json(;|$)/.test(type) ? {} : { type: 'string', contentMediaType: type } },
              ]),
            ),
          },
          ...(binding.etag
            ? {
                headers: {
                  ETag: { description: 'Strong validator of this answer', schema: { type: 'string' } },
                },
              }
            : {}),
        },
        ...(binding.etag
          ? { '304': { description: 'Not modified: the If-None-Match ETag is current' } }
          : {}),
        ...(operation.job ? { '202': acceptedResponse(catalog, named) } : {}),
        ...errorResponses,
      },
      'x-risk': operation.risk,
      'x-confirm': operation.confirm === true,
      'x-scopes': 'kinds' in operation.access ? [...(operation.access.scopes ?? [])] : [],
      ...(operation.expensive ? { 'x-expensive': true } : {}),
    };
    paths[path] ??= {};
    paths[path][binding.method.toLowerCase()] = withExample(described, operation, examples[operation.name]);
  }

  const contactUrl =
    options.contactUrl ?? (URL.canParse(options.serverUrl) ? `${options.serverUrl}/docs` : undefined);
  const tags = [
    ...new Set(catalog.list().flatMap((operation) => (operation.rest ? [operation.tag] : []))),
  ].sort((a, b) => a.localeCompare(b, 'en'));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Transport Management Service API',
      version: API_VERSION,
      description:
        'Orders, drivers, routes, contractors and open tracking events. Every error answers ' +
        '`{ result: false, error_code, message, details? }` with the message in the language of Accept-Language.',
      // The deployment's operator answers for its API: API_CONTACT_URL, else this reference page.
      // A contact URL is absolute (OpenAPI's format "uri"): the committed document, whose server is
      // relative, names none.
      contact: {
        name: 'Transport Management Service',
        ...(contactUrl ? { url: contactUrl } : {}),
      },
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
    paths,
    components: {
      responses: refusals.components(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token from POST /v1/user/login or `tms token create`.',
        },
        otepProviderKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-OTEP-Provider-Key',
          description:
            "A tracking provider's key, from create_tracking_provider (user tokens cannot push events).",
        },
      },
      schemas: {
        ...named.components(),
        Error: {
          type: 'object',
          required: ['result', 'error_code', 'message'],
          properties: {
            result: { const: false },
            error_code: { type: 'string', enum: ERROR_CODES },
            message: { type: 'string', description: 'Localised by Accept-Language' },
            details: { type: 'object', additionalProperties: true },
          },
        },
        FeatureDisabled: {
          description:
            'The refusal of an opt-in family (order chat, the operations AI agent) while it is off for the ' +
            'business, revoked by the platform admin, or not set up yet (reason not_migrated).',
          allOf: [{ $ref: '#/components/schemas/Error' }],
          type: 'object',
          required: ['feature_enabled', 'details'],
          properties: {
            error_code: { const: 'FEATURE_DISABLED' },
            feature_enabled: { const: false },
            details: {
              type: 'object',
              required: ['feature', 'reason'],
              properties: {
                // SMS marketing answers a code of its own (SMS_MARKETING_DISABLED) without feature_enabled.
                feature: {
                  type: 'string',
                  enum: OPT_IN_FAMILIES.filter((family) => family !== 'sms_marketing'),
                },
                reason: { type: 'string', enum: ['off', 'revoked', 'not_migrated'] },
              },
            },
          },
        },
      },
    },
  };
}
