import type { ResolvedConfig } from './config';
import type { Db } from './db/connection';
import type { Clock } from './domain/time';

/** What handlers and security handlers close over (handlers/<tag>.ts receive it). */
export interface AppContext {
  config: ResolvedConfig;
  db: Db;
  clock: Clock;
}
