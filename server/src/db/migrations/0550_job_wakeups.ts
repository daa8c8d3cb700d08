import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/**
 * PostgreSQL: a job row that becomes due now (added, or a recurring one asked to run now) sends
 * `pg_notify('job_due', kind)`, delivered on commit to every server process's worker, which
 * claims it at once instead of at its next poll (jobs/wakeups.ts). Only rows due by the
 * database's clock: a recurring job put back for its next turn, or a retry scheduled later,
 * wakes nobody. SQLite's processes wake their own worker in process (jobs/queue.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`CREATE FUNCTION jobs_due() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('job_due', NEW.kind);
        RETURN NULL;
      END $$`.execute(db);
  await sql`CREATE TRIGGER jobs_due AFTER INSERT OR UPDATE OF run_at ON jobs FOR EACH ROW
      WHEN (NEW.state = 'queued'
        AND NEW.run_at <= (extract(epoch from clock_timestamp()) * 1000)::bigint)
      EXECUTE FUNCTION jobs_due()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
