import type { ToastOptions } from 'react-toastify';

type Toastify = typeof import('./toastify');
type Kind = 'success' | 'error' | 'info';

/**
 * react-toastify (~10 KiB gzipped with its styles) is fetched on the first toast, not with /login.
 * Until a container is mounted for good (<Toasts> says so), toasts wait here: react-toastify's
 * own queue loses them when StrictMode mounts the container twice. A chunk that fails to load
 * drops the waiting toasts and is fetched again by the next one.
 */
let library: Promise<Toastify> | null = null;
let loaded: Toastify | null = null;
let mountedContainers = 0;
const waiting: (() => void)[] = [];
const subscribers = new Set<() => void>();

export function loadToastify(): Promise<Toastify> {
  library ??= import(/* webpackChunkName: "toasts" */ './toastify').then(
    (module) => {
      loaded = module;
      subscribers.forEach((notify) => notify());
      return module;
    },
    (error: unknown) => {
      library = null;
      waiting.length = 0;
      throw error;
    },
  );
  return library;
}

/** Fetches the toast chunk once the first screen is idle, so an offline failure has its toast. */
export function prefetchToastify(): void {
  const load = () => void loadToastify().catch(() => undefined);
  // Safari has no requestIdleCallback.
  (window.requestIdleCallback ?? setTimeout)(load);
}

/** The library once loaded, else null (for useSyncExternalStore). */
export const loadedToastify = (): Toastify | null => loaded;

export function onToastifyLoaded(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

/** <Toasts> reports its container mounted (true) or gone (false); mounting shows what waited. */
export function containerMounted(mounted: boolean): void {
  mountedContainers += mounted ? 1 : -1;
  if (mountedContainers > 0) waiting.splice(0).forEach((raise) => raise());
}

function show(kind: Kind, message: string, options?: ToastOptions): void {
  const raise = () => loaded?.showToast(kind, message, options);
  if (loaded && mountedContainers > 0) {
    raise();
    return;
  }
  waiting.push(raise);
  // Offline or a new deploy: the message has nowhere to go; the next toast tries again.
  loadToastify().catch(() => undefined);
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};
