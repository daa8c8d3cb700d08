import type { HttpHandler } from 'msw';
import { fixtures } from '../../factories/dashboard';
import { reply } from '../contract';

/** Default answers of the dashboard operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [reply('getDashboard', fixtures.getDashboard)];
