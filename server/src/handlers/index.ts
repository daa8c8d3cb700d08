import type { FastifyBaseLogger } from 'fastify';
import type { OperationInfo } from '../openapi/spec';
import { appsHandlers } from './apps';
import { authHandlers } from './auth';
import { dashboardHandlers } from './dashboard';
import { kycHandlers } from './kyc';
import { notImplemented } from './notImplemented';
import { profileHandlers } from './profile';
import { securityHandlers } from './security';
import { subscriptionsHandlers } from './subscriptions';
import type { AppContext, HandlerMap, HandlerModule, OperationHandler } from './types';
import { walletHandlers } from './wallet';

/** One module per tag of openapi.yaml. */
export const HANDLER_MODULES: Record<string, HandlerModule> = {
  Auth: authHandlers,
  Dashboard: dashboardHandlers,
  Profile: profileHandlers,
  Kyc: kycHandlers,
  Subscriptions: subscriptionsHandlers,
  Wallet: walletHandlers,
  Security: securityHandlers,
  Apps: appsHandlers,
};

/**
 * glue's `serviceHandlers`: every operationId of the document gets a handler; the ones no tag
 * module implements answer 501. Handlers for operationIds the document lacks are contract drift
 * and are logged.
 */
export function buildServiceHandlers(
  ctx: AppContext,
  operations: readonly OperationInfo[],
  log: FastifyBaseLogger,
): Record<string, OperationHandler> {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const implemented: HandlerMap = {};
  for (const [tag, module] of Object.entries(HANDLER_MODULES)) {
    for (const [operationId, handler] of Object.entries(module(ctx))) {
      if (operationId in implemented) throw new Error(`Two handlers for operation ${operationId}`);
      const op = byId.get(operationId);
      if (!op) log.warn(`Handler ${tag}.${operationId} has no operation in openapi.yaml`);
      else if (op.tag !== tag)
        log.warn(`Handler for ${operationId} is in ${tag}, the operation is tagged ${op.tag}`);
      implemented[operationId] = handler;
    }
  }
  const handlers: Record<string, OperationHandler> = {};
  for (const op of operations) {
    handlers[op.operationId] = implemented[op.operationId] ?? notImplemented(op.operationId);
  }
  return handlers;
}
