/**
 * What a browser test needs: the running product's address (see global-setup.ts) and a Chromium page.
 * Chromium is Debian's (/usr/bin/chromium) driven by playwright-core; nothing is downloaded.
 * `{slug}.localhost` resolves to the loopback address in Chromium, so minisites work as real subdomains.
 */
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openDb, type Db } from '../../db/client.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function baseUrl(): string {
  return inject('baseUrl');
}

/** http://{slug}.localhost:{port} */
export function minisiteUrl(slug: string, path = '/'): string {
  return `http://${slug}.localhost:${inject('port')}${path}`;
}

export function url(path: string): string {
  return `${baseUrl()}${path}`;
}

/** The epoch second the demo catalogue was generated against. */
export function catalogueNow(): number {
  return inject('catalogueNow');
}

let browser: Browser | undefined;

export async function launchBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return browser;
}

export async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const b = await launchBrowser();
  return b.newContext({ locale: 'en-GB', timezoneId: 'Europe/London', ...options });
}

export async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ page: Page; context: BrowserContext }> {
  const context = await newContext(options);
  const page = await context.newPage();
  return { page, context };
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** The database the product runs on, for assertions about what it stored. */
export function productDb(): Db {
  return openDb({ url: inject('databaseUrl') });
}
