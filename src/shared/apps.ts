// One source for client and server: a pure module both import (no React, browser or Node APIs).

/** Without a plan in force a merchant may have this many apps; with one, the package's app_count. */
export const APPS_WITHOUT_SUBSCRIPTION = 1;

/** What the app, API key and payout address forms say, before a call (client) and on it (server). */
export const APP_MESSAGES = {
  appNameRequired: 'App Name is required',
  projectUrlRequired: 'Project Url is required',
  invalidUrl: 'Please Enter Valid URl',
  keyNameRequired: 'Key Name is required',
  minOnePermission: 'Min One Permission is required',
  payoutRequired: 'Payout addrress is required',
  invalidAddress: 'Please Enter valid Address',
} as const;
