import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from './ErrorBoundary';

/** The error screen: the spec titles it 'Unexpected Application Error!'. */
export function RouteError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <main className="container py-5" role="alert">
      <h2>Unexpected Application Error!</h2>
      <pre className="text-danger text-wrap">{message}</pre>
      <a className="btn btn-primary" href="/">
        Reload
      </a>
    </main>
  );
}

/**
 * The root route's element: a screen that throws while rendering, or whose chunk fails to load
 * (the message names the chunk), shows RouteError. Moving to another path renders that path;
 * coming back fetches a failed chunk again (lazyWithRetry), and Reload starts afresh.
 */
export function RouteErrorBoundary() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} fallback={(error) => <RouteError error={error} />}>
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}
