import { handlers as apps } from './apps';
import { handlers as auth } from './auth';
import { handlers as dashboard } from './dashboard';
import { handlers as kyc } from './kyc';
import { handlers as profile } from './profile';
import { handlers as security } from './security';
import { handlers as subscriptions } from './subscriptions';
import { handlers as wallet } from './wallet';

/**
 * Default answers, one file per tag. Tests add or replace handlers per case with server.use();
 * every answer built with ok()/fail() is checked against openapi.yaml.
 */
export const handlers = [
  ...auth,
  ...apps,
  ...dashboard,
  ...kyc,
  ...profile,
  ...security,
  ...subscriptions,
  ...wallet,
];
