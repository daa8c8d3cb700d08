import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/wallet';
import { reply } from '../contract';

/** Default answers of the wallet operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('getBalance', fixtures.getBalance),
  reply('getCryptoDeposit', fixtures.getCryptoDeposit),
  reply('syncBalance', fixtures.syncBalance),
];
