import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { components, operations } from '../generated/portal.gen';

export type { AppContext };

/** The contract's schemas by name, e.g. `Schemas['App']`. */
export type Schemas = components['schemas'];

export type OperationId = keyof operations;

type Content<T> = T extends { content: infer C } ? C[keyof C] : never;
// An absent part of the request (`path?: never`) is an empty object at run time.
type Part<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
type BodyOf<Op> = Op extends { requestBody: infer B }
  ? Content<B>
  : Op extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? undefined
      : Content<NonNullable<B>> | undefined
    : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;

/** An operation as openapi-typescript writes it, in any of the server's documents. */
interface ContractOperation {
  parameters: { path?: unknown; query?: unknown };
  responses: object;
}

/** What glue has validated for an operation: body, path parameters and query. */
export interface RequestOfOperation<Op extends ContractOperation> {
  Body: BodyOf<Op>;
  Params: Part<Op['parameters']['path']>;
  Querystring: Part<Op['parameters']['query']>;
}

/** The success body of an operation. */
export type ReplyOfOperation<Op extends ContractOperation> = Content<
  Op['responses'][SuccessStatus & keyof Op['responses']]
>;

/** What glue has validated for operation `K`: body, path parameters and query. */
export type RequestOf<K extends OperationId> = RequestOfOperation<operations[K]>;

/** The success body of operation `K`; check each returned literal with `satisfies Reply<K>`. */
export type Reply<K extends OperationId> = ReplyOfOperation<operations[K]>;

/**
 * The handler of operation `K`. Return the response body (set a non-200 status with
 * `reply.code()`), or throw: a domain error (domain/errors.ts) or an HttpError (http/errors.ts).
 */
export type Handler<K extends OperationId> = (
  request: FastifyRequest<RequestOf<K>>,
  reply: FastifyReply,
) => Promise<Reply<K>>;

/** portal/<tag>.ts return these: operationId -> handler, closing over the context. */
export type Handlers = { [K in OperationId]?: Handler<K> };
export type HandlerModule = (ctx: AppContext) => Handlers;

/** What glue calls: any operation's handler, its request and answer types erased. */
export type ServiceHandler = {
  // Method syntax keeps parameters bivariant, so each operation's Handler fits here.
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}['handle'];

/** Handlers by operationId as glue takes them (tests add fixture operations the document lacks). */
export type HandlerMap = Record<string, ServiceHandler>;
