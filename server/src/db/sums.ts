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

/** Digits of a raw amount kept in its low part (rawParts). */
const RAW_LOW_DIGITS = 10;
const RAW_LOW_SCALE = 10n ** BigInt(RAW_LOW_DIGITS);

/**
 * A token base-unit column (numeric on PostgreSQL, decimal text on SQLite) cut into two integers,
 * value = high * 10^10 + low, each 0 for null. SQLite cannot sum the text exactly (an 18-decimal
 * token passes int64 at ~9.22 tokens) but sums these parts exactly: low stays below 10^10 a row,
 * high below 10^18 for any single amount the gateway accepts, so a sum stays exact up to ~9.2e10
 * tokens of 18 decimals (past that SQLite's sum() fails loudly, never rounds). Aggregate each with
 * sumMicro and join the sums with joinRawParts.
 */
export function rawParts(
  engine: Engine,
  value: Expression<string | null>,
): { high: RawBuilder<number>; low: RawBuilder<number> } {
  if (engine === 'postgres') {
    const scale = sql.lit(RAW_LOW_SCALE.toString());
    return {
      high: sql<number>`coalesce(div(${value}, ${scale}), 0)`,
      low: sql<number>`coalesce(mod(${value}, ${scale}), 0)`,
    };
  }
  const digits = sql.lit(RAW_LOW_DIGITS);
  return {
    high: sql<number>`(case when length(${value}) > ${digits} then cast(substr(${value}, 1, length(${value}) - ${digits}) as integer) else 0 end)`,
    low: sql<number>`coalesce(cast(substr(${value}, -${digits}) as integer), 0)`,
  };
}

/** The exact total of summed rawParts (their sumMicro texts). */
export function joinRawParts(high: string, low: string): bigint {
  return BigInt(high) * RAW_LOW_SCALE + BigInt(low);
}
