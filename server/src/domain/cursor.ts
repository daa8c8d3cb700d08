import { sql, type Expression, type SqlBool } from 'kysely';
import { fieldInvalid } from './errors';

// The gateway's list cursors: the last row's (created_at, id), opaque to clients. Paging by this
// index stays fast however many rows an app has, where an offset would not.

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      !Number.isNaN(Date.parse(parsed[0]))
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // falls through to the refusal
  }
  throw fieldInvalid('cursor', 'The cursor is not one this API gave.');
}

/**
 * The condition for the rows after `cursor` in newest-first (created_at, id) order, on `table`'s
 * own columns (an index on them serves it). A cursor this API did not give is a 422.
 */
export function afterCursor(
  table: 'app_accounts' | 'receive_transactions' | 'send_transactions',
  cursor: string,
): Expression<SqlBool> {
  const after = decodeCursor(cursor);
  const createdAt = sql.ref(`${table}.created_at`);
  return sql<SqlBool>`(${createdAt} < ${after.createdAt} or (${createdAt} = ${after.createdAt} and ${sql.ref(`${table}.id`)} < ${after.id}))`;
}

/** A page from `limit + 1` rows read in that order, and the cursor of the next one (or null). */
export function pageOf<R extends { created_at: string; id: string }>(
  rows: R[],
  limit: number,
): { rows: R[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown,
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
