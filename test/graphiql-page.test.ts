import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** GraphiQL in a real browser: everything it loads comes from the service itself. */
describe('GraphiQL at /api/graphiql', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  it('sends a policy that allows no other origin', async () => {
    const page = await fetch(`${server.baseUrl}/api/graphiql`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /script-src 'self';/);
    assert.doesNotMatch(policy, /https?:|unsafe-eval/);
    const html = await page.text();
    const [script] = html.match(/\/api\/graphiql\/[^"]+\/graphiql\.js/) ?? [];
    assert.ok(script, html);
    const asset = await fetch(server.baseUrl + script);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    assert.match(await asset.text(), /createFetcher/);
    const missing = await fetch(server.baseUrl + script.replace('graphiql.js', 'nothing.js'));
    assert.equal(missing.status, 404);
  });

  it('loads offline under its policy and runs a query', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const origins = new Set<string>();
    const problems: string[] = [];
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.baseUrl}/api/graphiql`);
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor();
    // The editor is CodeMirror 5, which keeps its API on its element.
    await page.evaluate(
      `document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{ __typename }')`,
    );
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').getByText('"Query"').waitFor();
    assert.deepEqual([...origins], [server.baseUrl]);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
