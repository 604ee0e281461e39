// The named export: 4.13's package gives TypeScript CommonJS types, where the default is the module.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import sparticuz from '@sparticuz/chromium';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

/** The two screens the pages are checked on. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
} satisfies BrowserContextOptions;
export const DESKTOP = { viewport: { width: 1280, height: 800 } } satisfies BrowserContextOptions;

/**
 * Where the headless Chromium is: CHROMIUM_PATH when set, otherwise the build that the
 * @sparticuz/chromium package ships inside npm (unpacked to the temp directory on first use), so
 * `npm ci` alone gives the tests their browser.
 */
export async function chromiumPath(): Promise<string> {
  return process.env.CHROMIUM_PATH ?? (await sparticuz.executablePath());
}

/** A headless Chromium with its default flags: the page's own CSP and origin rules stay in force. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), headless: true });
}

/** axe-core's serious and critical violations on the page as it is now, each with where it is. */
export async function graveViolations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** With `SCREENSHOTS=1`, the whole page as docs/images/{name}.png, the picture the docs show. */
export async function screenshotWhenAsked(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  const folder = path.resolve(import.meta.dirname, '..', '..', 'docs', 'images');
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

/**
 * A new browser context's page on a signed-in page's form (the dispatch console by default),
 * signed in with `email` and `password`. `watch` hears the page before it opens (its errors, its
 * console). Waits for nothing more: the caller waits for what its page draws.
 */
export async function signedInPage(
  browser: Browser,
  at: { baseUrl: string; path?: string },
  who: { email: string; password: string },
  options: BrowserContextOptions = DESKTOP,
  watch: (page: Page) => void = () => {},
): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  watch(page);
  await page.goto(`${at.baseUrl}${at.path ?? '/dispatch'}`);
  await page.fill('#email', who.email);
  await page.fill('#password', who.password);
  await page.click('button[type=submit]');
  return page;
}
