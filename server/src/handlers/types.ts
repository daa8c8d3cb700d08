import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { AppContext } from '../context';

export type { AppContext };

/**
 * One operation of openapi.yaml. `T` types what glue has already validated, e.g.
 * `OperationHandler<{ Body: RegisterBody; Params: { id: string } }>`. Return the response body
 * (set a non-200 status with `reply.code()`), or throw an HttpError (http/errors.ts).
 */
export type OperationHandler<T extends RouteGenericInterface = RouteGenericInterface> = {
  // Method syntax keeps parameters bivariant, so handlers typed with a narrower request
  // still fit a HandlerMap.
  handle(request: FastifyRequest<T>, reply: FastifyReply): Promise<unknown>;
}['handle'];

export type HandlerMap = Record<string, OperationHandler>;

/** handlers/<tag>.ts export one of these: operationId -> handler, closing over the context. */
export type HandlerModule = (ctx: AppContext) => HandlerMap;
