import { listAccountEvents, markAccountEventsRead } from '../domain/account/events';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

// Operations tagged Notifications in openapi.yaml: the header bell's events.
export const notificationsHandlers: HandlerModule = (ctx) => ({
  async listNotifications(request) {
    const user = requireUser(request);
    const { page, unread } = await listAccountEvents(ctx.db, user.id, request.query.page ?? 1);
    return { status: true, data: page, unread } satisfies Reply<'listNotifications'>;
  },

  async markNotificationsRead(request) {
    const user = requireUser(request);
    const marked = await markAccountEventsRead(ctx.db, user.id, request.query.until, ctx.clock);
    return { status: true, marked } satisfies Reply<'markNotificationsRead'>;
  },
});
