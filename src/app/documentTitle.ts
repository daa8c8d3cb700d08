import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { paths } from './paths';
import { t, useT, type MessageKey, type Translate } from '../i18n/i18n';

/**
 * Each screen's name, as the sidebar or the page's heading calls it. The signed-in screens' names
 * are in their own catalogue, which their layout loads.
 */
const PAGES: Record<string, MessageKey> = {
  [paths.login]: 'title.login',
  [paths.register]: 'title.register',
  [paths.reset]: 'title.reset',
  [paths.dashboard]: 'title.dashboard',
  [paths.allApps]: 'title.allApps',
  [paths.kyc]: 'title.kyc',
  [paths.profile]: 'title.profile',
  [paths.history]: 'title.history',
  [paths.subscriptions]: 'title.subscriptions',
  [paths.wallet]: 'title.wallet',
  [paths.authentication]: 'title.authentication',
  [paths.usages]: 'title.usages',
  [paths.support]: 'title.support',
  [paths.createApp]: 'title.createApp',
  [paths.changePassword]: 'title.changePassword',
};

/**
 * The tab's title for a path, so a screen reader (and the browser's history) tells the screens
 * apart. Paths match case-insensitively, as the routes do.
 */
export function documentTitle(pathname: string, translate: Translate = t): string {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  const portal = translate('title.portal');
  if (path === paths.root) return portal;
  const page =
    PAGES[path] ?? (path.startsWith('/app/my-app/') ? 'title.appDetails' : 'title.notFound');
  return `${translate(page)} | ${portal}`;
}

/** Keeps document.title in step with the route (called once, by the router). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const translate = useT();
  useEffect(() => {
    document.title = documentTitle(pathname, translate);
  }, [pathname, translate]);
}
