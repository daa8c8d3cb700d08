import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Toasts } from '../components/Toasts';
import { NavigationBridge, type Navigation } from './navigation';
import { AppRoutes } from './router';
import type { AppStore } from './store';

interface AppProps {
  store: AppStore;
  navigation: Navigation;
  /** BrowserRouter in the browser, a StaticRouter when the build prerenders a public screen. */
  Router: ComponentType<{ children: ReactNode }>;
}

/** The whole tree, the same for the browser and the build's prerender, so hydration matches. */
export function App({ store, navigation, Router }: AppProps) {
  return (
    <StrictMode>
      <Provider store={store}>
        <Router>
          <NavigationBridge navigation={navigation} />
          <AppRoutes />
        </Router>
      </Provider>
      <Toasts />
    </StrictMode>
  );
}
