// The failure envelope ({ status, msg, errors }) and how its messages are picked.

export type ApiErrorKind = 'offline' | 'network' | 'unauthorized' | 'aborted' | 'failure';

export interface ApiError {
  kind: ApiErrorKind;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  /** What the user is shown. */
  message: string;
  /** Field name -> messages, from the envelope's `errors`. */
  fieldErrors: Record<string, string[]>;
}

export const OFFLINE_MESSAGE = 'You are offline. Please check your connection.';
export const NETWORK_ERROR_MESSAGE = 'Network Error';
export const PAGE_FAILED_MESSAGE = 'Request failed please try again';

/** 0 or false mean failure. */
export function isFailureStatus(status: unknown): boolean {
  return status === 0 || status === false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fieldErrorsOf(body: unknown): Record<string, string[]> {
  if (!isRecord(body) || !isRecord(body.errors)) return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(body.errors)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string' && message !== '',
    );
    if (list.length) result[field] = list;
  }
  return result;
}

/** First message of the first `errors` entry, else `msg`. */
export function envelopeMessage(body: unknown): string | undefined {
  const first = Object.values(fieldErrorsOf(body))[0]?.[0];
  if (first) return first;
  if (isRecord(body) && typeof body.msg === 'string' && body.msg !== '') return body.msg;
  return undefined;
}

export function failure(status: number, body: unknown, fallback: string): ApiError {
  return {
    kind: 'failure',
    status,
    message: envelopeMessage(body) ?? fallback,
    fieldErrors: fieldErrorsOf(body),
  };
}

export function isApiError(value: unknown): value is ApiError {
  return isRecord(value) && typeof value.kind === 'string' && typeof value.message === 'string';
}
