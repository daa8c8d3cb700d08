import { useEffect, useSyncExternalStore } from 'react';
import type { ToastContainerProps } from 'react-toastify';
import { containerMounted, loadedToastify, onToastifyLoaded } from './toast';
import { useT } from '../i18n/i18n';

// A prerendered screen has no container: hydration starts from none, loaded or not.
const noContainer = () => null;

/** The toast container, rendered once react-toastify has loaded (on the first toast, ./toast). */
export function Toasts(props: ToastContainerProps) {
  const library = useSyncExternalStore(onToastifyLoaded, loadedToastify, noContainer);
  const t = useT();

  useEffect(() => {
    if (!library) return;
    // Reported a tick later, so StrictMode's unmount and remount of the container come first.
    let reported = false;
    const timer = setTimeout(() => {
      reported = true;
      containerMounted(true);
    });
    return () => {
      clearTimeout(timer);
      if (reported) containerMounted(false);
    };
  }, [library]);

  if (!library) return null;
  const { ToastContainer, TOAST_OPTIONS } = library;
  return <ToastContainer {...TOAST_OPTIONS} aria-label={t('toasts.region')} {...props} />;
}
