import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { API_PREFIX } from '../rest/index.ts';
import { buildOpenApiDocument } from './document.ts';

/** Serves the generated OpenAPI document at /api/openapi.json and a reference page at /api/docs. */
export async function registerOpenApiDoor(
  app: FastifyInstance,
  catalog: Catalog,
  options: { publicBaseUrl: string },
): Promise<void> {
  const document = buildOpenApiDocument(catalog, { serverUrl: options.publicBaseUrl + API_PREFIX });
  app.get(`${API_PREFIX}/openapi.json`, async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: `${API_PREFIX}/docs`,
    uiConfig: { url: `${API_PREFIX}/openapi.json`, deepLinking: true, tryItOutEnabled: true },
    staticCSP: true,
  });
}
