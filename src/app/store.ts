import {
  combineSlices,
  configureStore,
  createAction,
  createDynamicMiddleware,
  isPlain,
  type WithSlice,
} from '@reduxjs/toolkit';
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
import type * as ApiModule from '../api/apiModule';
import { sessionReducer, type SessionState } from './session/sessionSlice';
import { signInReducer } from './session/signInSlice';
import { apiFeedback } from './middleware/apiFeedback';
import { sealedStorage } from './sealedStorage';

type BaseApi = typeof ApiModule.baseApi;

const apiAttached = createAction('store/apiAttached');

const persistedSession = persistReducer<SessionState>(
  // authToken is sealed at rest by the storage; every other session value is stored as it is.
  // No time-out: reading may wait for the cipher chunk (up to its 120 s load time-out), and
  // starting signed out after redux-persist's default 5 s would sign a slow visitor out.
  { key: 'session', version: 1, storage: sealedStorage, timeout: 0 },
  sessionReducer,
);

// RTK Query (~15 KiB gzipped) is not part of what /login loads: the API's reducer and middleware
// join the store when its chunk has loaded (ApiReady, or the sign-in form's first request).
const rootReducer = combineSlices({
  session: persistedSession,
  signIn: signInReducer,
}).withLazyLoadedSlices<WithSlice<BaseApi>>();

export type RootState = ReturnType<typeof rootReducer>;

/** `store.apiLoader`: `ready()` loads the API once and adds it to this store. */
export interface ApiLoader {
  ready: () => Promise<void>;
  /** The API once it is in this store (from the start when `makeStore` was given it). */
  readonly api: BaseApi | undefined;
}

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /** Where the browser goes when the session ends (401 or network failure): the spec says `/`. */
  onSessionEnd?: () => void;
  /** The API, already loaded (tests, which import it anyway): in the store from the start. */
  api?: typeof ApiModule;
}

export function makeStore({
  preloadedState,
  onSessionEnd = () => undefined,
  api,
}: StoreOptions = {}) {
  const apiMiddleware = createDynamicMiddleware();
  let attached: BaseApi | undefined;
  let loading: Promise<void> | undefined;
  const attach = ({ baseApi, setupListeners }: typeof ApiModule) => {
    if (attached) return;
    rootReducer.inject(baseApi);
    apiMiddleware.addMiddleware(baseApi.middleware);
    setupListeners(store.dispatch);
    attached = baseApi;
    // The state has the API's slice from the next action on: give it one now, before any hook
    // reads the slice.
    store.dispatch(apiAttached());
  };
  const apiLoader: ApiLoader = {
    ready: () =>
      // Prefetched at start-up (idle priority): a screen or the sign-in form needs it next.
      (loading ??= import(
        /* webpackChunkName: "api", webpackPrefetch: true */ '../api/apiModule'
      ).then(attach, (error: unknown) => {
        // Offline or a new deploy: the next request tries again.
        loading = undefined;
        throw error;
      })),
    get api() {
      return attached;
    },
  };
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
        .prepend(apiFeedback({ onSessionEnd, api: () => attached }))
        .concat(apiMiddleware.middleware),
  });
  if (api) {
    attach(api);
    loading = Promise.resolve();
  }
  return Object.assign(store, { apiLoader });
}

/** Starts reading the stored session; `onRehydrated` runs once it is in the store. */
export function makePersistor(store: AppStore, onRehydrated?: () => void) {
  return persistStore(store, undefined, onRehydrated);
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
