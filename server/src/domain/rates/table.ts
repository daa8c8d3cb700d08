import type { Db } from '../../db/connection';
import { isDecimalText, parseDecimal } from '../decimal';
import { InvalidError } from '../errors';

// The operator's rate table: pairs no feed covers (and every pair on the local chain), set with
// `npm run admin -- rate set EUR/USD 1.08`. Each rate keeps the time it was set and how long it
// may price an invoice after that; past it, the pair has no fresh rate from the table.

/** How long a rate set without saying stays fresh. */
export const DEFAULT_TABLE_MAX_AGE_HOURS = 24;

const PAIR = /^([A-Z][A-Z0-9]{1,9})\/([A-Z][A-Z0-9]{1,9})$/;
/** Digits a table rate may have: enough for any price, few enough to read back. */
const RATE = /^\d{1,15}(\.\d{1,18})?$/;

export interface TableRate {
  pair: string;
  rate: string;
  setAt: string;
  maxAgeSeconds: number;
}

/** Sets (or replaces) the rate of `pair` (`BASE/QUOTE`: one BASE costs `rate` QUOTE). */
export async function setTableRate(
  db: Db,
  input: { pair: string; rate: string; maxAgeHours: number; now: Date },
): Promise<TableRate> {
  const pair = input.pair.trim().toUpperCase();
  const match = PAIR.exec(pair);
  if (!match || match[1] === match[2]) {
    throw new InvalidError(
      `'${input.pair}' is not a pair: write BASE/QUOTE with two different codes, like EUR/USD.`,
    );
  }
  if (
    !RATE.test(input.rate) ||
    !isDecimalText(input.rate) ||
    parseDecimal(input.rate).units <= 0n
  ) {
    throw new InvalidError(
      `'${input.rate}' is not a rate: write a decimal above 0 with at most 18 decimals, like 1.08.`,
    );
  }
  if (!Number.isInteger(input.maxAgeHours) || input.maxAgeHours < 1 || input.maxAgeHours > 8760) {
    throw new InvalidError('The rate stays fresh for a whole number of hours, from 1 to 8760.');
  }
  const row = {
    pair,
    rate: input.rate,
    set_at: input.now.toISOString(),
    max_age_seconds: input.maxAgeHours * 3600,
  };
  await db
    .insertInto('rate_table')
    .values(row)
    .onConflict((oc) =>
      oc.column('pair').doUpdateSet({
        rate: row.rate,
        set_at: row.set_at,
        max_age_seconds: row.max_age_seconds,
      }),
    )
    .execute();
  return { pair, rate: row.rate, setAt: row.set_at, maxAgeSeconds: row.max_age_seconds };
}

/** Every rate of the table, by pair. */
export async function tableRates(db: Db, pairs?: readonly string[]): Promise<TableRate[]> {
  if (pairs?.length === 0) return [];
  const rows = await db
    .selectFrom('rate_table')
    .selectAll()
    .$if(pairs !== undefined, (q) => q.where('pair', 'in', pairs ?? []))
    .orderBy('pair')
    .execute();
  return rows.map((r) => ({
    pair: r.pair,
    rate: r.rate,
    setAt: r.set_at,
    maxAgeSeconds: r.max_age_seconds,
  }));
}
