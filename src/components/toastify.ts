// react-toastify's default build injects its CSS as an inline <style> element, which the portal's
// Content-Security-Policy (`style-src 'self'`, server/src/http/web.ts) blocks. Its unstyled build
// with the CSS file, extracted into the lazy "toasts" chunk's stylesheet, is the same library.
import 'react-toastify/ReactToastify.css';
import './toasts.scss';
import { toast, type ToastContainerProps, type ToastOptions } from 'react-toastify/unstyled';

export { ToastContainer } from 'react-toastify/unstyled';

/** Top right under the header, 4000 ms, in the portal's colours (toasts.scss). */
export const TOAST_OPTIONS: ToastContainerProps = {
  position: 'top-right',
  autoClose: 4000,
  theme: 'colored',
  className: 'app-toasts',
};

/**
 * One toast on screen, the latest action's: the one showing leaves at once. (react-toastify's
 * `limit` queues the newcomer until the one on screen times out, so it answered the wrong action.)
 * A message already on screen under the same id stays as it is.
 */
export function showToast(
  kind: 'success' | 'error' | 'info',
  message: string,
  options?: ToastOptions,
): void {
  if (options?.toastId !== undefined && toast.isActive(options.toastId)) return;
  toast.dismiss();
  toast[kind](message, options);
}
