import { sql, type Kysely } from 'kysely';
import { engineOf, type Engine } from '../connection';

/**
 * Triggers that name the user whose rows changed, for the reads each process keeps in memory
 * (db/ownerChanges.ts): SQLite calls the connection's `owner_changed(user)` function inside the
 * writing statement; PostgreSQL sends `pg_notify('owner_changed', user)`, delivered on commit.
 * A table a kept read selects from must have them: db/prepared.test.ts checks every kept query.
 * Later migrations add tables with `ownerTriggers`.
 */

/**
 * How a row's owner is found: `of(r)`, where `r` is the row's alias (NEW, OLD or a transition
 * table), reads only the row's `columns`.
 */
export interface OwnerOf {
  columns: readonly string[];
  of: (r: string) => string;
}

export const ownColumn = (column: string): OwnerOf => ({
  columns: [column],
  of: (r) => `${r}.${column}`,
});

/** A row of an app's table belongs to the app's user. */
export const appOwner: OwnerOf = {
  columns: ['app_id'],
  of: (r) => `(SELECT apps.user_id FROM apps WHERE apps.id = ${r}.app_id)`,
};

/** The owners' names for the rows `r`, one `o` column, a UNION ALL of one SELECT per owner. */
function named(owners: OwnerOf[], r: string): string {
  return owners.map((owner) => `SELECT ${owner.of(r)} AS o`).join(' UNION ALL ');
}

/**
 * Where a PostgreSQL owner trigger tells of a change (each through OWNER_NOTE): `owner_changed`,
 * which one connection of each server process listens to, and the writing connection itself when
 * it has set `portal.own_channel` (a server process's pool connections do: db/connection.ts), as
 * a notice. A process so hears of its own writes before their COMMIT returns, without any
 * connection of its pool listening (migrations 0650 and 0660).
 */
export const OWNER_CHANNELS = `(VALUES ('owner_changed'), (current_setting('portal.own_channel', true))) channels (channel)`;

/**
 * PostgreSQL: `owner_note(channel, payload)` notifies `owner_changed`, and sends any other channel
 * (the writing connection's own) to the writing session as a notice, `<channel> <payload>`.
 * PostgreSQL wakes every listening backend at each commit that notifies, whatever the channel it
 * listens to: with each pool connection listening to its own, every commit woke up to 22
 * backends with two processes, a quarter of PostgreSQL's CPU in a run of account creations.
 * A notice reaches only its session, during the statement (db/ownerChanges.ts, OwnNotes).
 */
export const OWNER_NOTE = `CREATE OR REPLACE FUNCTION owner_note(channel text, payload text)
  RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    IF channel = 'owner_changed' THEN
      PERFORM pg_notify(channel, payload);
    ELSE
      RAISE NOTICE '% %', channel, payload;
    END IF;
  END $$`;

/**
 * PostgreSQL's trigger function: a note on OWNER_CHANNELS once per owner of the rows
 * a statement wrote. The transition table is first reduced to the distinct values of the columns
 * the owners read, so an owner found by a lookup (an app's user) is looked up once per app, not
 * once per row: 2,000 API log rows of one app took 4 ms less to insert (migration 0270).
 */
export function postgresOwnerFunction(table: string, owners: OwnerOf[]): string {
  const columns = [...new Set(owners.flatMap((owner) => owner.columns))];
  const notify = (rows: string) => {
    // No column read (reference data, everyone's): one row stands for them all.
    const distinct =
      columns.length > 0
        ? `(SELECT DISTINCT ${columns.join(', ')} FROM ${rows}) ${rows}`
        : `(SELECT FROM ${rows} LIMIT 1) ${rows}`;
    return `PERFORM owner_note(channel, o || ' ' || TG_TABLE_NAME)
      FROM (SELECT DISTINCT o FROM ${distinct}, LATERAL (${named(owners, rows)}) owner) changed,
        ${OWNER_CHANNELS}
      WHERE o IS NOT NULL AND channel IS NOT NULL;`;
  };
  return `CREATE OR REPLACE FUNCTION ${table}_owner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM owner_note(channel, '*') FROM ${OWNER_CHANNELS} WHERE channel IS NOT NULL;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          ${notify('new_rows')}
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          ${notify('old_rows')}
        END IF;
        RETURN NULL;
      END $$`;
}

/**
 * SQLite: counts a change of `table`'s rows, which another process hears of by the count
 * (db/ownerChanges.ts, sqliteFeed). The table of counts exists from migration 0630 on.
 */
export const countChange = (table: string): string =>
  `INSERT INTO kept_table_changes (name, n) VALUES ('${table}', 1)
        ON CONFLICT (name) DO UPDATE SET n = n + 1;`;

/**
 * The triggers that name, for every row `table` writes, each owner `owners` finds (its user, and
 * for an app's rows the app too: app-scoped reads are kept under their app) with the table.
 * SQLite's also count the change, once `counted` (migration 0630 and later; 0630 rewrites the
 * triggers made before it).
 */
function ownerTriggers(
  engine: Engine,
  table: string,
  owners: OwnerOf[],
  counted: boolean,
): string[] {
  if (engine === 'sqlite') {
    // Row triggers (SQLite has no others); an update names the row's owners before and after.
    const args = counted ? `o, '${table}'` : 'o';
    const call = (r: string) =>
      `SELECT owner_changed(${args}) FROM (${named(owners, r)}) WHERE o IS NOT NULL;`;
    const count = counted ? countChange(table) : '';
    return [
      `CREATE TRIGGER ${table}_owner_insert AFTER INSERT ON ${table} BEGIN
        ${call('NEW')}
        ${count}
      END`,
      `CREATE TRIGGER ${table}_owner_update AFTER UPDATE ON ${table} BEGIN
        ${call('OLD')}
        ${call('NEW')}
        ${count}
      END`,
      `CREATE TRIGGER ${table}_owner_delete AFTER DELETE ON ${table} BEGIN
        ${call('OLD')}
        ${count}
      END`,
    ];
  }
  // Statement triggers: a bulk write notifies each user once (PostgreSQL also folds repeats of
  // one notification within a transaction). TRUNCATE names no rows: it voids everything.
  const trigger = (op: string, referencing: string) =>
    `CREATE TRIGGER ${table}_owner_${op.toLowerCase()} AFTER ${op} ON ${table} ${referencing}
      FOR EACH STATEMENT EXECUTE FUNCTION ${table}_owner_changed()`;
  return [
    postgresOwnerFunction(table, owners),
    trigger('INSERT', 'REFERENCING NEW TABLE AS new_rows'),
    trigger('UPDATE', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'),
    trigger('DELETE', 'REFERENCING OLD TABLE AS old_rows'),
    trigger('TRUNCATE', ''),
  ];
}

/** The session lookup of every authenticated request: a session and its user. */
export const SESSION_OWNERS: [string, OwnerOf[]][] = [
  ['users', [ownColumn('id')]],
  ['sessions', [ownColumn('user_id')]],
];

/** Creates the owner triggers of each table, with the owners listed for it. */
export async function addOwnerTriggers(
  db: Kysely<unknown>,
  tables: [string, OwnerOf[]][],
): Promise<void> {
  const engine = engineOf(db);
  const counted =
    engine === 'sqlite' &&
    (
      await sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kept_table_changes'`.execute(
        db,
      )
    ).rows.length > 0;
  if (engine === 'postgres') await sql.raw(OWNER_NOTE).execute(db);
  for (const [table, owners] of tables) {
    for (const statement of ownerTriggers(engine, table, owners, counted)) {
      await sql.raw(statement).execute(db);
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await addOwnerTriggers(db, SESSION_OWNERS);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
