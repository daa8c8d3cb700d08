import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { App } from './app/App';
import { createNavigation } from './app/navigation';
import { paths } from './app/paths';
import { makeStore } from './app/store';

/**
 * The build's server entry (webpack.config.ts, PrerenderPlugin): it renders the public screens
 * as a signed-out visitor first sees them, into the HTML the server sends for their paths, so
 * the sign-in form paints before any script runs; src/app/boot.tsx then hydrates it.
 */
export const PRERENDERED = [paths.login, paths.register, paths.reset];

/** Signed-in screens with a fixed path: their HTML only preloads their chunks. */
export const PRELOADED = Object.values(paths).flatMap((path) =>
  typeof path === 'string' && path.startsWith('/app/') ? [path] : [],
);

export { chunksOf } from './app/router';

/** The markup of #root for `path`, once every lazy screen on it has loaded. */
export async function renderScreen(path: string): Promise<string> {
  const store = makeStore();
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path}>{children}</StaticRouter>
  );
  const { prelude } = await prerender(
    <App store={store} navigation={createNavigation()} Router={Router} />,
  );
  return new Response(prelude).text();
}
