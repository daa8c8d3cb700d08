import { combineReducers, configureStore, isPlain } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  persistStore,
  PURGE,
  REGISTER,
  REHYDRATE,
} from 'redux-persist';
import { baseApi } from '../api/baseApi';
import { sessionReducer, type SessionState } from '../features/auth/sessionSlice';
import { signInReducer } from '../features/auth/signInSlice';
import { apiFeedback } from './middleware/apiFeedback';
import { sealedStorage } from './sealedStorage';

const persistedSession = persistReducer<SessionState>(
  // authToken is sealed at rest by the storage; every other session value is stored as it is.
  // No time-out: reading may wait for the cipher chunk (up to its 120 s load time-out), and
  // starting signed out after redux-persist's default 5 s would sign a slow visitor out.
  { key: 'session', version: 1, storage: sealedStorage, timeout: 0 },
  sessionReducer,
);

const rootReducer = combineReducers({
  session: persistedSession,
  signIn: signInReducer,
  [baseApi.reducerPath]: baseApi.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /** Where the browser goes when the session ends (401 or network failure): the spec says `/`. */
  onSessionEnd?: () => void;
}

export function makeStore({ preloadedState, onSessionEnd = () => undefined }: StoreOptions = {}) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) =>
      getDefault({
        serializableCheck: {
          ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER],
          // getImage answers image bytes as Blobs (immutable), cached like any other answer; only
          // the session slice is persisted, so they never reach storage.
          isSerializable: (value: unknown) => isPlain(value) || value instanceof Blob,
        },
      })
        .prepend(apiFeedback({ onSessionEnd }))
        .concat(baseApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

/** Starts reading the stored session; `onRehydrated` runs once it is in the store. */
export function makePersistor(store: AppStore, onRehydrated?: () => void) {
  return persistStore(store, undefined, onRehydrated);
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
