// The failure envelope ({ status, msg, errors }) and how its messages are picked.

import { currentLanguage, i18n } from '../i18n/i18n';

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

/**
 * A server message in the language in use: its code's translation (`codes`, the server catalogue
 * loaded with the language), else as the server wrote it.
 */
export function inLanguage(text: string, coded: unknown): string {
  if (currentLanguage() === 'en' || !isRecord(coded) || typeof coded.code !== 'string') return text;
  const id = `server.${coded.code}`;
  if (!(id in i18n.messages)) return text;
  const values = Array.isArray(coded.values) ? { ...coded.values.map(String) } : undefined;
  return i18n._(id, values);
}

const codesOf = (body: Record<string, unknown>) => (isRecord(body.codes) ? body.codes : {});

export function fieldErrorsOf(body: unknown): Record<string, string[]> {
  if (!isRecord(body) || !isRecord(body.errors)) return {};
  const codes = codesOf(body).errors;
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(body.errors)) {
    const coded = isRecord(codes) && Array.isArray(codes[field]) ? (codes[field] as unknown[]) : [];
    const list = (Array.isArray(messages) ? messages : [messages])
      .map((message: unknown, i) =>
        typeof message === 'string' && message !== '' ? inLanguage(message, coded[i]) : '',
      )
      .filter((message) => message !== '');
    if (list.length) result[field] = list;
  }
  return result;
}

/** The answer's `msg`, in the language in use when it has a code. */
export function answerMessage(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.msg !== 'string' || body.msg === '') return undefined;
  return inLanguage(body.msg, codesOf(body).msg);
}

/** First message of the first `errors` entry, else `msg`. */
export function envelopeMessage(body: unknown): string | undefined {
  return Object.values(fieldErrorsOf(body))[0]?.[0] ?? answerMessage(body);
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
