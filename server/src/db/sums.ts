import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Engine } from './connection';

/**
 * sum() of a micro-amount column, exact on both engines however large: read as its decimal text
 * (PostgreSQL widens a bigint sum to numeric; SQLite's integer sum would come back as a rounded
 * JS number past 2^53) for `BigInt()`. No rows sum to '0', not null.
 */
export function sumMicro(value: Expression<number | null>): RawBuilder<string> {
  return sql<string>`cast(coalesce(sum(${value}), 0) as text)`;
}

/**
 * A token base-unit amount (numeric on PostgreSQL, decimal text on SQLite; null → 0) in
 * micro-units of `decimals`, rounded down like chainAmountToMicro, exact at any size: never an
 * int64 cast of the raw amount (an 18-decimal amount passes 2^63 at ~9.2 tokens). PostgreSQL
 * divides its numeric; SQLite drops the text's last decimals−6 digits (appends zeros below 6).
 * Migration 0230 keeps app_daily_usage with the same rule, written in its own SQL.
 */
export function microOfRaw(
  engine: Engine,
  raw: Expression<string | null>,
  decimals: Expression<number>,
): RawBuilder<number> {
  if (engine === 'postgres') {
    return sql<number>`coalesce(div(${raw}, power(10::numeric, ${decimals} - 6)), 0)::bigint`;
  }
  return sql<number>`coalesce(cast(case when ${decimals} >= 6
    then substr(${raw}, 1, length(${raw}) - (${decimals} - 6))
    else ${raw} || substr('000000', 1, 6 - ${decimals}) end as integer), 0)`;
}
