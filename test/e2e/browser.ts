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
 * Launches this journey file's chromium-headless-shell (beforeAll) and closes it (afterAll). Every
 * test ends by asserting that no page broke the server's Content-Security-Policy.
 */
export function freshBrowser(): void {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
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
 * makes it another device for the server (the bell names the system and browser it parses from
 * it); `javaScriptEnabled: false` is a browser with scripts off.
 */
export async function openPage(
  viewport = DESKTOP,
  userAgent?: string,
  baseURL = serverUrl(),
  /** `locale` is also the Accept-Language the browser sends. */
  options: { javaScriptEnabled?: boolean; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  if (!browser) throw new Error('no browser: call freshBrowser() at the top of the file');
  const context = await browser.newContext({
    viewport,
    baseURL,
    ...(userAgent ? { userAgent } : {}),
    ...options,
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
 * Fails when a table hides text: a cell whose text is cut (wider than the cell, which clips or
 * ellipsizes it), or a table that scrolls sideways inside its wrapper (figures off screen).
 */
async function expectNoClippedTableText(page: Page, screen: string) {
  const clipped = await page.evaluate(() => {
    const found: string[] = [];
    const visible = (el: Element) => el.getClientRects().length > 0;
    for (const cell of document.querySelectorAll('table td, table th')) {
      if (!visible(cell)) continue;
      const style = getComputedStyle(cell);
      const cuts = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (cuts && cell.scrollWidth > cell.clientWidth + 1) {
        found.push(`cell "${(cell.textContent ?? '').trim().slice(0, 40)}"`);
      }
    }
    for (const table of document.querySelectorAll('table')) {
      const wrapper = table.parentElement;
      if (!wrapper || !visible(table)) continue;
      if (wrapper.scrollWidth > wrapper.clientWidth + 1 && wrapper !== document.body) {
        const caption = table.getAttribute('aria-label') ?? table.caption?.textContent ?? '';
        found.push(`table "${caption.trim()}" scrolls sideways`);
      }
    }
    return found;
  });
  expect({ screen, clipped }).toEqual({ screen, clipped: [] });
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One failed axe rule as the journey reports it: rule, what it means, and where. */
interface AxeFinding {
  rule: string;
  help: string;
  targets: string[];
  html: string;
  summary: string;
}

/**
 * Runs axe-core on the page as Lighthouse's accessibility audit does (WCAG 2 A/AA plus the best
 * practices it checks, among them the name-mismatch and progress-bar rules) and fails on any
 * violation. The script goes in through the DevTools protocol (page.evaluate) rather than a
 * <script> tag, which the server's Content-Security-Policy (script-src 'self') would rightly block.
 */
async function expectNoAxeViolations(page: Page, screen: string) {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  // A list may begin a background refetch (a status event, a poll) while axe reads the screen,
  // and axe then samples its faded colours. Such a run is not the screen's: it is read again.
  let findings: AxeFinding[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await settled(page);
    const run = await page.evaluate(runAxe);
    findings = run.findings;
    if (!run.disturbed) break;
  }
  expect({ screen, axe: findings }).toEqual({ screen, axe: [] });
}

/** Waits for the screen at rest: no CSS transition running, no list refetching, a heading drawn. */
async function settled(page: Page) {
  // Colours sampled mid-transition (a button's hover, a tab turning active) are not the screen's.
  // Nor are those of a list faded while it refetches (aria-busy).
  await page.waitForFunction(
    () =>
      document.getAnimations().every((animation) => !(animation instanceof CSSTransition)) &&
      document.querySelector('[aria-busy="true"]') === null,
  );
  // A route's chunk may still be on its way under load, its heading not yet drawn (one CI run).
  // Past the wait, axe itself reports a screen that never gets one, in its own words.
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
}

/** Runs axe in the page, and tells whether any element turned busy (or back) while it ran. */
async function runAxe(): Promise<{ findings: AxeFinding[]; disturbed: boolean }> {
  let disturbed = false;
  const observer = new MutationObserver(() => {
    disturbed = true;
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  const axe = Reflect.get(window, 'axe') as typeof import('axe-core');
  const results = await axe.run(document, {
    runOnly: {
      type: 'tag',
      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    },
    rules: {
      // Off by default in axe (experimental), on in Lighthouse.
      'label-content-name-mismatch': { enabled: true },
    },
    resultTypes: ['violations'],
  });
  observer.disconnect();
  disturbed ||= document.querySelector('[aria-busy="true"]') !== null;
  return {
    disturbed,
    findings: results.violations.flatMap((violation) =>
      violation.nodes.map((node) => ({
        rule: violation.id,
        help: violation.help,
        targets: node.target.map(String),
        html: node.html.slice(0, 200),
        summary: node.failureSummary ?? '',
      })),
    ),
  };
}

/**
 * Checks that the screen fits its width, that its tables show all their text, and that it
 * passes axe-core. With E2E_SCREENSHOTS=1 it then saves a screenshot under test-results/, for a
 * look at what the journey saw: about a fifth of a second of CPU each, which a run that only
 * checks need not spend.
 */
export async function snap(page: Page, name: string) {
  // A toast sliding in from the side widens the page while it moves: the width is the screen's
  // once the animations that end have ended (a spinner's never does). Past 5 s, measured anyway.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' ||
              animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  await expectNoHorizontalOverflow(page, name);
  await expectNoClippedTableText(page, name);
  await expectNoAxeViolations(page, name);
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  const dir = path.resolve(__dirname, '../../test-results');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
