import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * sum() of a micro-amount column, exact on both engines however large: read as its decimal text
 * (PostgreSQL widens a bigint sum to numeric; SQLite's integer sum would come back as a rounded
 * JS number past 2^53) for `BigInt()`. No rows sum to '0', not null.
 */
export function sumMicro(value: Expression<number | null>): RawBuilder<string> {
  return sql<string>`cast(coalesce(sum(${value}), 0) as text)`;
}
