import type { ToastOptions } from 'react-toastify';

type Toastify = typeof import('react-toastify');
type Kind = 'success' | 'error' | 'info';

/**
 * react-toastify (~10 KiB gzipped with its styles) is fetched on the first toast, not with /login.
 * Toasts raised before its container mounts wait in react-toastify's own queue.
 */
let library: Promise<Toastify> | null = null;
let loaded: Toastify | null = null;
const subscribers = new Set<() => void>();

export function loadToastify(): Promise<Toastify> {
  if (!library) {
    library = import(/* webpackChunkName: "toasts" */ 'react-toastify').then((module) => {
      loaded = module;
      return module;
    });
    subscribers.forEach((notify) => notify());
  }
  return library;
}

/** Whether any toast has been asked for yet (the container mounts from then on). */
export function toastsRequested(): boolean {
  return library !== null;
}

export function onToastsRequested(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

function show(kind: Kind, message: string, options?: ToastOptions): void {
  // Once loaded, toasts show synchronously, as with a static import.
  if (loaded) loaded.toast[kind](message, options);
  else void loadToastify().then(({ toast: lib }) => lib[kind](message, options));
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};
