import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { createNavigation } from './navigation';
import { preloadScreen } from './router';
import { makePersistor, makeStore } from './store';
import { prefetchToastify } from '../components/toast';
import { selectIsSignedIn } from './session/sessionSlice';
import { storedLanguage } from '../i18n/i18n';
import { changeLanguage } from '../i18n/language';

/** Builds the store and renders the app into #root (src/main.tsx calls it once). */
export function boot(): void {
  const navigation = createNavigation();
  const store = makeStore({ onSessionEnd: () => navigation.navigate('/') });

  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element.');

  const app = <App store={store} navigation={navigation} Router={BrowserRouter} />;
  // The language chosen in this browser before: its catalogue loads while the session is read.
  const language = storedLanguage();
  const languageReady = language === 'en' ? Promise.resolve() : changeLanguage(language);

  // Nothing renders before the stored session is read (what PersistGate did), so the first render
  // knows who is signed in.
  const render = () => {
    // The build prerendered this public screen as a signed-out visitor sees it without a query
    // (src/prerender.tsx): hydrate it. A stored session redirects from there, and a query can fill
    // the form (/register?u=sponsor), so those screens are drawn afresh.
    const signedIn = selectIsSignedIn(store.getState());
    // The prerendered markup is in English: another language draws the screen afresh.
    const asPrerendered = window.location.search === '' && !signedIn && language === 'en';
    if (container.hasChildNodes() && asPrerendered) {
      // As a transition, hydration yields to the browser every few milliseconds instead of holding
      // the main thread for the whole tree (what Lighthouse counts as blocking time); the markup is
      // on screen already, and an input during hydration still hydrates its part first.
      startTransition(() => {
        hydrateRoot(container, app);
      });
    } else if (signedIn && /^\/app(\/|$)/i.test(window.location.pathname)) {
      // The signed-in screen's chunks are in flight already (the page preloads them): run them
      // before the first render, which then draws the screen without suspending (router.tsx).
      void preloadScreen(store, window.location.pathname).then(() => {
        const root = createRoot(container);
        startTransition(() => {
          root.render(app);
        });
      });
    } else {
      createRoot(container).render(app);
    }
    prefetchToastify();
  };
  // A catalogue that cannot load leaves the portal in English (the picker can try again).
  makePersistor(store, () => void languageReady.catch(() => undefined).then(render));
}
