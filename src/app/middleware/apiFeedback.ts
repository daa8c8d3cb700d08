import { isFulfilled, isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';
import { baseApi } from '../../api/baseApi';
import { isApiError } from '../../api/errors';
import { toast } from '../../components/toast';
import { sessionExpired } from '../../features/auth/sessionSlice';

/** Reads whose failure the screen itself explains (no toast). */
const QUIET_ENDPOINTS = new Set(['checkUsername']);

interface RtkQueryMeta {
  arg?: { type?: 'query' | 'mutation'; endpointName?: string };
}

/**
 * The one place that turns API outcomes into toasts and ends the session (spec 000 section 8):
 * 401 and network failures end the session and go to `/`; failures toast their message;
 * a write's `msg` is a success toast; reads stay quiet on success. A plain middleware: the
 * listener middleware would add ~2 KiB to what /login loads for two `if`s.
 */
export function apiFeedback({ onSessionEnd }: { onSessionEnd: () => void }): Middleware {
  return ({ dispatch }) =>
    (next) =>
    (action) => {
      const result = next(action);
      if (isRejectedWithValue(action)) {
        const error = action.payload;
        if (!isApiError(error) || error.kind === 'aborted') return result;
        const endpoint = (action.meta as RtkQueryMeta).arg?.endpointName ?? '';
        if (error.kind === 'unauthorized' || error.kind === 'network') {
          toast.error(error.message, { toastId: 'session-end' });
          dispatch(sessionExpired());
          dispatch(baseApi.util.resetApiState());
          onSessionEnd();
        } else if (!QUIET_ENDPOINTS.has(endpoint)) {
          toast.error(error.message, { toastId: error.message });
        }
      } else if (isFulfilled(action) && (action.meta as RtkQueryMeta).arg?.type === 'mutation') {
        const msg = (action.payload as { msg?: unknown } | undefined)?.msg;
        if (typeof msg === 'string' && msg !== '') toast.success(msg);
      }
      return result;
    };
}
