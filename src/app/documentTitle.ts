import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { paths } from './paths';

const PORTAL = 'CryptoSafeLock Merchant Portal';

/** Each screen's name, as the sidebar or the page's heading calls it. */
const PAGES: Record<string, string> = {
  [paths.login]: 'Sign In',
  [paths.register]: 'Sign Up',
  [paths.reset]: 'Reset Password',
  [paths.dashboard]: 'Home',
  [paths.allApps]: 'All Apps',
  [paths.kyc]: 'Identity Verification',
  [paths.profile]: 'Profile',
  [paths.history]: 'Purchase History',
  [paths.subscriptions]: 'Packages',
  [paths.wallet]: 'Wallet',
  [paths.authentication]: 'Authentication',
  [paths.usages]: 'Usages',
  [paths.support]: 'Support',
  [paths.createApp]: 'Create New App',
  [paths.changePassword]: 'Change Password',
};

/**
 * The tab's title for a path, so a screen reader (and the browser's history) tells the screens
 * apart. Paths match case-insensitively, as the routes do.
 */
export function documentTitle(pathname: string): string {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  if (path === paths.root) return PORTAL;
  const page = PAGES[path] ?? (path.startsWith('/app/my-app/') ? 'App Details' : 'Page Not Found');
  return `${page} | ${PORTAL}`;
}

/** Keeps document.title in step with the route (called once, by the router). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
}
