// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are asserted field by field
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A small JSON client over real HTTP. */
export function client(baseUrl: string) {
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown = text;
    if (response.headers.get('content-type')?.includes('json')) body = text ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, body };
  }
  return {
    call,
    get: (path: string, options?: CallOptions) => call('GET', path, options),
    post: (path: string, body?: unknown, options?: CallOptions) =>
      call('POST', path, { ...options, body: body ?? {} }),
  };
}
export type Client = ReturnType<typeof client>;
