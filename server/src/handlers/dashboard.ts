import { dashboardOf } from '../domain/dashboard';
import { requireUser } from '../http/requestContext';
import type { HandlerModule } from './types';

// Operations tagged Dashboard in openapi.yaml, keyed by operationId.
export const dashboardHandlers: HandlerModule = (ctx) => ({
  async getDashboard(request) {
    const user = requireUser(request);
    return { status: true, data: await dashboardOf(ctx.db, user.id, ctx.clock()) };
  },
});
