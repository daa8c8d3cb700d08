import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/auth';
import { reply } from '../contract';

/** Default answers of the auth operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('listCountries', fixtures.listCountries),
  reply('checkUsername', fixtures.checkUsername),
  reply('preLogin', fixtures.preLogin),
  reply('login', fixtures.login),
  reply('logout', fixtures.logout),
  reply('register', fixtures.register),
];
