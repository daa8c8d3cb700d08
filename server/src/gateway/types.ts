import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayKey } from '../domain/apps/gatewayKeys';
import type { components, operations } from '../generated/gateway.gen';
import type { ReplyOfOperation, RequestOfOperation } from '../http/operationTypes';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a gateway request presented, once checked (gateway/auth.ts). */
    gatewayKey: GatewayKey | null;
    /** The app of the presented key once it is found, even when the request is then refused. */
    gatewayAppId: string | null;
    /** The SHA-256 of the key the request presents, once made (gateway/auth.ts). */
    gatewayKeyHash: string | null;
    /** Its rate-limit and API log bucket, once made (gateway/auth.ts gatewayRateLimitKey). */
    gatewayBucket: string | null;
    /**
     * The client address as read when the request arrived (gateway/plugin.ts): once the server
     * has closed the connection (an unreadable body), the request no longer knows it.
     */
    gatewayIp: string | null;
  }
  interface FastifyContextConfig {
    /** The ability a gateway operation needs (its `x-ability` in gateway.yaml). */
    ability?: string;
    /** The route as the API Logs show it: `/gateway/v1/accounts/{unique_id}` (gateway/plugin.ts). */
    apiLogRoute?: string;
  }
}

/** The gateway contract's schemas by name, e.g. `GatewaySchemas['Account']`. */
export type GatewaySchemas = components['schemas'];

/** The `webhooks` section's operations: what the gateway sends, not what it serves. */
type WebhookOperationId = Extract<
  keyof operations,
  | 'depositPendingEvent'
  | 'depositConfirmedEvent'
  | 'depositCompletedEvent'
  | 'depositReorgedEvent'
  | 'depositFailedEvent'
  | 'withdrawalQueuedEvent'
  | 'withdrawalProcessingEvent'
  | 'withdrawalEnergyTransferredEvent'
  | 'withdrawalBroadcastEvent'
  | 'withdrawalCompletedEvent'
  | 'withdrawalReorgedEvent'
  | 'withdrawalFailedEvent'
  | 'withdrawalCancelledEvent'
  | 'invoiceCreatedEvent'
  | 'invoicePaymentReceivedEvent'
  | 'invoiceProcessingEvent'
  | 'invoiceSettledEvent'
  | 'invoiceExpiredEvent'
  | 'invoiceInvalidEvent'
  | 'refundCreatedEvent'
  | 'refundClaimedEvent'
  | 'refundCompletedEvent'
  | 'refundReorgedEvent'
  | 'refundFailedEvent'
  | 'refundCancelledEvent'
  | 'refundExpiredEvent'
  | 'testPingEvent'
>;

type GatewayOperationId = Exclude<keyof operations, WebhookOperationId>;

export type GatewayReply<K extends GatewayOperationId> = ReplyOfOperation<operations[K]>;

/**
 * The handler of gateway operation `K` (see handlers/types.ts for the portal's). It may answer
 * without a promise (a kept answer): Fastify sends what a handler returns either way.
 */
export type GatewayHandler<K extends GatewayOperationId> = (
  request: FastifyRequest<RequestOfOperation<operations[K]>>,
  reply: FastifyReply,
) => GatewayReply<K> | Promise<GatewayReply<K>>;

/** Every operation of gateway.yaml: a missing handler fails the type check, not a request. */
export type GatewayHandlers = { [K in GatewayOperationId]: GatewayHandler<K> };
