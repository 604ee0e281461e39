import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { answerSchemaOf, jsonSchemaOf } from '../../src/doors/json-schema.ts';
import { declaredRefusals } from '../../src/doors/refusals.ts';
import { API_PREFIX } from '../../src/doors/rest/index.ts';
import type { Operation } from '../../src/platform/catalog/operation.ts';
import type { Catalog } from '../../src/platform/catalog/registry.ts';

/**
 * Holds every REST answer of a test server to its operation's contract, as the OpenAPI document
 * publishes it: a JSON success answer must fit the operation's success schema (a 202 the job's),
 * and a refusal must carry a code its operation declares for that status (src/doors/refusals.ts).
 * An answer that breaks it is replaced by a 500 naming the operation and what broke, so the test
 * that met it fails there, whatever it asserted.
 */
export function checkAnswers(http: FastifyInstance, catalog: Catalog): void {
  const operations = new Map<string, Operation>();
  for (const operation of catalog.list()) {
    if (operation.rest)
      operations.set(`${operation.rest.method} ${API_PREFIX}${operation.rest.path}`, operation);
  }
  const jobRead = catalog.get('get_job');
  http.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const operation = operations.get(`${request.method} ${request.routeOptions.url}`);
    if (!operation) return payload;
    const broken =
      reply.statusCode < 400
        ? brokenSuccess(
            operation,
            reply.statusCode,
            String(reply.getHeader('content-type') ?? ''),
            payload,
            jobRead,
          )
        : brokenRefusal(operation, reply.statusCode, payload);
    if (!broken) return payload;
    reply.code(500);
    return JSON.stringify({
      result: false,
      error_code: 'INTERNAL_ERROR',
      message: `Undeclared answer: ${broken}`,
    });
  });
}

function brokenRefusal(operation: Operation, status: number, payload: string): string | undefined {
  let code: unknown;
  try {
    code = (JSON.parse(payload) as { error_code?: unknown }).error_code;
  } catch {
    return undefined;
  }
  const declared = declaredRefusals(operation).get(status) ?? [];
  if (typeof code === 'string' && (declared as string[]).includes(code)) return undefined;
  return `${operation.name} answered ${status} ${String(code)}, which it does not declare (declared: ${declared.join(', ') || 'none'})`;
}

function brokenSuccess(
  operation: Operation,
  status: number,
  contentType: string,
  payload: string,
  jobRead: Operation | undefined,
): string | undefined {
  // Other media types (a CSV, a PDF, an EPCIS document asked for by Accept) are the bare document.
  if (!/^application\/json\b/.test(contentType) || payload === '') return undefined;
  const validate =
    status === 202 && jobRead
      ? validatorOf(jobRead, 'job')
      : status === 200
        ? validatorOf(operation)
        : undefined;
  if (!validate) return undefined;
  if (validate(JSON.parse(payload))) return undefined;
  const errors = (validate.errors ?? [])
    .slice(0, 5)
    .map((error) => `answer${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
  return `${operation.name} answered ${status} outside its documented schema: ${errors.join('; ')}`;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** Compiled once a process: a test file starts a server or more, every one holding the same contract. */
const validators = new Map<string, ValidateFunction>();

function validatorOf(operation: Operation, as: 'answer' | 'job' = 'answer'): ValidateFunction {
  const key = `${as} ${operation.name}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(
      as === 'job' ? jsonSchemaOf(operation.output, 'output') : answerSchemaOf(operation),
    );
    validators.set(key, validate);
  }
  return validate;
}
