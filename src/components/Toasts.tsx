import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ToastContainerProps } from 'react-toastify';
import { loadToastify, onToastsRequested, toastsRequested } from './toast';
import { TOAST_OPTIONS } from './toastOptions';

const ToastContainer = lazy(() =>
  loadToastify().then(({ ToastContainer: Container }) => ({ default: Container })),
);

/** The toast container, mounted once the first toast is asked for (see ./toast). */
export function Toasts(props: ToastContainerProps) {
  const requested = useSyncExternalStore(onToastsRequested, toastsRequested, toastsRequested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer {...TOAST_OPTIONS} {...props} />
    </Suspense>
  );
}
