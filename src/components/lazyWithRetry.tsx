import { lazy, type ComponentType } from 'react';

/**
 * React.lazy that fetches the chunk again on a later render when it failed to load (offline, a
 * new deploy): React.lazy alone keeps the failure until the page is reloaded. The error still
 * reaches the nearest ErrorBoundary; once that resets, the next render tries again.
 */
export function lazyWithRetry<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const attempt = () =>
    lazy(() =>
      load().catch((error: unknown) => {
        Current = attempt();
        throw error;
      }),
    );
  let Current = attempt();
  return function LazyWithRetry(props: P) {
    return <Current {...props} />;
  };
}
