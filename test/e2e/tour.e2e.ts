import type { Page } from 'playwright-core';
import { paths } from '../../src/app/paths';
import { TABS } from '../../src/features/apps/appRules';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { freshServer } from './server';

// A screenshot tour of every route of the portal, and every tab of an app, at 1280 px and
// 375 px as the demo merchant sees them: each screen fits its width, shows all the text of its
// tables, and passes axe (snap). The PNGs are kept under test-results/ as artefacts. Other
// journeys snap the same screens mid-action (modals, toasts, forms filled); this one is the
// list to check when a route is added.

jest.setTimeout(240_000);

freshServer();
freshBrowser();

const DEMO_APP = 'app_demo_store';

/** The signed-out screens, each with the heading that says it is drawn. */
const PUBLIC: readonly (readonly [string, string])[] = [
  [paths.login, 'Sign In'],
  [paths.register, 'Sign Up'],
  [paths.reset, 'Reset Password'],
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

const shotName = (route: string) =>
  route
    .replace(/^\/(app\/)?/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '') || 'root';

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`every route at ${viewport.width} px`, async () => {
    const { context, page } = await openPage(viewport);
    for (const [route, heading] of PUBLIC) {
      await page.goto(route);
      await drawn(page, heading);
      await snap(page, `tour-${shotName(route)}-${size}`);
    }
    await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
    for (const route of SIGNED_IN) {
      await page.goto(route);
      const { pathname, search } = new URL(page.url());
      expect(`${pathname}${search}`).toBe(route);
      await drawn(page);
      await snap(page, `tour-${shotName(route)}-${size}`);
    }
    await context.close();
  });
}
