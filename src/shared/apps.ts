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

/**
 * What an API key may do on the gateway: each ability's id (what a key's `abilities` store) and
 * its English title, in the order the portal lists them. The server answers these titles
 * (`listTokenPermissions`); the client shows each from its catalogues by id
 * (`keys.ability.<id>`), whose English is this. A `:write` ability implies its `:read`.
 */
export const ABILITY_TITLES = {
  'methods:read': 'Read payment methods',
  'accounts:read': 'Read deposit accounts',
  'accounts:write': 'Create deposit accounts',
  'deposits:read': 'Read deposits',
  'withdrawals:read': 'Read withdrawals',
  'withdrawals:write': 'Create withdrawals',
  'balances:read': 'Read balances',
  'webhooks:write': 'Manage webhooks',
  // Added later: keys made before do not hold them (a key has only the abilities given to it).
  'wallets:read': 'Read operational wallets',
  'invoices:read': 'Read invoices',
  'invoices:write': 'Create invoices',
  'refunds:read': 'Read refunds',
  'refunds:write': 'Create refunds',
  'logs:read': 'Read logs',
} as const;

export type AbilityId = keyof typeof ABILITY_TITLES;
