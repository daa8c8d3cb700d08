import { sql, type Expression, type SqlBool } from 'kysely';
import { fieldInvalid } from './errors';

// The gateway's list cursors: the list's name and the last row's (created_at, id), opaque to
// clients. Paging by this index stays fast however many rows an app has, where an offset would
// not. The name makes a cursor of one list a refusal in another instead of a position there.

/** The lists that page by cursor, by the table they read. */
const LIST_OF = {
  app_accounts: 'accounts',
  receive_transactions: 'deposits',
  send_transactions: 'withdrawals',
  invoices: 'invoices',
  payment_links: 'payment-links',
  refunds: 'refunds',
} as const;

type PagedTable = keyof typeof LIST_OF;

function encodeCursor(table: PagedTable, createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([LIST_OF[table], createdAt, id])).toString('base64url');
}

/** A row position: its created_at (a time) and id. */
function position(createdAt: unknown, id: unknown): { createdAt: string; id: string } | null {
  return typeof createdAt === 'string' &&
    typeof id === 'string' &&
    !Number.isNaN(Date.parse(createdAt))
    ? { createdAt, id }
    : null;
}

function decodeCursor(table: PagedTable, cursor: string): { createdAt: string; id: string } {
  const list = LIST_OF[table];
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // falls through to the refusal
  }
  if (Array.isArray(parsed) && parsed.length === 3) {
    const [name, createdAt, id] = parsed as unknown[];
    const at = position(createdAt, id);
    if (at && name === list) return at;
    if (at && Object.values<unknown>(LIST_OF).includes(name)) {
      throw fieldInvalid(
        'cursor',
        `This cursor belongs to GET /${String(name)}, not GET /${list}: pass the next_cursor ` +
          `of a GET /${list} page, or leave cursor out for the first page.`,
      );
    }
  }
  // [created_at, id]: what cursors were before they named their list.
  if (Array.isArray(parsed) && parsed.length === 2 && position(parsed[0], parsed[1])) {
    throw fieldInvalid(
      'cursor',
      'This cursor was given by an earlier version of the gateway: leave cursor out to start ' +
        'again from the first page.',
    );
  }
  throw fieldInvalid(
    'cursor',
    'The cursor is not one this API gave: pass the next_cursor of the previous page, or leave ' +
      'cursor out for the first page.',
  );
}

/**
 * The condition for the rows after `cursor` in newest-first (created_at, id) order, on `table`'s
 * own columns (an index on them serves it). A cursor this API did not give is a 422.
 */
export function afterCursor(table: PagedTable, cursor: string): Expression<SqlBool> {
  const after = decodeCursor(table, cursor);
  const createdAt = sql.ref(`${table}.created_at`);
  return sql<SqlBool>`(${createdAt} < ${after.createdAt} or (${createdAt} = ${after.createdAt} and ${sql.ref(`${table}.id`)} < ${after.id}))`;
}

/**
 * A page of `table`'s list from `limit + 1` rows read in that order, and the cursor of the next
 * one (or null).
 */
export function pageOf<R extends { created_at: string; id: string }>(
  table: PagedTable,
  rows: R[],
  limit: number,
): { rows: R[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown,
    nextCursor: rows.length > limit && last ? encodeCursor(table, last.created_at, last.id) : null,
  };
}
