// Timestamps are ISO-8601 UTC strings (`Date#toISOString()`): portable between SQLite and
// PostgreSQL text columns and ordered lexicographically. Money columns end in `_micro`
// (integers of 10^-6 USDT, see domain/money.ts). Booleans are 0/1 integers.

export type Flag = 0 | 1;
