import { envelope } from '../http/errors';
import type { OperationHandler } from './types';

/** Placeholder for operations nobody has implemented yet: 501 in the envelope. */
export function notImplemented(operationId: string): OperationHandler {
  return async (_request, reply) => {
    reply.code(501);
    return envelope(`Not implemented: ${operationId}`);
  };
}
