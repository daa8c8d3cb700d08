import type { HandlerModule } from './types';

// Operations tagged Security in openapi.yaml, keyed by operationId; the ones not listed answer 501
// (handlers/index.ts fills them in). Shape of an entry:
//   async someOperation(request: FastifyRequest<{ Body: SomeBody; Params: { id: string } }>, reply) {
//     const user = requireUser(request); // http/requestContext.ts
//     ...query ctx.db with Kysely...
//     return { status: true, msg: '...' }; // or throw validationFailed / notFound (http/errors.ts)
//   },
export const securityHandlers: HandlerModule = (_ctx) => ({});
