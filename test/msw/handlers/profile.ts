import type { HttpHandler } from 'msw';

/** Default answers of the profile operations (see ../contract.ts for on/ok/fail/reply). */
export const handlers: HttpHandler[] = [];
