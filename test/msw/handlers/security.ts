import { http, HttpResponse, type HttpHandler, type HttpResponseResolver } from 'msw';
import { change2faSetUp, fixtures } from '../../factories/security';
import { assertMatchesContract, operations } from '../../contract/openapi';
import { API, reply } from '../contract';

/**
 * change2fa by its contract operationId: the generated endpoint is named change2Fa, which
 * `on()` cannot look up in openapi.yaml. Method and path still come from the contract.
 */
export function onChange2fa(resolver: HttpResponseResolver) {
  const operation = operations.change2fa;
  if (!operation) throw new Error('openapi.yaml has no operation change2fa');
  return http[operation.method as 'post'](`${API}${operation.path}`, resolver);
}

/** A change2fa answer with `status`, checked against the contract like ok() / fail(). */
export function change2faReply(status: number, body: object) {
  assertMatchesContract('change2fa', status, body);
  return HttpResponse.json(body, { status });
}

/** Default answers of the security operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('getAuthentication', fixtures.getAuthentication),
  reply('updateAuthentication', fixtures.updateAuthentication),
  reply('resendOtp', fixtures.resendOtp),
  reply('changeMpin', fixtures.changeMpin),
  reply('changePassword', fixtures.changePassword),
  onChange2fa(() => change2faReply(200, change2faSetUp)),
];
