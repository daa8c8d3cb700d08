import { fieldInvalid } from './errors';

// The gateway's list cursors: the last row's (created_at, id), opaque to clients. Paging by this
// index stays fast however many rows an app has, where an offset would not.

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
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
