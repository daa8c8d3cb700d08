import type { HttpHandler } from 'msw';
import { change2faSetUp, fixtures } from '../../factories/security';
import { reply } from '../contract';

/** Default answers of the security operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [
  reply('getAuthentication', fixtures.getAuthentication),
  reply('updateAuthentication', fixtures.updateAuthentication),
  reply('resendOtp', fixtures.resendOtp),
  reply('changeMpin', fixtures.changeMpin),
  reply('changePassword', fixtures.changePassword),
  reply('change2Fa', change2faSetUp),
];
