import { webhookDeps } from '../domain/webhooks/delivery';
import {
  deliveryDetails,
  redeliver,
  rotateSecret,
  sendTestEvent,
  switchWebhookOn,
  webhookSettings,
  ipnLogView,
  TestEventsUsedUpError,
  type DeliveryDetails,
} from '../domain/webhooks/portal';
import type { FastifyReply } from 'fastify';
import { clientOf } from '../http/client';
import { HttpError } from '../http/errors';
import { requireUser } from '../http/requestContext';
import { done } from './replies';
import type { HandlerModule, Reply, Schemas } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';

/** What the webhook settings' actions answer; a delivery's outcome has its status or error. */
const WEBHOOK_REPLIES = codedMessages('webhookReplies', {
  secretShown: 'Copy the signing secret now; it will not be shown again.',
  switchedOn: 'Webhook switched on',
  testDelivered: (status: string) => `Test event delivered (HTTP ${status})`,
  testRetrying: (why: string) => `Test event not delivered (${why}); it will be retried`,
  testFailed: (why: string) => `Test event failed (${why})`,
  redeliveryDelivered: (status: string) => `Redelivery delivered (HTTP ${status})`,
  redeliveryRetrying: (why: string) => `Redelivery not delivered (${why}); it will be retried`,
  redeliveryFailed: (why: string) => `Redelivery failed (${why})`,
} as const);

function deliveryView(d: DeliveryDetails): Schemas['WebhookDelivery'] {
  return {
    delivery: ipnLogView(d),
    next_attempt_at: d.nextAttemptAt,
    last_error: d.lastError,
    attempts_made: d.attemptsMade.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      url: a.url,
      outcome: a.outcome,
      status_code: a.statusCode,
      error: a.error,
      duration_ms: a.durationMs,
      request_headers: a.requestHeaders,
      response_excerpt: a.responseExcerpt,
    })),
  };
}

/** A used-up send budget becomes 429 with Retry-After; other errors pass through. */
function tooMany(reply: FastifyReply) {
  return (err: unknown): never => {
    if (err instanceof TestEventsUsedUpError) {
      void reply.header('retry-after', String(Math.ceil(err.retryAfterMs / 1000)));
      throw new HttpError(429, err.message);
    }
    throw err;
  };
}

/** The toast after a test event or a Redeliver: what the endpoint did with the first POST. */
function outcomeMessage(what: 'test' | 'redelivery', d: DeliveryDetails): string {
  const m = WEBHOOK_REPLIES;
  const last = d.attemptsMade.at(-1);
  if (d.status === 'delivered') {
    const status = String(last?.statusCode ?? 200);
    return what === 'test' ? m.testDelivered(status) : m.redeliveryDelivered(status);
  }
  const why = last?.statusCode ? `HTTP ${last.statusCode}` : (last?.error ?? d.lastError ?? '');
  if (d.status === 'retrying') {
    return what === 'test' ? m.testRetrying(why) : m.redeliveryRetrying(why);
  }
  return what === 'test' ? m.testFailed(why) : m.redeliveryFailed(why);
}

// Operations tagged Webhooks in openapi.yaml, keyed by operationId.
export const webhooksHandlers: HandlerModule = (ctx) => {
  const deps = webhookDeps(ctx.config, ctx.db, ctx.clock);
  return {
    async getWebhookSettings(request) {
      const user = requireUser(request);
      const s = await webhookSettings(ctx.db, user.id, request.params.id, ctx.clock());
      return {
        status: true,
        data: {
          has_secret: s.hasSecret,
          secret_created_at: s.secretCreatedAt,
          previous_valid_until: s.previousValidUntil,
          disabled_at: s.disabledAt,
          disabled_reason: s.disabledReason,
        },
      } satisfies Reply<'getWebhookSettings'>;
    },

    async rotateWebhookSecret(request) {
      const user = requireUser(request);
      const secret = await rotateSecret(
        ctx.db,
        ctx.config.secretKey,
        user.id,
        request.params.id,
        ctx.clock(),
        clientOf(request),
      );
      return done(WEBHOOK_REPLIES.secretShown, {
        secret,
      }) satisfies Reply<'rotateWebhookSecret'>;
    },

    async switchWebhookOn(request) {
      const user = requireUser(request);
      await switchWebhookOn(ctx.db, user.id, request.params.id);
      return done(WEBHOOK_REPLIES.switchedOn) satisfies Reply<'switchWebhookOn'>;
    },

    async sendTestWebhook(request, reply) {
      const user = requireUser(request);
      const d = await sendTestEvent(deps, user.id, request.params.id).catch(tooMany(reply));
      return done(outcomeMessage('test', d), {
        data: deliveryView(d),
      }) satisfies Reply<'sendTestWebhook'>;
    },

    async getWebhookDelivery(request) {
      const user = requireUser(request);
      const d = await deliveryDetails(ctx.db, user.id, request.params.id);
      return done(d.status, { data: deliveryView(d) }) satisfies Reply<'getWebhookDelivery'>;
    },

    async redeliverWebhook(request, reply) {
      const user = requireUser(request);
      const d = await redeliver(deps, user.id, request.params.id).catch(tooMany(reply));
      return done(outcomeMessage('redelivery', d), {
        data: deliveryView(d),
      }) satisfies Reply<'redeliverWebhook'>;
    },
  };
};
