import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { paths } from '../../src/app/paths';
import { TABS } from '../../src/features/apps/appRules';
import { STORAGE_KEY } from '../../src/i18n/i18n';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn, type LoginWords } from './journeys';
import { freshServer } from './server';

// A screenshot tour of every route of the portal, and every tab of an app, at 1280 px and
// 375 px as the demo merchant sees them: each screen fits its width, shows all the text of its
// tables, and passes axe (snap); with E2E_SCREENSHOTS=1 its PNGs are left in test-results/.
// Other journeys snap the same screens mid-action (modals, toasts, forms filled); this one is the
// list to check when a route is added. The layout holds in every language: the tour runs again
// in French (long words) and Japanese, each language's both widths in one browser and one sign-in.

jest.setTimeout(240_000);

freshServer();
freshBrowser();

const DEMO_APP = 'app_demo_store';

type Language = 'en' | 'fr' | 'ja';

/** The public screens' messages in `language`, as the portal shows them; each must be there. */
function publicWords(language: Language): (key: string) => string {
  const file = path.resolve(__dirname, `../../src/i18n/catalogues/public/${language}.json`);
  const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return (key) => {
    const message = messages[key];
    if (message === undefined) throw new Error(`no ${key} in public/${language}.json`);
    return message;
  };
}

/** The signed-out screens, each with the message of the heading that says it is drawn. */
const PUBLIC: readonly (readonly [string, string])[] = [
  [paths.login, 'login.title'],
  [paths.register, 'title.register'],
  [paths.reset, 'title.reset'],
];

/** The signed-in routes (the app's tabs are added below). */
const SIGNED_IN: readonly string[] = [
  paths.dashboard,
  paths.allApps,
  paths.kyc,
  paths.profile,
  paths.history,
  paths.subscriptions,
  paths.wallet,
  paths.authentication,
  paths.changePassword,
  paths.usages,
  paths.createApp,
  paths.support,
  ...TABS.map((tab) => paths.myApp(DEMO_APP, tab.slug)),
  // The Transaction tab's other lists (Account is its first).
  `${paths.myApp(DEMO_APP, 'transaction')}?view=receive`,
  `${paths.myApp(DEMO_APP, 'transaction')}?view=send`,
  '/app/no-such-screen',
];

/** The screen is drawn: its level-1 heading is up and nothing is loading any more. */
async function drawn(page: Page, heading?: string) {
  await page
    .getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) })
    .first()
    .waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector('[role="status"][aria-label^="Loading"]') === null &&
      document.querySelector('.collapsing, .offcanvas.showing, .fade:not(.show)') === null,
  );
}

/**
 * Goes to `route` as the portal's own links do, without a reload (a page's first visit loads it):
 * the screens are the same, and the checks' script (axe) stays loaded instead of being injected
 * again into every new page, which took about as long as axe's own run.
 */
async function visit(page: Page, route: string) {
  if (page.url() === 'about:blank') {
    await page.goto(route);
    return;
  }
  // Returns once React has drawn the new route (its first change to the page; never more than 2 s
  // on a route that changes nothing), so the checks that follow never read the screen before.
  await page.evaluate(
    (to) =>
      new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => done());
        const timer = setTimeout(() => done(), 2_000);
        function done() {
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        }
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }),
    route,
  );
}

const shotName = (route: string) =>
  route
    .replace(/^\/(app\/)?/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '') || 'root';

const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

type Size = (typeof SIZES)[number];

/**
 * Every signed-out screen at `size`, its heading in the language shown (English shots keep their
 * names).
 */
async function tourPublic(page: Page, language: Language, [size, viewport]: Size) {
  const words = publicWords(language);
  const prefix = language === 'en' ? 'tour' : `tour-${language}`;
  await page.setViewportSize(viewport);
  for (const [route, heading] of PUBLIC) {
    await visit(page, route);
    await drawn(page, words(heading));
    await snap(page, `${prefix}-${shotName(route)}-${size}`);
  }
}

/** Every signed-in route at `size`. */
async function tourSignedIn(page: Page, language: Language, [size, viewport]: Size) {
  const prefix = language === 'en' ? 'tour' : `tour-${language}`;
  await page.setViewportSize(viewport);
  for (const route of SIGNED_IN) {
    await visit(page, route);
    await drawn(page);
    const { pathname, search } = new URL(page.url());
    expect(`${pathname}${search}`).toBe(route);
    await snap(page, `${prefix}-${shotName(route)}-${size}`);
  }
}

for (const size of SIZES) {
  test(`every route at ${size[1].width} px`, async () => {
    const { context, page } = await openPage(size[1]);
    await tourPublic(page, 'en', size);
    await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
    await tourSignedIn(page, 'en', size);
    await context.close();
  });
}

// One browser and one sign-in per language, both widths: the public screens at each width,
// then the signed-in ones. The language is the one a merchant picked before (kept in storage).
test.each<Language>(['fr', 'ja'])('every route in %s at 1280 and 375 px', async (language) => {
  const { context, page } = await openPage(DESKTOP);
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [
    STORAGE_KEY,
    language,
  ] as const);
  for (const size of SIZES) await tourPublic(page, language, size);
  await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(language);
  const words = publicWords(language);
  const login: LoginWords = {
    username: words('login.username'),
    password: words('login.password'),
    submit: words('login.submit'),
    code: words('login.mpin.label'),
  };
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin }, login);
  for (const size of SIZES) await tourSignedIn(page, language, size);
  await context.close();
});
