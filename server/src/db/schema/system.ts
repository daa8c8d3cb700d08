// The server's own bookkeeping: background jobs, rate-limit windows, maintained row counts.

/** `failed` once a job has used up its attempts; done jobs are deleted (recurring ones re-queued). */
export type JobState = 'queued' | 'failed';

/** One unit of background work (domain/jobs). Times are ms since the epoch. */
export interface JobsTable {
  id: string;
  /** Which task runs it, e.g. `gas.provision`. */
  kind: string;
  /** Dedupe key: at most one job per (kind, key). */
  key: string | null;
  /** JSON text (jsonb on PostgreSQL). */
  payload: string;
  /**
   * The group a capped lane counts the job in (a webhook delivery's app), or null: a lane with a
   * cap leases at most so many jobs of one group at once (jobs/queue.ts).
   */
  group_key: string | null;
  state: JobState;
  /** Not before this time. */
  run_at: number;
  /** Runs started so far, counted when claimed. */
  attempts: number;
  max_attempts: number;
  /** Recurring: run again this long after each run ends. */
  every_ms: number | null;
  /** The worker holding the lease, until locked_until. */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

/** One client's fixed request window under one budget (http/rateLimitStore.ts). */
export interface RateLimitsTable {
  /** `<budget>|<client key>`: the budget keeps the global and per-route windows apart. */
  key: string;
  /** Requests counted in the window, the one being answered included. */
  count: number;
  /** When the window ends, in ms since the epoch. */
  reset_at: number;
}

/** The tables whose rows row_counts counts (migration 0230), by owner: a user's, or an app's. */
export type CountedTable =
  | 'ledger_entries'
  | 'receive_transactions'
  | 'send_transactions'
  | 'app_accounts'
  | 'api_logs'
  | 'webhook_deliveries';

/** An address branch's next derivation index, a counter that only goes up (migrations 0560, 0620). */
export interface DerivationCountersTable {
  /** 'accounts' or 'invoices'. */
  branch: 'accounts' | 'invoices';
  next_index: number;
}

/** An address derived ahead of need, until the request that hands its index out takes it (0590). */
export interface AddressPoolTable {
  /** The xpub and branch it was derived from, hashed (domain/chain/addressPool.ts). */
  parent: string;
  derivation_index: number;
  /** EIP-55. */
  address: string;
}

/** Rows per owner and table, kept by triggers in the writing transaction (migration 0230). */
export interface RowCountsTable {
  /** users.id for ledger_entries, apps.id for the others. */
  owner_id: string;
  kind: CountedTable;
  n: number;
}
