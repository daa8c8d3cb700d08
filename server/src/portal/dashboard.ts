import { dashboardOf } from '../domain/account/dashboard';
import { keptAnswer, nextUtcMidnight, earliest } from '../http/keptAnswers';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

// Operations tagged Dashboard in openapi.yaml, keyed by operationId.
export const dashboardHandlers: HandlerModule = (ctx) => ({
  async getDashboard(request) {
    const user = requireUser(request);
    const { sessionId, sessionCreatedAt } = request;
    const session =
      sessionId && sessionCreatedAt ? { id: sessionId, createdAt: sessionCreatedAt } : null;
    const now = ctx.clock();
    return keptAnswer(
      ctx.changes,
      {
        // The session: its last login is the sign-in before its own.
        key: `getDashboard:${user.id}:${sessionId ?? ''}`,
        owner: user.id,
        now: now.getTime(),
        // Today's and this month's counts start again at 00:00 UTC; the plan ends at its expiry.
        until: ({ data }) =>
          Math.min(nextUtcMidnight(now.getTime()), earliest([data.subscription?.expiry])),
      },
      async () => {
        const data = await dashboardOf(ctx.db, user.id, now, session);
        return { status: true, data } satisfies Reply<'getDashboard'>;
      },
    );
  },
});
