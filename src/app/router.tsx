import type { ComponentType } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { lazyWithRetry } from '../components/lazyWithRetry';
import { ApiReady } from './ApiReady';
import { RouteErrorBoundary } from '../components/RouteError';
import { RootRedirect } from './session/RootRedirect';
import { RequireSession } from './session/RequireSession';
import { PublicOnly } from './session/PublicOnly';
import { useDocumentTitle } from './documentTitle';
import { paths } from './paths';
import { loadPortalCatalogue } from '../i18n/language';
import type { AppStore } from './store';

type PageModule = { default: ComponentType };

/**
 * Route-level code splitting: each screen is its own chunk, loaded on first visit. Navigations
 * run in a transition, so the previous screen stays until the next one's chunk is in. The
 * declarative router (not the data router) keeps ~16 KiB gzipped off what /login loads.
 */
const page = (
  chunk: string,
  load: () => Promise<PageModule>,
): Pick<RouteObject, 'element' | 'handle'> => {
  const Page = lazyWithRetry(load);
  // The chunk's name (its webpackChunkName) lets the build preload a route's chunks together.
  const handle: RouteChunk = { chunk, preload: Page.preload };
  return { element: <Page />, handle };
};

interface RouteChunk {
  chunk: string;
  /** Loads what the route renders (boot.tsx, before the first render); never fails. */
  preload: (store: AppStore) => Promise<unknown>;
}

// The screens that use RTK Query's hooks render once the API is in the store; the build preloads
// its chunk with theirs.
const apiReady: Pick<RouteObject, 'element' | 'handle'> = {
  element: <ApiReady />,
  handle: {
    chunk: 'api',
    preload: (store) => store.apiLoader.ready().catch(() => undefined),
  } satisfies RouteChunk,
};

// Paths match case-insensitively (react-router's default), so /Register and /Reset work as listed.
export const routes: RouteObject[] = [
  {
    element: <RouteErrorBoundary />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        element: <PublicOnly />,
        children: [
          {
            path: paths.login,
            ...page(
              'login',
              () => import(/* webpackChunkName: "login" */ '../features/auth/LoginPage'),
            ),
          },
          {
            ...apiReady,
            children: [
              {
                path: paths.register,
                ...page(
                  'register',
                  () => import(/* webpackChunkName: "register" */ '../features/auth/RegisterPage'),
                ),
              },
              {
                path: paths.reset,
                ...page(
                  'reset',
                  () =>
                    import(/* webpackChunkName: "reset" */ '../features/auth/ResetPasswordPage'),
                ),
              },
            ],
          },
        ],
      },
      {
        path: '/app',
        element: <RequireSession />,
        children: [
          {
            ...apiReady,
            children: [
              {
                // The signed-in screens' catalogue (and moment's locale) arrive with their layout.
                ...page('layout', () =>
                  Promise.all([
                    import(/* webpackChunkName: "layout" */ '../features/layout/AppLayout'),
                    loadPortalCatalogue(),
                  ]).then(([layout]) => layout),
                ),
                children: [
                  { index: true, element: <Navigate to={paths.dashboard} replace /> },
                  {
                    path: 'dashboard',
                    ...page(
                      'dashboard',
                      () =>
                        import(
                          /* webpackChunkName: "dashboard" */ '../features/dashboard/DashboardPage'
                        ),
                    ),
                  },
                  {
                    path: 'all-app',
                    ...page(
                      'apps',
                      () => import(/* webpackChunkName: "apps" */ '../features/apps/AllAppsPage'),
                    ),
                  },
                  {
                    path: 'kyc',
                    ...page(
                      'kyc',
                      () => import(/* webpackChunkName: "kyc" */ '../features/kyc/KycPage'),
                    ),
                  },
                  {
                    path: 'profile',
                    ...page(
                      'profile',
                      () =>
                        import(/* webpackChunkName: "profile" */ '../features/profile/ProfilePage'),
                    ),
                  },
                  {
                    path: 'history',
                    ...page(
                      'subscriptions',
                      () =>
                        import(
                          /* webpackChunkName: "subscriptions" */ '../features/subscriptions/HistoryPage'
                        ),
                    ),
                  },
                  {
                    path: 'subscriptions',
                    ...page(
                      'subscriptions',
                      () =>
                        import(
                          /* webpackChunkName: "subscriptions" */ '../features/subscriptions/PackagesPage'
                        ),
                    ),
                  },
                  {
                    path: 'wallet',
                    ...page(
                      'wallet',
                      () =>
                        import(/* webpackChunkName: "wallet" */ '../features/wallet/WalletPage'),
                    ),
                  },
                  {
                    path: 'authentication',
                    ...page(
                      'security',
                      () =>
                        import(
                          /* webpackChunkName: "security" */ '../features/security/AuthenticationPage'
                        ),
                    ),
                  },
                  {
                    path: 'changepassword',
                    ...page(
                      'security',
                      () =>
                        import(
                          /* webpackChunkName: "security" */ '../features/security/ChangePasswordPage'
                        ),
                    ),
                  },
                  {
                    path: 'usages',
                    ...page(
                      'support',
                      () =>
                        import(/* webpackChunkName: "support" */ '../features/support/UsagesPage'),
                    ),
                  },
                  {
                    path: 'support',
                    ...page(
                      'support',
                      () =>
                        import(/* webpackChunkName: "support" */ '../features/support/SupportPage'),
                    ),
                  },
                  {
                    path: 'create-app',
                    ...page(
                      'apps',
                      () => import(/* webpackChunkName: "apps" */ '../features/apps/CreateAppPage'),
                    ),
                  },
                  {
                    path: 'my-app/:id/:tab?',
                    ...page(
                      'apps',
                      () => import(/* webpackChunkName: "apps" */ '../features/apps/AppDetailPage'),
                    ),
                  },
                  {
                    path: '*',
                    ...page(
                      'not-found',
                      () =>
                        import(
                          /* webpackChunkName: "not-found" */ '../features/layout/NotFoundPage'
                        ),
                    ),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        path: '*',
        ...page(
          'not-found',
          () => import(/* webpackChunkName: "not-found" */ '../features/layout/NotFoundPage'),
        ),
      },
    ],
  },
];

/** Every screen of the portal, for a BrowserRouter (the app) or a MemoryRouter (tests). */
export function AppRoutes() {
  useDocumentTitle();
  return useRoutes(routes);
}

/**
 * Loads and runs the chunks the screen at `pathname` renders, and the API when it uses it, so
 * that the first render draws it without suspending. A first render that suspended showed a
 * fallback, and React then held the screen back for its reveal throttle (up to 300 ms): the
 * dashboard's first /api call came 10 to 190 ms later at 4× CPU slowdown (Chromium, median 130).
 */
export function preloadScreen(store: AppStore, pathname: string): Promise<unknown> {
  return Promise.all(
    (matchRoutes(routes, pathname) ?? []).map(({ route }) =>
      (route.handle as RouteChunk | undefined)?.preload(store),
    ),
  );
}

/** The named chunks a path's screens need (layout first), for the build's preload hints. */
export function chunksOf(pathname: string): string[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const handle = route.handle as RouteChunk | undefined;
    return handle ? [handle.chunk] : [];
  });
}
