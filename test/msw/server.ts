import { setupServer } from 'msw/node';
import { fail, ok, on, type OperationId, type ResultOf } from './contract';
import { handlers } from './handlers';

/** One msw server for every Jest test; tests add per-case handlers with server.use(). */
export const server = setupServer(...handlers);

/**
 * For the rest of the test, `operationId` answers `body` and keeps the JSON it was sent:
 * read it as `sent.body` once the request has gone.
 */
export function recordRequest<K extends OperationId>(operationId: K, body: ResultOf<K>) {
  const sent: { body?: unknown } = {};
  server.use(
    on(operationId, async ({ request }) => {
      sent.body = await request.json();
      return ok(operationId, body);
    }),
  );
  return sent;
}

/** For the rest of the test, `operationId` fails with the spec's envelope (see `fail`). */
export function refuse(
  operationId: OperationId,
  status: number,
  msg: string,
  errors?: Record<string, string[]>,
) {
  server.use(on(operationId, () => fail(operationId, status, msg, errors)));
}
