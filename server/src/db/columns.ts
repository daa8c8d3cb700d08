import { sql, type Kysely } from 'kysely';
import { engineOf } from './connection';

/**
 * Column types of the migrations, per engine. SQLite keeps what it always had (text times, integer
 * amounts). PostgreSQL gets real types: timestamptz, bigint micro-USDT, numeric(78,0) on-chain raw
 * amounts (an 18-decimal token passes int64 at ~9.22 tokens), jsonb; connection.ts reads them back
 * in the same shapes as SQLite, so queries and domain code are one for both engines.
 */
export function columnTypes(db: Kysely<unknown>) {
  const pg = engineOf(db) === 'postgres';
  return {
    /** An instant, written as an ISO-8601 UTC string. */
    time: pg ? 'timestamptz' : 'text',
    /** A calendar day, YYYY-MM-DD. */
    date: pg ? 'date' : 'text',
    /** Integers of 10^-6 USDT. */
    micro: pg ? 'bigint' : 'integer',
    /** A token's base units, any size, as a decimal string. */
    rawAmount: pg ? sql`numeric(78, 0)` : 'text',
    json: pg ? 'jsonb' : 'text',
    /** A percentage such as a plan's fee (not money). */
    real: pg ? 'double precision' : 'real',
    /** Block numbers and epoch milliseconds. */
    bigint: 'bigint',
  } as const;
}
