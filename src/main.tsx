import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { PersistGate } from 'redux-persist/integration/react';
import { ToastContainer } from 'react-toastify';
import { makeRouter } from './app/router';
import { makePersistor, makeStore } from './app/store';
import { TOAST_OPTIONS } from './components/toastOptions';
import './styles/main.scss';

const router = makeRouter();
const store = makeStore({ onSessionEnd: () => void router.navigate('/') });
const persistor = makePersistor(store);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <RouterProvider router={router} />
      </PersistGate>
    </Provider>
    <ToastContainer {...TOAST_OPTIONS} />
  </StrictMode>,
);
