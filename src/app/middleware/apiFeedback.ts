import { createListenerMiddleware, isFulfilled, isRejectedWithValue } from '@reduxjs/toolkit';
import { toast } from 'react-toastify';
import { baseApi } from '../../api/baseApi';
import { isApiError } from '../../api/errors';
import { sessionExpired } from '../../features/auth/sessionSlice';

/** Reads whose failure the screen itself explains (no toast). */
const QUIET_ENDPOINTS = new Set(['checkUsername']);

interface RtkQueryMeta {
  arg?: { type?: 'query' | 'mutation'; endpointName?: string };
}

/**
 * The one place that turns API outcomes into toasts and ends the session (spec 000 section 8):
 * 401 and network failures end the session and go to `/`; failures toast their message;
 * a write's `msg` is a success toast; reads stay quiet on success.
 */
export function apiFeedback({ onSessionEnd }: { onSessionEnd: () => void }) {
  const listener = createListenerMiddleware();

  listener.startListening({
    predicate: (action) => isRejectedWithValue(action),
    effect: (action, { dispatch }) => {
      const error = (action as { payload?: unknown }).payload;
      if (!isApiError(error) || error.kind === 'aborted') return;
      const endpoint = (action.meta as RtkQueryMeta).arg?.endpointName ?? '';
      if (error.kind === 'unauthorized' || error.kind === 'network') {
        toast.error(error.message, { toastId: 'session-end' });
        dispatch(sessionExpired());
        dispatch(baseApi.util.resetApiState());
        onSessionEnd();
        return;
      }
      if (!QUIET_ENDPOINTS.has(endpoint)) toast.error(error.message, { toastId: error.message });
    },
  });

  listener.startListening({
    predicate: (action) => isFulfilled(action),
    effect: (action) => {
      if ((action.meta as RtkQueryMeta).arg?.type !== 'mutation') return;
      const msg = (action as { payload?: { msg?: unknown } }).payload?.msg;
      if (typeof msg === 'string' && msg !== '') toast.success(msg);
    },
  });

  return listener;
}
