import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import type { appsApi } from '../../src/api/generated/apps.gen';
import type { archivesApi } from '../../src/api/generated/archives.gen';
import type { authApi } from '../../src/api/generated/auth.gen';
import type { dashboardApi } from '../../src/api/generated/dashboard.gen';
import type { exportsApi } from '../../src/api/generated/exports.gen';
import type { invoicesApi } from '../../src/api/generated/invoices.gen';
import type { kycApi } from '../../src/api/generated/kyc.gen';
import type { notificationsApi } from '../../src/api/generated/notifications.gen';
import type { paymentLinksApi } from '../../src/api/generated/paymentLinks.gen';
import type { profileApi } from '../../src/api/generated/profile.gen';
import type { recoveryApi } from '../../src/api/generated/recovery.gen';
import type { refundsApi } from '../../src/api/generated/refunds.gen';
import type { securityApi } from '../../src/api/generated/security.gen';
import type { subscriptionsApi } from '../../src/api/generated/subscriptions.gen';
import type { walletApi } from '../../src/api/generated/wallet.gen';
import type { webhooksApi } from '../../src/api/generated/webhooks.gen';
import type { ErrorEnvelope } from '../../src/api/generated/auth.gen';
import { assertMatchesContract, operationOf } from '../contract/openapi';

type Endpoints = typeof authApi.endpoints &
  typeof appsApi.endpoints &
  typeof archivesApi.endpoints &
  typeof dashboardApi.endpoints &
  typeof exportsApi.endpoints &
  typeof invoicesApi.endpoints &
  typeof kycApi.endpoints &
  typeof notificationsApi.endpoints &
  typeof paymentLinksApi.endpoints &
  typeof profileApi.endpoints &
  typeof recoveryApi.endpoints &
  typeof refundsApi.endpoints &
  typeof securityApi.endpoints &
  typeof subscriptionsApi.endpoints &
  typeof walletApi.endpoints &
  typeof webhooksApi.endpoints;

export type OperationId = keyof Endpoints & string;
export type ResultOf<K extends OperationId> = Endpoints[K]['Types']['ResultType'];

/** The page origin: a relative base URL breaks Request under Jest. */
export const API = 'http://localhost/api';

/** The msw URL of an operation, from its path in openapi.yaml ({id} -> :id). */
export function urlOf(operationId: OperationId): string {
  return `${API}${operationOf(operationId).path.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/** An msw handler for an operation: method and path come from the contract, never restated. */
export function on(operationId: OperationId, resolver: HttpResponseResolver) {
  const method = operationOf(operationId).method as 'get' | 'post';
  return http[method](urlOf(operationId), resolver);
}

/** A typed 200 answer, checked against the contract so mocks cannot drift. */
export function ok<K extends OperationId>(operationId: K, body: ResultOf<K>) {
  assertMatchesContract(operationId, 200, body);
  return HttpResponse.json(body as object);
}

/** A typed 202 answer (accepted, done in the background), checked against the contract. */
export function accepted<K extends OperationId>(operationId: K, body: ResultOf<K>) {
  assertMatchesContract(operationId, 202, body);
  return HttpResponse.json(body as object, { status: 202 });
}

/** A failure in the spec's envelope with a status the operation declares. */
export function fail(
  operationId: OperationId,
  status: number,
  msg: string,
  errors: Record<string, string[]> = {},
  /** The reason fields some refusals carry (code, invoice_status, pair). */
  more: Pick<ErrorEnvelope, 'code' | 'invoice_status' | 'pair'> = {},
) {
  const body: ErrorEnvelope = { status: false, msg, errors, ...more };
  assertMatchesContract(operationId, status, body);
  return HttpResponse.json(body, { status });
}

/** The usual answer for an operation: `on` + `ok`. */
export function reply<K extends OperationId>(operationId: K, body: ResultOf<K>) {
  return on(operationId, () => ok(operationId, body));
}
