import { Component, Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';

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

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

interface BoundaryState {
  pathname: string;
  error?: unknown;
  failed: boolean;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { pathname: this.props.pathname, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  // Moving to another path clears the error and renders that path's screen.
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.pathname === state.pathname ? null : { pathname: props.pathname, failed: false };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/**
 * The root route's element: a screen that throws while rendering, or whose chunk fails to load
 * (the message names the chunk), shows RouteError; moving to another path tries again.
 */
export function RouteErrorBoundary() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary pathname={pathname}>
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}
