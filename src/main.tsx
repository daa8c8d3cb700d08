import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { PersistGate } from 'redux-persist/integration/react';
import { createNavigation, NavigationBridge } from './app/navigation';
import { AppRoutes } from './app/router';
import { makePersistor, makeStore } from './app/store';
import { prefetchToastify } from './components/toast';
import { Toasts } from './components/Toasts';
import './styles/main.scss';

const navigation = createNavigation();
const store = makeStore({ onSessionEnd: () => navigation.navigate('/') });
const persistor = makePersistor(store);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <BrowserRouter>
          <NavigationBridge navigation={navigation} />
          <AppRoutes />
        </BrowserRouter>
      </PersistGate>
    </Provider>
    <Toasts />
  </StrictMode>,
);
prefetchToastify();
