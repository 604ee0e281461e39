import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createCatalog } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { answerSchemaOf, jsonSchemaOf } from '../src/doors/json-schema.ts';
import { buildOpenApiDocument } from '../src/doors/openapi/document.ts';
import { HANDWRITTEN } from '../src/doors/openapi/example-handwritten.ts';
import { EXAMPLES_FILE, type OperationExample } from '../src/doors/openapi/examples.ts';
import type { Operation } from '../src/platform/catalog/operation.ts';
import { systemClock } from '../src/platform/clock.ts';
import { createServices } from '../src/services.ts';

// The examples the OpenAPI document shows are calls that work: every operation with a REST
// binding has a request and a success answer (recorded from the demo by `npm run
// openapi:examples`, or written by hand where the demo cannot make the call), the request fits
// the operation's input schema and the answer its published success schema.

const catalog = createCatalog(createServices(loadConfig({ LOG_LEVEL: 'silent' }), systemClock));
const operations = catalog.list().filter((operation) => operation.rest);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const REGENERATE = 'run `npm run openapi:examples` then `npm run openapi`, and commit both files';

/** The input the REST door reads from the recorded request: path, query, header fields and the body. */
function inputOf(operation: Operation, request: OperationExample['request']): Record<string, unknown> {
  const body = operation.rest!.body;
  const input: Record<string, unknown> = { ...request.path, ...request.query, ...request.headers };
  if (body?.bytes) input[body.bytes.field] = request.body ?? '';
  else if (body?.field) input[body.field] = request.body;
  else if (request.body && typeof request.body === 'object') Object.assign(input, request.body);
  return input;
}

describe('the OpenAPI examples', async () => {
  const examples = JSON.parse(await readFile(EXAMPLES_FILE, 'utf8')) as Record<string, OperationExample>;

  it('has a request and a success answer for every operation with a REST binding', () => {
    const missing = operations.filter((operation) => {
      const example = examples[operation.name];
      return !example?.request || example.answer === undefined;
    });
    assert.deepEqual(
      missing.map((operation) => operation.name),
      [],
      `operations without an example: ${REGENERATE} (an operation needs its input in src/doors/openapi/example-inputs.ts)`,
    );
    const names = new Set(operations.map((operation) => operation.name));
    assert.deepEqual(
      Object.keys(examples).filter((name) => !names.has(name)),
      [],
      `examples of operations the catalog no longer has: ${REGENERATE}`,
    );
    assert.deepEqual(
      Object.keys(HANDWRITTEN).filter((name) => !names.has(name)),
      [],
      'hand-written examples of operations without a REST binding',
    );
  });

  it("sends requests that fit each operation's input schema", () => {
    const misfits: string[] = [];
    for (const operation of operations) {
      const example = examples[operation.name];
      if (!example) continue;
      const validate = ajv.compile(jsonSchemaOf(operation.input, 'input'));
      if (!validate(inputOf(operation, example.request)))
        misfits.push(`${operation.name}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.deepEqual(misfits, [], 'request examples that do not fit the input schema');
  });

  it('answers in the success schema the document publishes', () => {
    const misfits: string[] = [];
    for (const operation of operations) {
      const example = examples[operation.name];
      if (!example) continue;
      const validate = ajv.compile(answerSchemaOf(operation));
      if (!validate(example.answer)) misfits.push(`${operation.name}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.deepEqual(misfits, [], 'success examples that do not fit the answer schema');
  });

  it('is shown in the committed openapi.json: the request, its parameters and the answer', async () => {
    const committed = JSON.parse(await readFile(new URL('../openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(
      committed,
      JSON.parse(JSON.stringify(buildOpenApiDocument(catalog, { serverUrl: '/api' }))),
      `openapi.json is out of date with the examples: ${REGENERATE}`,
    );
    for (const operation of operations) {
      const binding = operation.rest!;
      const path = binding.path.replace(/:(\w+)/g, '{$1}');
      const documented = committed.paths[path][binding.method.toLowerCase()];
      const example = examples[operation.name]!;
      assert.deepEqual(
        documented.responses['200'].content['application/json'].example,
        example.answer,
        `${operation.name}: the 200 answer's example`,
      );
      for (const [name, value] of Object.entries(example.request.path ?? {})) {
        const parameter = documented.parameters.find(
          (p: { name: string; in: string }) => p.in === 'path' && p.name === name,
        );
        assert.deepEqual(parameter?.example, value, `${operation.name}: path parameter ${name}'s example`);
      }
      const bodyExamples = Object.values(documented.requestBody?.content ?? {}).map(
        (media) => (media as { example?: unknown }).example,
      );
      if (
        example.request.body !== undefined &&
        !(
          typeof example.request.body === 'object' && Object.keys(example.request.body as object).length === 0
        )
      )
        assert.ok(
          bodyExamples.some((shown) => JSON.stringify(shown) === JSON.stringify(example.request.body)),
          `${operation.name}: the request body's example`,
        );
    }
  });
});
