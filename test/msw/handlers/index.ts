import { HttpResponse, type HttpHandler } from 'msw';
import { fixtures as apps } from '../../factories/apps';
import { fixtures as archives, makeArchiveRequested } from '../../factories/archives';
import { fixtures as auth } from '../../factories/auth';
import { fixtures as dashboard } from '../../factories/dashboard';
import { fixtures as invoices } from '../../factories/invoices';
import { fixtures as kyc } from '../../factories/kyc';
import { fixtures as notifications } from '../../factories/notifications';
import { fixtures as paymentLinks } from '../../factories/paymentLinks';
import { fixtures as profile, PNG_BYTES } from '../../factories/profile';
import { fixtures as recovery } from '../../factories/recovery';
import { fixtures as refunds } from '../../factories/refunds';
import { change2faSetUp, fixtures as security } from '../../factories/security';
import { fixtures as subscriptions, makeQuote, PACKAGES } from '../../factories/subscriptions';
import type { Fixtures } from '../../factories/types';
import { fixtures as wallet } from '../../factories/wallet';
import { fixtures as webhooks } from '../../factories/webhooks';
import { accepted, fail, ok, on, reply, type OperationId, type ResultOf } from '../contract';

/** `reply` for every operation of a feature's fixtures, each with its fixture. */
function replyEach(fixtures: Fixtures): HttpHandler[] {
  return (Object.keys(fixtures) as OperationId[]).map((operationId) =>
    reply(operationId, fixtures[operationId] as ResultOf<typeof operationId>),
  );
}

/**
 * Default answers: every feature's fixtures (test/factories), and the few answers that are not
 * one JSON body. Tests add or replace handlers per case with server.use(); every answer built
 * with ok()/fail() is checked against openapi.yaml.
 */
export const handlers: HttpHandler[] = [
  ...[
    auth,
    apps,
    archives,
    dashboard,
    invoices,
    kyc,
    notifications,
    paymentLinks,
    profile,
    recovery,
    refunds,
    security,
    subscriptions,
    wallet,
    webhooks,
  ].flatMap(replyEach),
  reply('change2Fa', change2faSetUp),
  on('requestAccountArchive', () => accepted('requestAccountArchive', makeArchiveRequested())),
  // Each package priced as a new purchase the wallet covers.
  on('getPurchaseQuote', ({ request }) => {
    const id = new URL(request.url).searchParams.get('package_id');
    const plan = PACKAGES.find((p) => p.id === id);
    return plan
      ? ok('getPurchaseQuote', { status: true, data: makeQuote(plan) })
      : fail('getPurchaseQuote', 422, 'The selected plan does not exist.');
  }),
  // Every stored picture answers the same tiny PNG, typed as the server types it.
  on(
    'getImage',
    () =>
      new HttpResponse(PNG_BYTES, {
        headers: { 'content-type': 'image/png', 'x-content-type-options': 'nosniff' },
      }),
  ),
];
