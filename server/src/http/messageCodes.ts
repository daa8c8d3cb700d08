import type { FastifyReply, FastifyRequest } from 'fastify';
import { codeOf, type Coded } from '../domain/messageCodes';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A preSerialization hook: an answer's `msg` and field messages (`errors`) get their codes in
 * `codes`, when they have one.
 */
export function addMessageCodes(
  _request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  if (!isRecord(payload) || typeof payload.msg !== 'string' || 'codes' in payload) {
    done(null, payload);
    return;
  }
  const msg = codeOf(payload.msg);
  const errors: Record<string, (Coded | null)[]> = {};
  if (isRecord(payload.errors)) {
    for (const [field, messages] of Object.entries(payload.errors)) {
      if (!Array.isArray(messages)) continue;
      const coded = messages.map((m) => (typeof m === 'string' ? (codeOf(m) ?? null) : null));
      if (coded.some((c) => c !== null)) errors[field] = coded;
    }
  }
  const hasErrors = Object.keys(errors).length > 0;
  if (!msg && !hasErrors) {
    done(null, payload);
    return;
  }
  done(null, { ...payload, codes: { ...(msg ? { msg } : {}), ...(hasErrors ? { errors } : {}) } });
}
