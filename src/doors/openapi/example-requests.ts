import type { Operation } from '../../platform/catalog/operation.ts';
import type { Demo, Signer } from './example-demo.ts';
import type { OperationExample } from './examples.ts';

/** How an example calls its operation: as whom, with which input fields, and a body taken as it comes. */
export interface ExampleCall {
  /** By default the first account kind the operation admits (a client admin for any). */
  as?: Signer;
  /** Input fields: path parameters left out are the demo's (PARAMETERS in example-inputs.ts). */
  input?: Record<string, unknown>;
  /** The body of an operation that takes its body as it comes (a form, a provider's push, an image). */
  raw?: { type: string; body: string | Uint8Array };
}

export interface ExampleRequest {
  method: string;
  url: string;
  signer: Signer;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  recorded: OperationExample['request'];
}

function signerOf(operation: Operation): Signer {
  const access = operation.access;
  if (access.public) return 'public';
  if ('provider' in access && access.provider) return 'provider';
  if (!('kinds' in access) || access.kinds === 'any') return 'client_admin';
  return access.kinds[0]!;
}

/** The HTTP request of an example call, split into path, query, headers and body as the REST door reads them. */
export function requestOf(
  operation: Operation,
  call: ExampleCall,
  defaults: (name: string) => unknown,
): ExampleRequest {
  const binding = operation.rest!;
  const input = { ...call.input };
  const pathParams = [...binding.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const headerOfField = new Map(
    Object.entries(binding.headers ?? {}).map(([header, field]) => [field, header]),
  );
  const recorded: OperationExample['request'] = {};
  const path: Record<string, unknown> = {};
  for (const name of pathParams) path[name] = name in input ? input[name] : defaults(name);
  const fields = Object.entries(input).filter(([name]) => !pathParams.includes(name));
  const headerFields = Object.fromEntries(fields.filter(([name]) => headerOfField.has(name)));
  const rest = Object.fromEntries(fields.filter(([name]) => !headerOfField.has(name)));
  const bodyless = binding.method === 'GET' || binding.method === 'DELETE';
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | Uint8Array | undefined;
  if (pathParams.length > 0) recorded.path = path;
  if (Object.keys(headerFields).length > 0) {
    recorded.headers = headerFields;
    for (const [field, value] of Object.entries(headerFields))
      headers[headerOfField.get(field)!] = String(value);
  }
  if (bodyless || call.raw) {
    if (Object.keys(rest).length > 0) recorded.query = rest;
    for (const [name, value] of Object.entries(rest)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
  }
  if (call.raw) {
    headers['content-type'] = call.raw.type;
    body = call.raw.body;
    if (typeof body === 'string') recorded.body = body;
  } else if (!bodyless) {
    const json = binding.body?.field ? rest[binding.body.field] : rest;
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json ?? {});
    recorded.body = json ?? {};
  }
  const filled = binding.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(path[name])));
  const search = query.toString();
  return {
    method: binding.method,
    url: `${filled}${search ? `?${search}` : ''}`,
    signer: call.as ?? signerOf(operation),
    headers,
    body,
    recorded,
  };
}

/** Sends the request as its signer; a write as a dry run unless `keep` (the set-up's own calls). */
export async function sendExample(
  baseUrl: string,
  operation: Operation,
  request: ExampleRequest,
  demo: Pick<Demo, 'tokens' | 'providerKey'>,
  keep = false,
): Promise<{ status: number; body: unknown }> {
  const headers = { ...request.headers };
  if (request.signer === 'provider') headers['x-otep-provider-key'] = demo.providerKey;
  else if (request.signer !== 'public') headers.authorization = `Bearer ${demo.tokens[request.signer]}`;
  if (operation.kind === 'mutation' && !keep) headers['x-dry-run'] = '1';
  const response = await fetch(baseUrl + request.url, {
    method: request.method,
    headers,
    body: request.body as string | Uint8Array<ArrayBuffer> | undefined,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/** Items of a list an example shows: enough to see its shape, few enough to keep the document small. */
const LIST_ITEMS = 2;
/** Longer texts (a guide, a document) are cut: an example shows the field, not the whole text. */
const TEXT_LENGTH = 600;

/**
 * The answer as the example shows it: without the dry run's own fields (a kept call answers
 * without them), lists cut to a few items, long texts cut.
 */
export function tidyAnswer(answer: unknown): unknown {
  const tidy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.slice(0, LIST_ITEMS).map(tidy);
    if (typeof value === 'string' && value.length > TEXT_LENGTH) return `${value.slice(0, TEXT_LENGTH)}…`;
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, tidy(item)]));
  };
  if (answer && typeof answer === 'object' && !Array.isArray(answer)) {
    const { dry_run: _dryRun, skipped_effects: _skipped, ...kept } = answer as Record<string, unknown>;
    return tidy(kept);
  }
  return tidy(answer);
}
