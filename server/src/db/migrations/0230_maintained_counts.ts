import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';
import { engineOf } from '../connection';

/**
 * Counts and daily totals kept by the transactions that write the rows: at a million rows a
 * COUNT(*) or a SUM over an app's rows costs tens of milliseconds per read.
 * - row_counts: rows per owner (an app, or a user for the ledger) and table, for the lists'
 *   `total` and `last_page`;
 * - app_daily_usage: per app, UTC day and method, the credited deposits and completed withdrawals
 *   (count and amount), the withdrawals the plan counts (every one accepted until it is
 *   cancelled), and the credited deposits' split for the sweep (fee_micro: the gateway's fee,
 *   net_micro: the rest), the rules of domain/apps/usage.ts: what Usage, Daily Logs, the dashboard
 *   and the plan's limits read.
 * Both are maintained by triggers, in the transaction of the INSERT, UPDATE or DELETE itself:
 * every writer (the watcher, withdrawals, retention, tests, a copy between engines) keeps them
 * exact without having to remember to. Neither holds anything the rows do not: they are exactly
 * derivable from them (domain/maintainedCounts.ts rebuilds them for a check), and this
 * migration fills them from the rows already there.
 * Lists page newest first on (app_id, created_at, id): the index now ends with the id too, so
 * the order is the index's own and no sort step is needed.
 * Migration 0410 (an invoice counts once) made the daily totals' triggers again, with rules of its
 * own given to this migration's generator (usageTriggers), which keeps making 0230's as they were.
 */

/** The tables counted, with the column that owns their rows. */
const COUNTED = [
  { table: 'ledger_entries', owner: 'user_id' },
  { table: 'receive_transactions', owner: 'app_id' },
  { table: 'send_transactions', owner: 'app_id' },
  { table: 'app_accounts', owner: 'app_id' },
  { table: 'api_logs', owner: 'app_id' },
  { table: 'webhook_deliveries', owner: 'app_id' },
] as const;

/** The lists of the app detail screen, paged newest first (the old indexes lacked the id). */
const PAGED = [
  { table: 'receive_transactions', old: 'receive_transactions_app' },
  { table: 'send_transactions', old: 'send_transactions_app' },
  { table: 'app_accounts', old: 'app_accounts_app' },
  { table: 'api_logs', old: 'api_logs_app' },
  { table: 'webhook_deliveries', old: 'webhook_deliveries_app' },
] as const;

type Engine = 'sqlite' | 'postgres';

/**
 * A raw base-unit amount (`r`.`column`, null → 0) in micro-units of the row's method, rounded
 * down: exact at any size, never through int64 (an 18-decimal amount passes it at ~9.2 tokens).
 * PostgreSQL divides its numeric exactly; SQLite keeps the amount as decimal text and drops its
 * last decimals−6 digits (or appends zeros below 6 decimals). Per row, so a day's sum can be a
 * few micro-units off the truncation of its exact sum (domain/apps/usage.ts).
 */
function microOfRaw(engine: Engine, r: string, column: string): string {
  const decimals = `(SELECT pm.decimals FROM payment_methods pm WHERE pm.id = ${r}.payment_method_id)`;
  const raw = `${r}.${column}`;
  return engine === 'postgres'
    ? `coalesce(div(${raw}, power(10::numeric, ${decimals} - 6)), 0)::bigint`
    : `coalesce(CAST(CASE WHEN ${decimals} >= 6
          THEN substr(${raw}, 1, length(${raw}) - (${decimals} - 6))
          ELSE ${raw} || substr('000000', 1, 6 - ${decimals}) END AS INTEGER), 0)`;
}

/**
 * What a row adds to its day: a credited deposit, or a withdrawal the plan counts (and, once
 * completed, its count and amount as a completed one), else nothing.
 */
interface UsageRule {
  table: 'receive_transactions' | 'send_transactions';
  /** The columns the figures depend on: an update of others leaves them as they are (SQLite). */
  columns: string[];
  /** `r` is the row's alias (NEW, OLD or a transition table's name). */
  counts: (r: string) => string;
  day: (engine: Engine, r: string) => string;
  /** What the row adds to each of the figures (DailyUsageRules.figures), in their order. */
  values: (engine: Engine, r: string) => string[];
}

/**
 * app_daily_usage's figures after its key (app_id, day, payment_method_id), the rules that make
 * them from the rows, and the figures that are all 0 in a day and method with nothing left in it
 * (it is then dropped). Exported with the triggers' generator for a later migration that changes
 * the rules (0410): this migration's own set is USAGE_0230, and the SQL it makes never changes.
 */
export interface DailyUsageRules {
  figures: readonly string[];
  present: readonly string[];
  rules: readonly UsageRule[];
}

const RULES_0230: UsageRule[] = [
  {
    table: 'receive_transactions',
    columns: [
      'app_id',
      'payment_method_id',
      'deposit_status',
      'amount_micro',
      'amount_raw',
      'fee_raw',
      'credited_at',
      'created_at',
    ],
    // domain/apps/usage.ts CREDITED_STATUSES.
    counts: (r) => `${r}.deposit_status IN (3, 4, 1)`,
    // A deposit counts on the day it was credited (rows from before the watcher: recorded).
    day: (engine, r) =>
      engine === 'postgres'
        ? `(coalesce(${r}.credited_at, ${r}.created_at) AT TIME ZONE 'UTC')::date`
        : `substr(coalesce(${r}.credited_at, ${r}.created_at), 1, 10)`,
    // The sweep's split: the fee recorded at credit, and the rest for the payout address. A row
    // from before the watcher (no amount_raw) has no fee: its amount_micro is all payout.
    values: (engine, r) => {
      const fee = microOfRaw(engine, r, 'fee_raw');
      return [
        '1',
        `${r}.amount_micro`,
        '0',
        '0',
        '0',
        `CASE WHEN ${r}.amount_raw IS NULL THEN 0 ELSE ${fee} END`,
        `CASE WHEN ${r}.amount_raw IS NULL THEN ${r}.amount_micro
          ELSE ${microOfRaw(engine, r, 'amount_raw')} - ${fee} END`,
      ];
    },
  },
  {
    table: 'send_transactions',
    columns: ['app_id', 'payment_method_id', 'status', 'amount_micro', 'created_at'],
    // domain/apps/usage.ts PLAN_SEND_STATUSES: all but Cancelled (7); Completed (1) among them.
    counts: (r) => `${r}.status IN (0, 1, 2, 3, 4, 5, 6)`,
    day: (engine, r) =>
      engine === 'postgres'
        ? `(${r}.created_at AT TIME ZONE 'UTC')::date`
        : `substr(${r}.created_at, 1, 10)`,
    values: (_engine, r) => [
      '0',
      '0',
      `CASE WHEN ${r}.status = 1 THEN 1 ELSE 0 END`,
      `CASE WHEN ${r}.status = 1 THEN ${r}.amount_micro ELSE 0 END`,
      '1',
      '0',
      '0',
    ],
  },
];

/** The credited deposits and the withdrawals, as this migration made app_daily_usage. */
export const USAGE_0230: DailyUsageRules = {
  figures: [
    'deposit_count',
    'deposit_micro',
    'withdraw_count',
    'withdraw_micro',
    'plan_withdraw_count',
    'fee_micro',
    'net_micro',
  ],
  // A day and method with nothing left in it is dropped.
  present: ['deposit_count', 'withdraw_count', 'plan_withdraw_count'],
  rules: RULES_0230,
};

const USAGE_KEY = '(app_id, day, payment_method_id)';
const usageColumns = ({ figures }: DailyUsageRules) =>
  `app_id, day, payment_method_id, ${figures.join(', ')}`;
const addUsage = ({ figures }: DailyUsageRules) =>
  `DO UPDATE SET
      ${figures.map((f) => `${f} = app_daily_usage.${f} + excluded.${f}`).join(',\n      ')}`;
/** A day and method with nothing left in it (`u`: its alias, if any). */
const emptyUsage = ({ present }: DailyUsageRules, u = '') =>
  present.map((f) => `${u}${f} = 0`).join(' AND ');

/** SQLite: row triggers (it has no others), each a few indexed statements. */
function sqliteCountTriggers(): string[] {
  const out: string[] = [];
  for (const { table, owner } of COUNTED) {
    out.push(
      `CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN
        INSERT INTO row_counts (owner_id, kind, n) VALUES (NEW.${owner}, '${table}', 1)
        ON CONFLICT (owner_id, kind) DO UPDATE SET n = row_counts.n + 1;
      END`,
      `CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN
        UPDATE row_counts SET n = n - 1 WHERE owner_id = OLD.${owner} AND kind = '${table}';
      END`,
    );
  }
  return out;
}

function sqliteUsageTriggers(usage: DailyUsageRules): string[] {
  const out: string[] = [];
  for (const rule of usage.rules) {
    const add = (r: string) =>
      `INSERT INTO app_daily_usage (${usageColumns(usage)})
        SELECT ${r}.app_id, ${rule.day('sqlite', r)}, ${r}.payment_method_id, ${rule.values('sqlite', r).join(', ')}
        WHERE ${rule.counts(r)}
        ON CONFLICT ${USAGE_KEY} ${addUsage(usage)};`;
    const key = (r: string) =>
      `app_id = ${r}.app_id AND day = ${rule.day('sqlite', r)} AND payment_method_id = ${r}.payment_method_id`;
    const subtract = (r: string) => {
      const values = rule.values('sqlite', r);
      return `UPDATE app_daily_usage SET ${usage.figures.map((f, i) => `${f} = ${f} - ${values[i]}`).join(',\n          ')}
        WHERE ${key(r)} AND ${rule.counts(r)};`;
    };
    const dropEmpty = (r: string) =>
      `DELETE FROM app_daily_usage WHERE ${key(r)} AND ${emptyUsage(usage)};`;
    const t = rule.table;
    out.push(
      `CREATE TRIGGER ${t}_usage_insert AFTER INSERT ON ${t} WHEN ${rule.counts('NEW')} BEGIN
        ${add('NEW')}
      END`,
      `CREATE TRIGGER ${t}_usage_update AFTER UPDATE OF ${rule.columns.join(', ')} ON ${t}
        WHEN ${rule.counts('OLD')} OR ${rule.counts('NEW')} BEGIN
        ${subtract('OLD')}
        ${add('NEW')}
        ${dropEmpty('OLD')}
      END`,
      `CREATE TRIGGER ${t}_usage_delete AFTER DELETE ON ${t} WHEN ${rule.counts('OLD')} BEGIN
        ${subtract('OLD')}
        ${dropEmpty('OLD')}
      END`,
    );
  }
  return out;
}

/**
 * PostgreSQL: statement triggers over the transition tables, so a bulk insert of thousands of
 * rows updates each count and each day once, not once per row.
 */
const fn = (name: string, body: string) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${body}
        RETURN NULL;
      END $$`;
const trigger = (name: string, table: string, op: string, referencing: string) =>
  `CREATE TRIGGER ${name} AFTER ${op} ON ${table} REFERENCING ${referencing}
      FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`;

function postgresCountTriggers(): string[] {
  const out: string[] = [];
  for (const { table, owner } of COUNTED) {
    out.push(
      fn(
        `${table}_count_insert`,
        `INSERT INTO row_counts (owner_id, kind, n)
          SELECT ${owner}, '${table}', count(*) FROM new_rows GROUP BY ${owner}
          ON CONFLICT (owner_id, kind) DO UPDATE SET n = row_counts.n + excluded.n;`,
      ),
      trigger(`${table}_count_insert`, table, 'INSERT', 'NEW TABLE AS new_rows'),
      fn(
        `${table}_count_delete`,
        `UPDATE row_counts SET n = row_counts.n - gone.n
          FROM (SELECT ${owner} AS owner_id, count(*) AS n FROM old_rows GROUP BY ${owner}) gone
          WHERE row_counts.owner_id = gone.owner_id AND row_counts.kind = '${table}';`,
      ),
      trigger(`${table}_count_delete`, table, 'DELETE', 'OLD TABLE AS old_rows'),
    );
  }
  return out;
}

function postgresUsageTriggers(usage: DailyUsageRules): string[] {
  const out: string[] = [];
  for (const rule of usage.rules) {
    const rows = (r: string, sign: '' | '-') => {
      const values = rule.values('postgres', r);
      return `SELECT ${r}.app_id, ${rule.day('postgres', r)} AS day, ${r}.payment_method_id,
          ${usage.figures.map((f, i) => `${sign}(${values[i]}) AS ${f}`).join(', ')}
        FROM ${r} WHERE ${rule.counts(r)}`;
    };
    const apply = (parts: string[], withOld: boolean) =>
      `INSERT INTO app_daily_usage (${usageColumns(usage)})
        SELECT app_id, day, payment_method_id, ${usage.figures.map((f) => `sum(${f})`).join(', ')}
        FROM (${parts.join(' UNION ALL ')}) delta
        GROUP BY app_id, day, payment_method_id
        ON CONFLICT ${USAGE_KEY} ${addUsage(usage)};` +
      (withOld
        ? `
        DELETE FROM app_daily_usage u USING (${rows('old_rows', '')}) gone
          WHERE u.app_id = gone.app_id AND u.day = gone.day
            AND u.payment_method_id = gone.payment_method_id
            AND ${emptyUsage(usage, 'u.')};`
        : '');
    const t = rule.table;
    out.push(
      fn(`${t}_usage_insert`, apply([rows('new_rows', '')], false)),
      trigger(`${t}_usage_insert`, t, 'INSERT', 'NEW TABLE AS new_rows'),
      fn(`${t}_usage_update`, apply([rows('old_rows', '-'), rows('new_rows', '')], true)),
      trigger(`${t}_usage_update`, t, 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'),
      fn(`${t}_usage_delete`, apply([rows('old_rows', '-')], true)),
      trigger(`${t}_usage_delete`, t, 'DELETE', 'OLD TABLE AS old_rows'),
    );
  }
  return out;
}

/** The statements that create the usage triggers of `usage`'s rules on `engine`. */
export function usageTriggers(engine: Engine, usage: DailyUsageRules): string[] {
  return engine === 'postgres' ? postgresUsageTriggers(usage) : sqliteUsageTriggers(usage);
}

/** The statements that drop them (the trigger and, on PostgreSQL, its function of one name). */
export function dropUsageTriggers(engine: Engine, usage: DailyUsageRules): string[] {
  return usage.rules.flatMap(({ table }) =>
    ['insert', 'update', 'delete'].flatMap((op) => {
      const name = `${table}_usage_${op}`;
      return engine === 'postgres'
        ? [`DROP TRIGGER ${name} ON ${table}`, `DROP FUNCTION ${name}()`]
        : [`DROP TRIGGER ${name}`];
    }),
  );
}

/** Adds what the rows already there make of `usage`'s figures to app_daily_usage. */
async function fillDailyUsage(db: Kysely<unknown>, usage: DailyUsageRules): Promise<void> {
  const engine = engineOf(db);
  for (const rule of usage.rules) {
    const values = rule.values(engine, 'r');
    const day = rule.day(engine, 'r');
    await sql
      .raw(
        `INSERT INTO app_daily_usage (${usageColumns(usage)})
          SELECT r.app_id, ${day}, r.payment_method_id, ${values.map((v) => `sum(${v})`).join(', ')}
          FROM ${rule.table} r WHERE ${rule.counts('r')}
          GROUP BY r.app_id, ${day}, r.payment_method_id
          ON CONFLICT ${USAGE_KEY} ${addUsage(usage)}`,
      )
      .execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  const engine = engineOf(db);
  await db.schema
    .createTable('row_counts')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('n', type.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('row_counts_pk', ['owner_id', 'kind'])
    .execute();
  await db.schema
    .createTable('app_daily_usage')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('day', type.date, (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('deposit_count', type.bigint, (c) => c.notNull())
    .addColumn('deposit_micro', type.micro, (c) => c.notNull())
    .addColumn('withdraw_count', type.bigint, (c) => c.notNull())
    .addColumn('withdraw_micro', type.micro, (c) => c.notNull())
    .addColumn('plan_withdraw_count', type.bigint, (c) => c.notNull())
    .addColumn('fee_micro', type.micro, (c) => c.notNull())
    .addColumn('net_micro', type.micro, (c) => c.notNull())
    .addPrimaryKeyConstraint('app_daily_usage_pk', ['app_id', 'day', 'payment_method_id'])
    .execute();

  for (const { table, owner } of COUNTED) {
    await sql
      .raw(
        `INSERT INTO row_counts (owner_id, kind, n)
          SELECT ${owner}, '${table}', count(*) FROM ${table} GROUP BY ${owner}`,
      )
      .execute(db);
  }
  await fillDailyUsage(db, USAGE_0230);
  const counts = engine === 'postgres' ? postgresCountTriggers() : sqliteCountTriggers();
  for (const statement of [...counts, ...usageTriggers(engine, USAGE_0230)]) {
    await sql.raw(statement).execute(db);
  }

  for (const { table, old } of PAGED) {
    await db.schema.dropIndex(old).execute();
    await db.schema
      .createIndex(`${table}_app_page`)
      .on(table)
      .columns(['app_id', 'created_at', 'id'])
      .execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
