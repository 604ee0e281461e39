import assert from 'node:assert/strict';

export interface DiscoveryPage {
  bytes: number;
  /** The page's tool entries in its format's shape. */
  entries: Array<Record<string, unknown>>;
  /** The mcp format's own `nextCursor`, when it has one. */
  nextCursor?: string;
}

/** A tool entry's name, in any of the four formats (OpenAI's sits in `function`). */
export function entryName(entry: Record<string, unknown>): string {
  return (entry.name ?? (entry.function as { name: string }).name) as string;
}

/**
 * Every page of `/api/ai/tools?<query>` from the first, as a client walks them: each page's
 * `Link: <...>; rel="next"` (its address taken on the test server), which the mcp format's
 * `nextCursor` must agree with.
 */
export async function discoveryPages(baseUrl: string, query: string): Promise<DiscoveryPage[]> {
  const pages: DiscoveryPage[] = [];
  let path: string | undefined = `/api/ai/tools?${query}`;
  while (path) {
    const answer = await fetch(`${baseUrl}${path}`);
    assert.equal(answer.status, 200, path);
    const body = await answer.text();
    const parsed = JSON.parse(body) as { tools?: Array<Record<string, unknown>>; nextCursor?: string };
    const entries = Array.isArray(parsed) ? parsed : parsed.tools!;
    const next = /^<([^>]+)>; rel="next"$/.exec(answer.headers.get('link') ?? '')?.[1];
    const url = next ? new URL(next) : undefined;
    if (!Array.isArray(parsed)) assert.equal(parsed.nextCursor, url?.searchParams.get('cursor') ?? undefined);
    pages.push({ bytes: Buffer.byteLength(body), entries, nextCursor: parsed.nextCursor });
    path = url && `${url.pathname}${url.search}`;
  }
  return pages;
}
