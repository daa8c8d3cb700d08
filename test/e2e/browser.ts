import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { serverUrl } from './server';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Browser | undefined;

/** Content-Security-Policy violations seen by this file's pages since the last test ended. */
let cspViolations: string[] = [];

/** Hands back (and forgets) the violations seen so far: for a test that plants one on purpose. */
export function takeCspViolations(): string[] {
  const seen = cspViolations;
  cspViolations = [];
  return seen;
}

/**
 * Launches this journey file's headless chromium (beforeAll) and closes it (afterAll). Every test
 * ends by asserting that no page broke the server's Content-Security-Policy.
 */
export function freshBrowser(): void {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: FLAGS,
    });
  });
  afterEach(() => {
    expect(takeCspViolations()).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
}

/**
 * Records CSP violations two ways: the `securitypolicyviolation` event, reported from every
 * document of the context through a binding, and chromium's console message, which also covers
 * what no document event sees (e.g. a worker).
 */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__cspViolation', (_source, violation: string) => {
    cspViolations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = Reflect.get(window, '__cspViolation') as (violation: string) => void;
      const where = `${event.sourceFile}:${event.lineNumber}`;
      void report(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${where}`,
      );
    });
  });
  context.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/**
 * A new context (fresh storage) and page on this file's server (or `baseURL`'s); `userAgent`
 * makes it another device for the server (the bell names the system and browser it parses from it).
 */
export async function openPage(
  viewport = DESKTOP,
  userAgent?: string,
  baseURL = serverUrl(),
): Promise<{ context: BrowserContext; page: Page }> {
  if (!browser) throw new Error('no browser: call freshBrowser() at the top of the file');
  const context = await browser.newContext({
    viewport,
    baseURL,
    ...(userAgent ? { userAgent } : {}),
  });
  await watchCsp(context);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Fails when the page scrolls sideways: content wider than the screen, which a user notices at
 * once on a phone.
 */
async function expectNoHorizontalOverflow(page: Page, screen: string) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect({ screen, overflow: Math.max(0, overflow) }).toEqual({ screen, overflow: 0 });
}

/**
 * Checks that the screen fits its width, then saves a screenshot under test-results/ (kept for a
 * look at what the journey saw).
 */
export async function snap(page: Page, name: string) {
  await expectNoHorizontalOverflow(page, name);
  const dir = path.resolve(__dirname, '../../test-results');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
