import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { loadConfig } from '../src/config.ts';
import { buildOpenApiDocument } from '../src/doors/openapi/document.ts';
import { registeredRoutes } from '../src/platform/http/server.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { responseOf } from './support/openapi-schema.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface DocumentedOperation {
  operationId: string;
  responses: Record<string, { description?: string; $ref?: string }>;
}

interface DocumentedRoute {
  /** `POST /v1/otep/validate` */
  key: string;
  method: string;
  path: string;
  operation: DocumentedOperation;
}

/** A fetch answer read like the JSON client's. */
async function answerOf(response: Promise<Response>): Promise<Answer> {
  const answer = await response;
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, body: text ? JSON.parse(text) : undefined };
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let api: Client;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let document: any;

  const documentedRoutes = (): DocumentedRoute[] =>
    Object.entries<Record<string, DocumentedOperation>>(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operation,
      })),
    );

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const answer = await api.get('/api/openapi.json');
    assert.equal(answer.status, 200);
    document = answer.body;
  });
  after(() => server.close());

  it('is committed as openapi.json, in step with the catalog', async () => {
    const committed = JSON.parse(await readFile(new URL('../openapi.json', import.meta.url), 'utf8'));
    const expected = buildOpenApiDocument(server.app.catalog, { serverUrl: '/api' });
    assert.deepEqual(
      committed,
      JSON.parse(JSON.stringify(expected)),
      'openapi.json is out of date with the operation catalog: run `npm run openapi` and commit openapi.json',
    );
    // A client generated from the file calls the host it is given; the served document names this one.
    assert.deepEqual(committed.servers, [{ url: '/api' }]);
    assert.deepEqual(document.servers, [{ url: `${server.config.publicBaseUrl}/api` }]);
  });

  it('writes each set of refusal codes once, under components.responses, and refers to it', () => {
    const referred = new Set<string>();
    for (const route of documentedRoutes()) {
      for (const [status, response] of Object.entries(route.operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        const ref = (response as { $ref?: string }).$ref;
        assert.ok(ref, `${route.key} ${status} is written inline`);
        assert.match(responseOf(document, response).description, /^Refused: /, `${route.key} ${status}`);
        referred.add(ref);
      }
      // The refusals every operation may meet are one response each.
      assert.equal(
        (route.operation.responses['500'] as { $ref?: string }).$ref,
        '#/components/responses/INTERNAL_ERROR',
      );
    }
    assert.deepEqual(
      Object.keys(document.components.responses)
        .map((name) => `#/components/responses/${name}`)
        .sort(),
      [...referred].sort(),
      'every shared response is referred to',
    );
  });

  it("carries each operation's scopes, risk, confirm, and the dry-run and confirm headers of writes", () => {
    const buildRoute = document.paths['/v3/client/build-route'].post;
    assert.deepEqual(buildRoute['x-scopes'], ['routes:write']);
    assert.equal(buildRoute['x-risk'], 'high');
    assert.equal(buildRoute['x-confirm'], true);
    assert.equal(buildRoute['x-expensive'], true);
    assert.ok(
      buildRoute.parameters.some(
        (p: { name: string; in: string }) => p.name === 'X-Dry-Run' && p.in === 'header',
      ),
    );
    assert.ok(
      buildRoute.parameters.some(
        (p: { name: string; in: string }) => p.name === 'X-Confirm' && p.in === 'header',
      ),
    );
    assert.match(responseOf(document, buildRoute.responses['428']).description, /CONFIRMATION_REQUIRED/);
    const read = document.paths['/v1/client/orders'].get;
    assert.deepEqual(read['x-scopes'], ['orders:read']);
    assert.equal(read['x-confirm'], false);
    assert.ok(
      !(read.parameters ?? []).some((p: { name: string }) => p.name === 'X-Dry-Run'),
      'reads take no dry run',
    );
    assert.equal(read.responses['428'], undefined);
    const unconfirmedWrite = document.paths['/v1/client/orderCreate'].post;
    assert.equal(unconfirmedWrite['x-confirm'], false);
    assert.ok(
      !unconfirmedWrite.parameters.some((p: { name: string }) => p.name === 'X-Confirm'),
      'only high-risk writes take a confirmation',
    );
    assert.deepEqual(document.paths['/v1/otep/validate'].post['x-scopes'], []);
  });

  it('lists the media types each operation declares beside its JSON answer', () => {
    const declaring = documentedRoutes().filter(
      (route) => server.app.catalog.get(route.operation.operationId)?.representations,
    );
    assert.deepEqual(declaring.map((route) => route.key).sort(), [
      'GET /v1/bookings/{reference}/calendar',
      'GET /v1/client/dispatch/board',
      'GET /v1/client/load-plans/{plan_id}',
      'GET /v1/client/maps/{map_id}/geojson',
      'GET /v1/labelservice/labels/{tracking_number}',
      'GET /v1/otep/trackings/{tracking_number}',
      'GET /v1/otep/trackings/{tracking_number}/events',
      'GET /v1/proofs/{proof_id}',
      'GET /v1/sms/confirm/{subscriber_id}',
      'POST /v1/otep/trackings/batch',
      'POST /v1/sms/confirm/{subscriber_id}',
    ]);
    for (const route of declaring) {
      const operation = server.app.catalog.get(route.operation.operationId)!;
      const answers = route.operation.responses['200'] as unknown as { content: Record<string, unknown> };
      assert.deepEqual(Object.keys(answers.content), ['application/json', ...operation.representations!]);
    }
    const label = document.paths['/v1/labelservice/labels/{tracking_number}'].get.responses['200'].content;
    assert.deepEqual(label['application/pdf'].schema, {
      type: 'string',
      contentMediaType: 'application/pdf',
    });
  });

  it('publishes the order schema for each order of bulk_create_orders', () => {
    const ordersOf = (path: string) =>
      document.paths[path].post.requestBody.content['application/json'].schema.properties.orders;
    const bulk = ordersOf('/v1/client/orders/bulk');
    assert.equal(bulk.maxItems, 100);
    assert.deepEqual(bulk.items, ordersOf('/v1/client/orderCreate').items);
    assert.ok(bulk.items.properties.dropoff, 'an order names its dropoff');
  });

  it('passes the Redocly validator with no errors and no warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    const described = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    assert.deepEqual(described, []);
  });

  it('is OpenAPI 3.1 and describes every REST operation of the catalog', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, '1.0');
    const documented = new Set<string>();
    for (const methods of Object.values<Record<string, { operationId: string }>>(document.paths)) {
      for (const operation of Object.values(methods)) documented.add(operation.operationId);
    }
    const rest = server.app.catalog.list().filter((operation) => operation.rest);
    assert.ok(rest.length >= 4);
    assert.deepEqual([...documented].sort(), rest.map((operation) => operation.name).sort());
  });

  it('has every route the API answers, and nothing it does not answer', () => {
    // Surfaces under /api that describe themselves elsewhere: this document and its page, GraphQL
    // (schema.graphql), the OTEP guide (docs/otep.md), and discovery for agents (docs/agents.md).
    const elsewhere = [
      /^\/api\/openapi\.json$/,
      /^\/api\/docs(\/|$)/,
      /^\/api\/graphi?ql(\/|$)/,
      /^\/api\/otep-guide/,
      /^\/api\/(ai\/|ai-skill|\.well-known\/|llms\.txt$|guides\/)/,
    ];
    const served = registeredRoutes(server.app.http)
      .filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD')
      .filter((route) => !elsewhere.some((pattern) => pattern.test(route.url)))
      .map((route) => `${route.method} ${route.url.slice('/api'.length).replace(/:(\w+)/g, '{$1}')}`);
    assert.ok(served.includes('POST /v1/documents/verify'));
    assert.deepEqual(
      [...new Set(served)].sort(),
      documentedRoutes()
        .map((route) => route.key)
        .sort(),
    );
  });

  it('lists the status and code of every refusal the HTTP shell gives before an operation runs', async () => {
    const limit = loadConfig({}).bodyLimitBytes;
    const checked: string[] = [];
    const expect = async (route: DocumentedRoute, probe: string, answer: Answer, status: number) => {
      assert.equal(answer.status, status, `${route.key} ${probe}: ${JSON.stringify(answer.body)}`);
      const documented = responseOf(document, route.operation.responses[String(status)]);
      assert.ok(documented, `${route.key} does not document ${status} (${probe})`);
      assert.ok(
        documented.description.includes(answer.body.error_code),
        `${route.key} ${status} does not name ${answer.body.error_code}`,
      );
      checked.push(`${status} ${answer.body.error_code}`);
    };
    for (const route of documentedRoutes()) {
      const url = (value: string) => `/api${route.path.replace(/\{\w+\}/g, value)}`;
      if (route.path.includes('{')) {
        await expect(route, 'long path value', await api.call(route.method, url('x'.repeat(101))), 414);
        await expect(route, 'bad percent-encoding', await api.call(route.method, url('%E0%A4%A')), 400);
      }
      if (route.method === 'GET') continue;
      const send = (body: string | Buffer, type: string) =>
        fetch(server.baseUrl + url('1'), { method: route.method, headers: { 'content-type': type }, body });
      await expect(route, 'broken JSON', await answerOf(send('{"a": ', 'application/json')), 400);
      await expect(route, 'plain text', await answerOf(send('a=1', 'text/plain')), 415);
      const ownLimit = server.app.catalog.get(route.operation.operationId)?.rest?.body?.limitBytes ?? limit;
      await expect(
        route,
        'too large',
        await answerOf(send(Buffer.alloc(ownLimit + 1, 0x20), 'application/json')),
        413,
      );
    }
    assert.deepEqual([...new Set(checked)].sort(), [
      '400 INVALID_JSON',
      '400 INVALID_URL',
      '413 PAYLOAD_TOO_LARGE',
      '414 PARAMETER_TOO_LONG',
      '415 UNSUPPORTED_DOCUMENT_TYPE',
      '415 UNSUPPORTED_LABEL_TYPE',
      '415 UNSUPPORTED_MEDIA_TYPE',
      '415 UNSUPPORTED_PROOF_TYPE',
    ]);
  });

  it('documents login as public and me as needing a bearer token', () => {
    const loginOp = document.paths['/v1/user/login'].post;
    assert.deepEqual(loginOp.security, []);
    assert.deepEqual(loginOp.requestBody.content['application/json'].schema.required, ['email', 'password']);
    assert.ok(loginOp.responses['401'] && loginOp.responses['429'] && loginOp.responses['422']);
    const me = document.paths['/v1/user/me'].get;
    assert.deepEqual(me.security, [{ bearerAuth: [] }]);
    assert.ok(me.responses['401']);
  });

  it('serves an interactive reference page', async () => {
    const page = await fetch(`${server.baseUrl}/api/docs/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /swagger-ui/i);
    const initializer = await fetch(`${server.baseUrl}/api/docs/static/swagger-initializer.js`);
    assert.equal(initializer.status, 200);
    const served = await fetch(`${server.baseUrl}/api/docs/json`);
    assert.deepEqual(await served.json(), document);
  });
});
