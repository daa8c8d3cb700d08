import type { ToastContainerProps } from 'react-toastify';

/** One toast at a time, top right, 4000 ms (spec 000 section 9). */
export const TOAST_OPTIONS: ToastContainerProps = {
  position: 'top-right',
  autoClose: 4000,
  limit: 1,
  newestOnTop: true,
  theme: 'colored',
};
