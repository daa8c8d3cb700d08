import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/apps';
import { reply } from '../contract';

/** Default answers of the apps operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('getApps', fixtures.getApps),
  reply('getAppDetails', fixtures.getAppDetails),
  reply('listTokens', fixtures.listTokens),
  reply('listTokenPermissions', fixtures.listTokenPermissions),
  reply('fetchBalance', fixtures.fetchBalance),
];
