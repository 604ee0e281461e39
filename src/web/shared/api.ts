import createClient from 'openapi-fetch';
import type { components, paths } from './api.gen.ts';

export type { components, paths };
export type Schemas = components['schemas'];

/** A refusal in the API's error shape: its code, the message in the reader's language, details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
  }
}

/**
 * The public API as the page's person: the operations of openapi.json at the app's mount
 * (`{base}/api/v1/...`), the session's cookie and its anti-forgery token, answers and refusals in
 * the reader's language. The screen can do nothing its person could not do through the API.
 */
export function apiClient(base: string, csrf: string, lang: string) {
  const client = createClient<paths>({
    baseUrl: `${base}/api`,
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrf, 'accept-language': lang },
    // openapi-fetch names every request JSON; one without a body (a DELETE) would then be refused
    // as an empty JSON body.
    fetch: (request: Request) => {
      if (request.body === null) request.headers.delete('content-type');
      return fetch(request);
    },
  });
  // openapi-fetch names every request JSON, a bodiless POST too (an approval, a lock), which the
  // service refuses as invalid JSON: a request without a body says no type.
  client.use({
    onRequest: (request) => {
      if (request.body === null) request.headers.delete('content-type');
      return undefined;
    },
  });
  return client;
}
export type Api = ReturnType<typeof apiClient>;

/** The answer of a call, or its refusal thrown as an ApiError. */
export async function answer<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const body = (error ?? {}) as { error_code?: string; message?: string; details?: Record<string, unknown> };
  throw new ApiError(
    response.status,
    body.error_code ?? 'UNKNOWN',
    body.message ?? response.statusText,
    body.details,
  );
}

/** Headers of a dry run: the operation answers what it would do and changes nothing. */
export const DRY_RUN = { 'X-Dry-Run': '1' } as const;

/** Headers of a high-risk call the person confirmed on the screen (the operation's `confirm`). */
export const CONFIRM = { 'X-Confirm': '1' } as const;
