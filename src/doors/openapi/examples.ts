import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Operation } from '../../platform/catalog/operation.ts';
import { PROJECT_ROOT } from '../../platform/project.ts';

/** One operation's recorded call: what was sent (as JSON values, before HTTP made them text) and the 200 answer. */
export interface OperationExample {
  request: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    /** Input fields sent as request headers, by input field name. */
    headers?: Record<string, unknown>;
    /** The JSON body, or the text of a body taken as it comes (a form, a provider's JSON push). */
    body?: unknown;
  };
  answer: unknown;
}

/** The examples `npm run openapi:examples` records from the demo (src/doors/openapi/examples-print.ts). */
export const EXAMPLES_FILE = path.join(PROJECT_ROOT, 'src', 'doors', 'openapi', 'examples.json');

let committed: Record<string, OperationExample> | undefined;

/** The committed examples, read once; none when the file is missing (a checkout that never recorded them). */
export function committedExamples(): Record<string, OperationExample> {
  if (!committed) {
    try {
      committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, OperationExample>;
    } catch {
      committed = {};
    }
  }
  return committed;
}

interface DocumentParameter {
  name: string;
  in: string;
}
type Media = Record<string, unknown>;

/**
 * The operation's OpenAPI object with its recorded call as examples: each parameter's value, the
 * body under each media type it was sent as, and the answer under the 200's JSON.
 */
export function withExample<D extends object>(
  described: D,
  operation: Operation,
  example: OperationExample | undefined,
): D {
  if (!example) return described;
  const document = described as {
    parameters?: DocumentParameter[];
    requestBody?: { content: Record<string, Media> };
    responses: Record<string, { content?: Record<string, Media> }>;
  };
  const { request } = example;
  const fieldOfHeader = new Map(
    Object.entries(operation.rest?.headers ?? {}).map(([header, field]) => [header.toLowerCase(), field]),
  );
  const exampleOf = (parameter: DocumentParameter): unknown => {
    if (parameter.in === 'path') return request.path?.[parameter.name];
    if (parameter.in === 'query') return request.query?.[parameter.name];
    if (parameter.in === 'header') {
      const field = fieldOfHeader.get(parameter.name.toLowerCase());
      return field ? request.headers?.[field] : undefined;
    }
    return undefined;
  };
  const parameters = document.parameters?.map((parameter) => {
    const value = exampleOf(parameter);
    return value === undefined ? parameter : { ...parameter, example: value };
  });
  const requestBody =
    document.requestBody && request.body !== undefined
      ? {
          ...document.requestBody,
          content: Object.fromEntries(
            Object.entries(document.requestBody.content).map(([type, media]) => [
              type,
              // A body taken as it comes (a form, a provider's push) is text, under the media types
              // the door takes as bytes (a string schema); a JSON object under the others.
              ((media.schema as { type?: string } | undefined)?.type === 'string') ===
              (typeof request.body === 'string')
                ? { ...media, example: request.body }
                : media,
            ]),
          ),
        }
      : document.requestBody;
  const success = document.responses['200']!;
  const responses = {
    ...document.responses,
    '200': {
      ...success,
      content: {
        ...success.content,
        'application/json': { ...success.content?.['application/json'], example: example.answer },
      },
    },
  };
  return {
    ...described,
    ...(parameters ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  } as D;
}
