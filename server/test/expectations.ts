import type { LightMyRequestResponse } from 'fastify';
import { addMessageCodes } from '../src/http/messageCodes';

/** The answer is a 422 whose field errors are exactly `errors` (the spec's messages). */
export function expectFieldErrors(
  res: LightMyRequestResponse,
  errors: Record<string, string[]>,
): void {
  expect(res.statusCode).toBe(422);
  expect(res.json().errors).toEqual(errors);
}

/** The answer is a refusal with code `statusCode`: the envelope with `msg` and no field errors. */
export function expectRefusal(res: LightMyRequestResponse, statusCode: number, msg: string): void {
  expect(res.statusCode).toBe(statusCode);
  expect(res.json()).toEqual(coded({ status: false, msg, errors: {} }));
}

/**
 * `body` with the `codes` the server adds to it (http/messageCodes.ts): what an answer with a
 * registered message looks like, for a test that compares a whole answer.
 */
export function coded<T extends object>(body: T): T {
  let out = body;
  addMessageCodes({} as never, {} as never, body, (_error, payload) => {
    out = payload as T;
  });
  return out;
}
