import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/kyc';
import { reply } from '../contract';

/** Default answers of the kyc operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('listDocTypes', fixtures.listDocTypes),
  reply('uploadKyc', fixtures.uploadKyc),
];
