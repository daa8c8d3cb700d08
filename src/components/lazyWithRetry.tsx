import { lazy, useState, type ComponentType } from 'react';

/** A lazily loaded component whose chunk can be loaded ahead of its first render. */
export type Preloadable<P extends object> = ComponentType<P> & {
  /** Loads the chunk; never fails (a failure is met again, and shown, when it renders). */
  preload: () => Promise<void>;
};

/**
 * React.lazy that fetches the chunk again on a later render when it failed to load (offline, a
 * new deploy): React.lazy alone keeps the failure until the page is reloaded. The error still
 * reaches the nearest ErrorBoundary; once that resets, the next render tries again.
 *
 * Once its chunk is in (preload, or an earlier render), a new instance renders the component
 * itself: no suspension, so no fallback and no wait for React's reveal throttle. Each instance
 * keeps the type it first rendered, so it is never remounted (and its state never lost) when the
 * chunk arrives.
 */
export function lazyWithRetry<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  const keep = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const attempt = () =>
    lazy(() =>
      keep().catch((error: unknown) => {
        Current = attempt();
        throw error;
      }),
    );
  let Current = attempt();
  function LazyWithRetry(props: P) {
    const [Page] = useState(() => loaded ?? Current);
    return <Page {...props} />;
  }
  return Object.assign(LazyWithRetry, {
    preload: () =>
      keep().then(
        () => undefined,
        () => undefined,
      ),
  });
}
