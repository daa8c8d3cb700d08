import type { FastifyBaseLogger } from 'fastify';
import type { OperationInfo } from '../openapi/spec';
import { appsHandlers } from './apps';
import { archivesHandlers } from './archives';
import { authHandlers } from './auth';
import { dashboardHandlers } from './dashboard';
import { exportsHandlers } from './exports';
import { invoicesHandlers } from './invoices';
import { kycHandlers } from './kyc';
import { notificationsHandlers } from './notifications';
import { paymentLinksHandlers } from './paymentLinks';
import { profileHandlers } from './profile';
import { recoveryHandlers } from './recovery';
import { refundsHandlers } from './refunds';
import { securityHandlers } from './security';
import { subscriptionsHandlers } from './subscriptions';
import type { AppContext, HandlerMap, HandlerModule } from '../http/operationTypes';
import { walletHandlers } from './wallet';
import { webhooksHandlers } from './webhooks';

/** One module per tag of openapi.yaml. */
export const HANDLER_MODULES: Record<string, HandlerModule> = {
  Auth: authHandlers,
  Recovery: recoveryHandlers,
  Dashboard: dashboardHandlers,
  Profile: profileHandlers,
  Kyc: kycHandlers,
  Subscriptions: subscriptionsHandlers,
  Wallet: walletHandlers,
  Security: securityHandlers,
  Apps: appsHandlers,
  Notifications: notificationsHandlers,
  Archives: archivesHandlers,
  Webhooks: webhooksHandlers,
  Invoices: invoicesHandlers,
  PaymentLinks: paymentLinksHandlers,
  Refunds: refundsHandlers,
  Exports: exportsHandlers,
};

/**
 * glue's `serviceHandlers`: the tag modules' handlers, then `overrides` (tests). Every operationId
 * of the document must have one: a missing handler stops the server at start, never a request
 * later. Handlers for operationIds the document lacks are contract drift and are logged.
 */
export function buildServiceHandlers(
  ctx: AppContext,
  operations: readonly OperationInfo[],
  log: FastifyBaseLogger,
  overrides: HandlerMap = {},
): HandlerMap {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const implemented: HandlerMap = {};
  for (const [tag, module] of Object.entries(HANDLER_MODULES)) {
    for (const [operationId, handler] of Object.entries(module(ctx))) {
      if (!handler) continue;
      if (operationId in implemented) throw new Error(`Two handlers for operation ${operationId}`);
      const op = byId.get(operationId);
      if (!op) log.warn(`Handler ${tag}.${operationId} has no operation in openapi.yaml`);
      else if (op.tag !== tag)
        log.warn(`Handler for ${operationId} is in ${tag}, the operation is tagged ${op.tag}`);
      implemented[operationId] = handler;
    }
  }
  const handlers: HandlerMap = {};
  const missing: string[] = [];
  for (const { operationId, tag } of operations) {
    const handler = overrides[operationId] ?? implemented[operationId];
    if (handler) handlers[operationId] = handler;
    else missing.push(`${operationId} (${tag})`);
  }
  if (missing.length > 0) {
    throw new Error(`openapi.yaml operations without a handler: ${missing.join(', ')}`);
  }
  return handlers;
}
