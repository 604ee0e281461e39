import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STATUS_CODES } from '../src/modules/tracking/codebook.ts';
import { timelineJsonSchema } from '../src/modules/tracking/schema.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('the OTEP guide served by the service', () => {
  let server: TestServer;
  let api: Client;
  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
  });
  after(() => server.close());

  it('serves the spec page as self-contained HTML and as Markdown', async () => {
    const html = await api.get('/api/otep-guide', { headers: { 'accept-language': 'de' } });
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(html.body, /<html lang="de"/);
    const markdown = await api.get('/api/otep-guide.md');
    assert.match(markdown.headers.get('content-type') ?? '', /text\/markdown/);
    for (const code of STATUS_CODES) {
      assert.ok(html.body.includes(code), code);
      assert.ok(markdown.body.includes(code), code);
    }
  });

  it('publishes the JSON Schema the validator enforces and the codebook', async () => {
    const schema = await api.get('/api/otep-guide/schema.json');
    assert.equal(schema.status, 200);
    const document = schema.body;
    assert.match(document.$schema, /2020-12/);
    // Built from the validator's own patterns and lists: the published schema is that one.
    assert.equal(document.$id, `${server.app.services.tracking.baseUrl}/api/otep-guide/schema.json`);
    assert.deepEqual(document, timelineJsonSchema(server.app.services.tracking.baseUrl));
    const codebook = await api.get('/api/otep-guide/codebook.json');
    assert.equal(codebook.body.codes.length, 20);
    const table = await api.get('/api/otep-guide/codebook');
    assert.match(table.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(STATUS_CODES.every((code) => table.body.includes(code)));
  });
});
