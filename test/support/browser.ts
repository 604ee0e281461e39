import sparticuz from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

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
