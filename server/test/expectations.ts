import type { LightMyRequestResponse } from 'fastify';

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
  expect(res.json()).toEqual({ status: false, msg, errors: {} });
}
