import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * Lets code outside React (the store's session-end rule) move the router, and lets tests read
 * where it is. <NavigationBridge> connects it from inside the router.
 */
export interface Navigation {
  navigate: (to: string) => void;
  readonly pathname: string;
  connect: (navigate: (to: string) => void, pathname: string) => void;
}

export function createNavigation(): Navigation {
  let go: (to: string) => void = () => undefined;
  let at = '';
  return {
    navigate: (to) => go(to),
    get pathname() {
      return at;
    },
    connect: (navigate, pathname) => {
      go = navigate;
      at = pathname;
    },
  };
}

export function NavigationBridge({ navigation }: { navigation: Navigation }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(
    () => navigation.connect((to) => void navigate(to), pathname),
    [navigation, navigate, pathname],
  );
  return null;
}
