import type { ToastContainerProps } from 'react-toastify';

/** One toast at a time, top right, shown for 4000 ms. */
export const TOAST_OPTIONS: ToastContainerProps = {
  position: 'top-right',
  autoClose: 4000,
  limit: 1,
  newestOnTop: true,
  theme: 'colored',
};
