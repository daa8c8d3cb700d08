import type { ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { lazyWithRetry } from '../components/lazyWithRetry';
import { RouteErrorBoundary } from '../components/RouteError';
import { RootRedirect } from '../features/auth/RootRedirect';
import { RequireSession } from '../features/auth/RequireSession';
import { PublicOnly } from '../features/auth/PublicOnly';
import { useDocumentTitle } from './documentTitle';
import { paths } from './paths';

type PageModule = { default: ComponentType };

/**
 * Route-level code splitting: each screen is its own chunk, loaded on first visit. Navigations
 * run in a transition, so the previous screen stays until the next one's chunk is in. The
 * declarative router (not the data router) keeps ~16 KiB gzipped off what /login loads.
 */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'element'> => {
  const Page = lazyWithRetry(load);
  return { element: <Page /> };
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
            ...page(() => import(/* webpackChunkName: "login" */ '../features/auth/LoginPage')),
          },
          {
            path: paths.register,
            ...page(
              () => import(/* webpackChunkName: "register" */ '../features/auth/RegisterPage'),
            ),
          },
          {
            path: paths.reset,
            ...page(
              () => import(/* webpackChunkName: "reset" */ '../features/auth/ResetPasswordPage'),
            ),
          },
        ],
      },
      {
        path: '/app',
        element: <RequireSession />,
        children: [
          {
            ...page(() => import(/* webpackChunkName: "layout" */ '../features/layout/AppLayout')),
            children: [
              { index: true, element: <Navigate to={paths.dashboard} replace /> },
              {
                path: 'dashboard',
                ...page(
                  () =>
                    import(
                      /* webpackChunkName: "dashboard" */ '../features/dashboard/DashboardPage'
                    ),
                ),
              },
              {
                path: 'all-app',
                ...page(
                  () => import(/* webpackChunkName: "apps" */ '../features/apps/AllAppsPage'),
                ),
              },
              {
                path: 'kyc',
                ...page(() => import(/* webpackChunkName: "kyc" */ '../features/kyc/KycPage')),
              },
              {
                path: 'profile',
                ...page(
                  () => import(/* webpackChunkName: "profile" */ '../features/profile/ProfilePage'),
                ),
              },
              {
                path: 'history',
                ...page(
                  () =>
                    import(
                      /* webpackChunkName: "subscriptions" */ '../features/subscriptions/HistoryPage'
                    ),
                ),
              },
              {
                path: 'subscriptions',
                ...page(
                  () =>
                    import(
                      /* webpackChunkName: "subscriptions" */ '../features/subscriptions/PackagesPage'
                    ),
                ),
              },
              {
                path: 'wallet',
                ...page(
                  () => import(/* webpackChunkName: "wallet" */ '../features/wallet/WalletPage'),
                ),
              },
              {
                path: 'authentication',
                ...page(
                  () =>
                    import(
                      /* webpackChunkName: "security" */ '../features/security/AuthenticationPage'
                    ),
                ),
              },
              {
                path: 'changepassword',
                ...page(
                  () =>
                    import(
                      /* webpackChunkName: "security" */ '../features/security/ChangePasswordPage'
                    ),
                ),
              },
              {
                path: 'usages',
                ...page(
                  () => import(/* webpackChunkName: "support" */ '../features/support/UsagesPage'),
                ),
              },
              {
                path: 'support',
                ...page(
                  () => import(/* webpackChunkName: "support" */ '../features/support/SupportPage'),
                ),
              },
              {
                path: 'create-app',
                ...page(
                  () => import(/* webpackChunkName: "apps" */ '../features/apps/CreateAppPage'),
                ),
              },
              {
                path: 'my-app/:id/:tab?',
                ...page(
                  () => import(/* webpackChunkName: "apps" */ '../features/apps/AppDetailPage'),
                ),
              },
              {
                path: '*',
                ...page(
                  () =>
                    import(/* webpackChunkName: "not-found" */ '../features/layout/NotFoundPage'),
                ),
              },
            ],
          },
        ],
      },
      {
        path: '*',
        ...page(
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
