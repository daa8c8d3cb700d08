import type { ReactNode } from 'react';

type ReactDomServer = typeof import('react-dom/server');
let reactDomServer: ReactDomServer | undefined;

/**
 * react-dom's renderToStaticMarkup, loaded at the first shopper's page drawn (2.7 MB of source
 * in its development build): a process that draws none never loads it, and most server test
 * files build apps without drawing one.
 */
export function renderToStaticMarkup(node: ReactNode): string {
  // A page is drawn synchronously, so the module is required, once, rather than imported.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  reactDomServer ??= require('react-dom/server') as ReactDomServer;
  return reactDomServer.renderToStaticMarkup(node);
}
