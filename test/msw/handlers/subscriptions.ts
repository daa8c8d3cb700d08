import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/subscriptions';
import { reply } from '../contract';

/** Default answers of the subscriptions operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('listPackages', fixtures.listPackages),
  reply('listSubscriptions', fixtures.listSubscriptions),
  reply('purchasePackage', fixtures.purchasePackage),
  reply('cancelSubscription', fixtures.cancelSubscription),
];
