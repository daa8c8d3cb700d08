import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { Provider } from 'react-redux';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import * as apiModule from '../src/api/apiModule';
import { createNavigation, NavigationBridge } from '../src/app/navigation';
import { AppRoutes } from '../src/app/router';
import { makeStore, type AppStore, type RootState } from '../src/app/store';
import { Toasts } from '../src/components/Toasts';
import { initialSessionState, type SessionState } from '../src/app/session/sessionSlice';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  session?: Partial<SessionState>;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  route?: string;
}

function storeFor({ session, preloadedState, store }: Options, onSessionEnd?: () => void) {
  if (store) return store;
  const state: Partial<RootState> = { ...preloadedState };
  if (session) {
    state.session = {
      ...initialSessionState,
      ...session,
      _persist: { version: 1, rehydrated: true },
    } as RootState['session'];
  }
  // The API in the store from the start, as it is once its chunk has loaded in the browser.
  return makeStore({ preloadedState: state, onSessionEnd, api: apiModule });
}

/** A component inside the real store (and a memory router), with the toast container. */
export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const store = storeFor(options);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>{children}</MemoryRouter>
      <Toasts autoClose={false} />
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper, ...options }) };
}

/**
 * `page` alone on its route pattern `routePath` (no layout), opened at `options.route`;
 * `location.current` tells where it went (path and query), `user` drives it.
 */
export function renderOnRoute(routePath: string, page: ReactElement, options: Options = {}) {
  const location = { current: '' };
  function Probe() {
    const { pathname, search } = useLocation();
    location.current = `${pathname}${search}`;
    return null;
  }
  const user = userEvent.setup();
  const result = renderWithProviders(
    <Routes>
      <Route
        path={routePath}
        element={
          <>
            {page}
            <Probe />
          </>
        }
      />
      <Route path="*" element={<Probe />} />
    </Routes>,
    options,
  );
  return { user, location, ...result };
}

/**
 * The whole app's routes (guards, lazy pages) in a memory router at `path`; `navigation` tells
 * where the router is and moves it.
 */
export function renderRoute(path: string, options: Options = {}) {
  const navigation = createNavigation();
  const store = storeFor(options, () => navigation.navigate('/'));
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <NavigationBridge navigation={navigation} />
        <AppRoutes />
      </MemoryRouter>
      <Toasts autoClose={false} />
    </Provider>,
  );
  return { store, navigation, ...result };
}

/** A signed-in session as login would leave it. */
export const SIGNED_IN: Partial<SessionState> = {
  name: 'Demo Merchant',
  email: 'demo@example.com',
  username: 'demo',
  currency: 'USD',
  currency_type: '$',
  authToken: 'sess_test',
  auth_type: 'mpin',
};
