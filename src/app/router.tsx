import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '../components/RouteError';
import { RootRedirect } from '../features/auth/RootRedirect';
import { RequireSession } from '../features/auth/RequireSession';
import { PublicOnly } from '../features/auth/PublicOnly';
import { paths } from './paths';

type PageModule = { default: ComponentType };

/** Route-level code splitting: each screen is its own chunk, loaded on first visit. */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

// Paths match case-insensitively (react-router's default), so /Register and /Reset work as listed.
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        element: <PublicOnly />,
        children: [
          {
            path: paths.login,
            ...page(() => import(/* webpackChunkName: "auth" */ '../features/auth/LoginPage')),
          },
          {
            path: paths.register,
            ...page(() => import(/* webpackChunkName: "auth" */ '../features/auth/RegisterPage')),
          },
          {
            path: paths.reset,
            ...page(
              () => import(/* webpackChunkName: "auth" */ '../features/auth/ResetPasswordPage'),
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

export function makeRouter() {
  return createBrowserRouter(routes);
}
