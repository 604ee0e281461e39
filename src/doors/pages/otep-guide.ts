import type { FastifyInstance } from 'fastify';
import {
  codebookHtml,
  codebookJson,
  codebookMarkdown,
  guideHtml,
  guideMarkdown,
  timelineJsonSchema,
} from '../../modules/tracking/index.ts';

/** Self-contained pages: inline styles only, nothing else may load or run. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/**
 * The OTEP guide, generated from the code that validates: the spec page (HTML and Markdown), the
 * JSON Schema the validator enforces, and the codebook (HTML, Markdown and JSON). Public.
 */
export function registerOtepGuide(app: FastifyInstance, baseUrl: string): void {
  const cached = (reply: { header: (name: string, value: string) => unknown }) =>
    reply.header('cache-control', 'public, max-age=300');

  app.get('/api/otep-guide', async (request, reply) => {
    cached(reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .send(guideHtml(baseUrl, request.lang));
  });
  app.get('/api/otep-guide.md', async (_request, reply) => {
    cached(reply);
    return reply.type('text/markdown; charset=utf-8').send(guideMarkdown(baseUrl));
  });
  app.get('/api/otep-guide/schema.json', async (_request, reply) => {
    cached(reply);
    return reply.type('application/schema+json').send(JSON.stringify(timelineJsonSchema(baseUrl), null, 2));
  });
  app.get('/api/otep-guide/codebook', async (request, reply) => {
    cached(reply);
    const wantsMarkdown = (request.headers.accept ?? '').includes('text/markdown');
    if (wantsMarkdown) return reply.type('text/markdown; charset=utf-8').send(codebookMarkdown());
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .send(codebookHtml(baseUrl, request.lang));
  });
  app.get('/api/otep-guide/codebook.json', async (_request, reply) => {
    cached(reply);
    return reply.type('application/json').send(JSON.stringify(codebookJson(), null, 2));
  });
}
