import { dashboardOf } from '../domain/dashboard';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from './types';

// Operations tagged Dashboard in openapi.yaml, keyed by operationId.
export const dashboardHandlers: HandlerModule = (ctx) => ({
  async getDashboard(request) {
    const user = requireUser(request);
    const { sessionId, sessionCreatedAt } = request;
    const session =
      sessionId && sessionCreatedAt ? { id: sessionId, createdAt: sessionCreatedAt } : null;
    const data = await dashboardOf(ctx.db, user.id, ctx.clock(), session);
    return { status: true, data } satisfies Reply<'getDashboard'>;
  },
});
