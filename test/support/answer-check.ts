import type { FastifyInstance } from 'fastify';
import { declaredRefusals } from '../../src/doors/refusals.ts';
import { API_PREFIX } from '../../src/doors/rest/index.ts';
import type { Operation } from '../../src/platform/catalog/operation.ts';
import type { Catalog } from '../../src/platform/catalog/registry.ts';

/**
 * Holds every REST answer of a test server to its operation's contract: a refusal must carry a
 * code its operation declares for that status (src/doors/refusals.ts, what the OpenAPI document
 * publishes). An answer that breaks it is replaced by a 500 naming the operation, the status and
 * the code, so the test that met it fails there, whatever it asserted.
 */
export function checkAnswers(http: FastifyInstance, catalog: Catalog): void {
  const operations = new Map<string, Operation>();
  for (const operation of catalog.list()) {
    if (operation.rest)
      operations.set(`${operation.rest.method} ${API_PREFIX}${operation.rest.path}`, operation);
  }
  http.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    const operation = operations.get(`${request.method} ${request.routeOptions.url}`);
    if (!operation) return payload;
    let code: unknown;
    try {
      code = (JSON.parse(payload) as { error_code?: unknown }).error_code;
    } catch {
      return payload;
    }
    const declared = declaredRefusals(operation).get(reply.statusCode) ?? [];
    if (typeof code === 'string' && (declared as string[]).includes(code)) return payload;
    const broken = `${operation.name} answered ${reply.statusCode} ${String(code)}, which it does not declare (declared: ${declared.join(', ') || 'none'})`;
    reply.code(500);
    return JSON.stringify({
      result: false,
      error_code: 'INTERNAL_ERROR',
      message: `Undeclared answer: ${broken}`,
    });
  });
}
