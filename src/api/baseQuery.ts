import { fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';
import {
  failure,
  isFailureStatus,
  NETWORK_ERROR_MESSAGE,
  OFFLINE_MESSAGE,
  type ApiError,
  type ApiErrorKind,
} from './errors';
import { SESSION_EXPIRED_MESSAGE } from '../shared/auth';

declare const __API_BASE__: string | undefined;

/** Build-time API base (webpack DefinePlugin), same-origin `/api` by default. */
export function apiBase(): string {
  const configured = typeof __API_BASE__ === 'string' ? __API_BASE__ : '/api';
  // Absolute, so that Request works under Jest too (a relative URL has no base there).
  return new URL(configured, window.location.origin).toString().replace(/\/$/, '');
}

interface TokenState {
  session: { authToken: string };
  signIn: { stepToken: string };
}

export function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

/** JSON for JSON answers, a Blob for images (getImage), text for anything else. */
async function responseHandler(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return response.status === 204 ? null : response.json();
  if (type.startsWith('image/')) return response.blob();
  return response.text();
}

/**
 * The generated multipart operations pass a plain object whose file fields are Blobs: send those
 * as multipart/form-data (the browser sets the boundary), everything else as JSON.
 */
export function toFormDataIfFiles(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || body instanceof FormData) return body;
  const entries = Object.entries(body as Record<string, unknown>);
  if (!entries.some(([, value]) => value instanceof Blob)) return body;
  const form = new FormData();
  for (const [key, value] of entries) {
    if (value === undefined || value === null) continue;
    form.append(key, value instanceof Blob ? value : String(value));
  }
  return form;
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '',
  credentials: 'include',
  responseHandler,
  prepareHeaders: (headers, { getState, endpoint }) => {
    const state = getState() as TokenState;
    // `login` is the one operation secured by the step token (openapi.yaml: stepToken).
    const token = endpoint === 'login' ? state.signIn.stepToken : state.session.authToken;
    if (token) headers.set('authorization', `Bearer ${token}`);
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
    return headers;
  },
});

/** JSON POSTs in flight, by path: a newer call with the same path key aborts the older one. */
const inFlight = new Map<string, AbortController>();

function pathKey(url: string): string {
  return url.split('?')[0] ?? url;
}

const isOffline = () => navigator.onLine === false;
/** A failure without an envelope to read. */
const failed = (kind: ApiErrorKind, message: string, status = 0) => ({
  error: { kind, status, message, fieldErrors: {} },
});

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (
  args,
  api,
  extraOptions,
) => {
  if (isOffline()) return failed('offline', OFFLINE_MESSAGE);
  const request: FetchArgs = typeof args === 'string' ? { url: args } : { ...args };
  request.url = `${apiBase()}${request.url}`;
  request.body = toFormDataIfFiles(request.body);

  const isJsonPost =
    (request.method ?? 'GET').toUpperCase() === 'POST' && !(request.body instanceof FormData);
  const key = pathKey(request.url);
  const controller = new AbortController();
  const forward = () => controller.abort();
  api.signal.addEventListener('abort', forward);
  if (isJsonPost) {
    inFlight.get(key)?.abort();
    inFlight.set(key, controller);
  }

  try {
    const result = await rawBaseQuery(request, { ...api, signal: controller.signal }, extraOptions);
    if (controller.signal.aborted) return failed('aborted', 'Request aborted');
    if (result.error) {
      const { status } = result.error;
      if (status === 401) return failed('unauthorized', SESSION_EXPIRED_MESSAGE, status);
      if (status === 'FETCH_ERROR') {
        // The connection dropped while the request was under way: offline, not a session end.
        return isOffline()
          ? failed('offline', OFFLINE_MESSAGE)
          : failed('network', NETWORK_ERROR_MESSAGE);
      }
      if (typeof status === 'number') {
        return {
          error: failure(status, result.error.data, `Request failed with status code ${status}`),
        };
      }
      return { error: failure(0, undefined, result.error.error) };
    }
    const body = result.data as { status?: unknown } | undefined;
    if (body && isFailureStatus(body.status)) {
      return { error: failure(result.meta?.response?.status ?? 200, body, 'Request failed') };
    }
    return { data: result.data, meta: result.meta };
  } catch (error) {
    return failed('failure', error instanceof Error ? error.message : String(error));
  } finally {
    api.signal.removeEventListener('abort', forward);
    if (inFlight.get(key) === controller) inFlight.delete(key);
  }
};
