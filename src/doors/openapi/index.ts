import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { API_PREFIX } from '../rest/index.ts';
import { buildOpenApiDocument } from './document.ts';
import { THEME_CSS, THEME_JS } from './theme.ts';

/** Serves the generated OpenAPI document at /api/openapi.json and a reference page at /api/docs. */
export async function registerOpenApiDoor(
  app: FastifyInstance,
  catalog: Catalog,
  options: { publicBaseUrl: string; contactUrl?: string },
): Promise<void> {
  const document = buildOpenApiDocument(catalog, {
    serverUrl: options.publicBaseUrl + API_PREFIX,
    contactUrl: options.contactUrl,
  });
  app.get(`${API_PREFIX}/openapi.json`, async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: `${API_PREFIX}/docs`,
    // BaseLayout leaves out the explorer bar (a framework logo and a free URL box).
    uiConfig: { layout: 'BaseLayout', deepLinking: true, tryItOutEnabled: true, persistAuthorization: true },
    // Contrast and names Swagger UI lacks (docs/accessibility.md).
    theme: {
      title: 'TMS API reference',
      css: [{ filename: 'tms.css', content: THEME_CSS }],
      js: [{ filename: 'tms.js', content: THEME_JS }],
    },
    // Like the plugin's own policy, less upgrade-insecure-requests, which breaks the page on plain HTTP hosts.
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; " +
      "object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self'",
  });
}
