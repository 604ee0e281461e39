import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('the OpenAPI document', () => {
  let server: TestServer;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let document: any;

  before(async () => {
    server = await startTestServer();
    const answer = await client(server.baseUrl).get('/api/openapi.json');
    assert.equal(answer.status, 200);
    document = answer.body;
  });
  after(() => server.close());

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
