import { isFulfilled, isRejected, isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';
import { answerMessage, isApiError } from '../../api/errors';
import { toast } from '../../components/toast';
import { sessionExpired } from '../session/sessionSlice';
import type { baseApi } from '../../api/baseApi';

/** Reads whose failure the screen itself explains (no toast). */
const QUIET_ENDPOINTS = new Set(['checkUsername']);
/**
 * Writes whose screen shows the outcome itself, so no success toast: an answer that can say the
 * action did not succeed ("Test event not delivered …", in DeliveryOutcome's colour), the
 * Test mode switch, whose banner says the mode in the chosen language, and the settings panel's
 * Download, whose toast says it in the chosen language.
 */
const OUTCOME_ON_SCREEN = new Set([
  'sendTestWebhook',
  'redeliverWebhook',
  'openTestMode',
  'requestAccountArchive',
]);

interface RtkQueryMeta {
  requestId?: string;
  arg?: { type?: 'query' | 'mutation'; endpointName?: string };
}

/** Requests whose failure the screen explains in its own words (a page change). */
const explainedByScreen = new Set<string>();

/**
 * Marks one request (what a lazy query trigger returns) as explained by the screen: its failure
 * gets no error toast from here. A 401 or a network failure still ends the session.
 */
export function explainsOwnFailure<Request extends PromiseLike<unknown> & { requestId: string }>(
  request: Request,
): Request {
  const { requestId } = request;
  explainedByScreen.add(requestId);
  // A request refused before it started (a cached page) settles without passing through here.
  const forget = () => void explainedByScreen.delete(requestId);
  request.then(forget, forget);
  return request;
}

/**
 * The one place that turns API outcomes into toasts and ends the session:
 * 401 and network failures end the session and go to `/`; failures toast their message;
 * a write's `msg` is a success toast (but for OUTCOME_ON_SCREEN); reads stay quiet on success.
 * A plain middleware: the listener middleware would add ~2 KiB to what /login loads for two
 * `if`s.
 */
export function apiFeedback({
  onSessionEnd,
  api,
}: {
  onSessionEnd: () => void;
  /** The API once it is in the store: imported here, it would load with /login. */
  api: () => typeof baseApi | undefined;
}): Middleware {
  return ({ dispatch }) =>
    (next) =>
    (action) => {
      const result = next(action);
      if (!isFulfilled(action) && !isRejected(action)) return result;
      const meta = action.meta as RtkQueryMeta;
      const explained = explainedByScreen.delete(meta.requestId ?? '');
      if (isRejectedWithValue(action)) {
        const error = action.payload;
        if (!isApiError(error) || error.kind === 'aborted') return result;
        if (error.kind === 'unauthorized' || error.kind === 'network') {
          toast.error(error.message, { toastId: 'session-end' });
          dispatch(sessionExpired());
          const loaded = api();
          if (loaded) dispatch(loaded.util.resetApiState());
          onSessionEnd();
        } else if (
          // Offline is said whatever the screen says of its own failures: only it says why.
          error.kind === 'offline' ||
          (!QUIET_ENDPOINTS.has(meta.arg?.endpointName ?? '') && !explained)
        ) {
          toast.error(error.message, { toastId: error.message });
        }
      } else if (
        isFulfilled(action) &&
        meta.arg?.type === 'mutation' &&
        !OUTCOME_ON_SCREEN.has(meta.arg.endpointName ?? '')
      ) {
        const msg = answerMessage(action.payload);
        if (msg !== undefined) toast.success(msg);
      }
      return result;
    };
}
