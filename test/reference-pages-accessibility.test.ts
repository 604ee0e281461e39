import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP, graveViolations, launchBrowser, PHONE } from './support/browser.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Swagger UI reads the whole OpenAPI document before it draws an operation, and the whole of an
 * operation before it opens: seconds on a quiet machine, more on a busy one, so its waits are longer.
 */
const REFERENCE_LOADED = 180_000;

/** Every violation axe finds, whatever its impact, each with where it is. */
async function allViolations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/**
 * The reference pages a newcomer opens first (docs/accessibility.md): the OTEP guide and its
 * codebook, GraphiQL and the API reference, checked with axe on a phone and a desktop.
 */
describe('the reference pages under axe', () => {
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

  async function open(address: string, device: BrowserContextOptions) {
    const context = await browser.newContext(device);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    if (address.startsWith('/api/docs')) page.setDefaultTimeout(REFERENCE_LOADED);
    await page.goto(`${server.baseUrl}${address}`);
    return { page, problems, close: () => context.close() };
  }

  it('lets every sideways-scrolling block of the OTEP guide take focus, named, and passes axe', async () => {
    for (const device of [PHONE, DESKTOP, { ...DESKTOP, colorScheme: 'dark' as const }]) {
      for (const address of ['/api/otep-guide', '/api/otep-guide/codebook']) {
        const { page, close } = await open(address, device);
        const boxes = await page
          .locator('pre, .table-wrap')
          .evaluateAll((elements) =>
            elements.map((element) => [
              element.getAttribute('tabindex'),
              element.getAttribute('role'),
              element.getAttribute('aria-label'),
            ]),
          );
        assert.ok(boxes.length > 0, address);
        for (const [tabindex, role, label] of boxes) {
          assert.deepEqual([tabindex, role], ['0', 'region'], address);
          assert.ok(label, address);
        }
        const labels = boxes.map(([, , label]) => label);
        assert.equal(
          new Set(labels).size,
          labels.length,
          `each region's name is its own: ${labels.join(' | ')}`,
        );
        // scrollable-region-focusable among them: the four blocks wider than a phone were its failures.
        assert.deepEqual(await allViolations(page), [], `${address} at ${device.viewport.width}px`);
        await close();
      }
    }
    // What a keyboard does with it: Tab reaches the first example, which then scrolls by the arrows.
    const { page, close } = await open('/api/otep-guide', PHONE);
    const example = page.locator('pre').first();
    await example.focus();
    assert.equal(await example.evaluate((element) => element === element.ownerDocument.activeElement), true);
    assert.ok(await example.evaluate((element) => element.scrollWidth > element.clientWidth));
    await page.keyboard.press('ArrowRight');
    // Scrolling may be smooth: the box is asked until it has moved (a few seconds at most).
    let moved = 0;
    for (let asked = 0; moved === 0 && asked < 100; asked++) {
      moved = await example.evaluate((element) => element.scrollLeft);
      if (moved === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(moved > 0);
    await close();
  });

  it('names GraphiQL’s editors, lets them scroll from the keyboard, meets contrast, and passes axe', async () => {
    for (const device of [PHONE, DESKTOP, { ...DESKTOP, colorScheme: 'dark' as const }]) {
      const { page, problems, close } = await open('/api/graphiql', device);
      await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
      // A query with a comment, names, an argument and a variable, and its answer: every colour the
      // editors draw with.
      await page.evaluate(
        `document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(` +
          `'# the type of the root\\nquery Root($name: String!) { __typename root: __type(name: $name) { name kind } }')`,
      );
      await page.evaluate(
        `document.querySelector('.graphiql-editor-tool .graphiql-editor .CodeMirror').CodeMirror.setValue('{ "name": "Query" }')`,
      );
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.result-window').getByText('"OBJECT"').waitFor();
      await page.waitForFunction(
        `document.querySelectorAll('.CodeMirror textarea:not([aria-label])').length === 0`,
      );
      const names = await page
        .locator('.CodeMirror textarea')
        .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label')));
      assert.deepEqual(names, ['Query Editor', 'Variables', 'Headers', 'Result Window']);
      // label, color-contrast and scrollable-region-focusable were its failures; the landmark and
      // heading rules too, moderate ones.
      assert.deepEqual(await allViolations(page), [], `GraphiQL at ${device.viewport.width}px`);
      assert.deepEqual(problems, []);
      await close();
    }
  });

  it('names the API reference’s server choice, meets contrast, and has no serious or critical violation', async () => {
    for (const device of [PHONE, DESKTOP]) {
      const { page, problems, close } = await open('/api/docs/', device);
      await page.locator('.opblock').first().waitFor();
      await page.waitForFunction(`document.querySelector('select#servers[aria-label]') !== null`);
      // One read and one write opened, their inputs shown (tryItOutEnabled).
      for (const method of ['get', 'post']) {
        const operation = page.locator(`.opblock.opblock-${method}`).first();
        await operation.locator('.opblock-summary-control').click();
        await operation.locator('.parameters-container, .opblock-section-request-body').first().waitFor();
      }
      await page.waitForFunction(
        `document.querySelectorAll('.opblock-summary-control a[href]').length === 0`,
      );
      // color-contrast, select-name and nested-interactive were its failures; what remains of
      // Swagger UI's own is in docs/accessibility.md.
      assert.deepEqual(await graveViolations(page), [], `the API reference at ${device.viewport.width}px`);
      assert.deepEqual(problems, []);
      await close();
    }
  });

  it('keeps deep links to the reference’s operations once their links leave the buttons', async () => {
    const { page, close } = await open('/api/docs/', DESKTOP);
    await page.locator('.opblock').first().waitFor();
    await page.waitForFunction(`document.querySelectorAll('.opblock-summary-control a[href]').length === 0`);
    const operation = page.locator('.opblock.opblock-get').first();
    await operation.locator('.opblock-summary-control').click();
    const id = (await operation.getAttribute('id'))!.replace(/^operations-/, '');
    const [tag, name] = id.split('-');
    await page.waitForFunction(`window.location.hash === '#/${tag}/${name}'`);
    await close();
  });
});
