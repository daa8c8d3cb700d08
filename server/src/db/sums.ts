import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * sum() of an integer column as an integer on both engines. PostgreSQL widens a bigint sum to
 * numeric, which pg reads as a string; the cast brings it back to bigint, read as a checked
 * number (connection.ts). SQLite's sum of integers already is one. No rows sum to 0, not null.
 */
export function sumInt(value: Expression<number>): RawBuilder<number> {
  return sql<number>`cast(coalesce(sum(${value}), 0) as bigint)`;
}
