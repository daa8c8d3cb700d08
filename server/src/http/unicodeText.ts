/**
 * A JSON body's strings must be Unicode text (as I-JSON, RFC 7493, asks). JSON's `\u` escapes can
 * write half of a UTF-16 surrogate pair, which no UTF-8 text holds: PostgreSQL refuses such a
 * string and SQLite would store it altered, so a body holding one is refused as not valid JSON.
 * Only an escape can write one (a body's bytes are read as UTF-8), so only a body with a
 * surrogate's escape needs looking through.
 */
export const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** A high surrogate with no low one after it, or a low one with no high one before it. */
const HALF_PAIR = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const wellFormed = (text: string) => !HALF_PAIR.test(text);

/**
 * Whether every string in `value`, object keys included, is well-formed Unicode text. Looked
 * through without recursion or spreads: a body may nest deeper, or hold longer arrays, than the
 * call stack takes.
 */
export function wholeText(value: unknown): boolean {
  const left: unknown[] = [value];
  while (left.length > 0) {
    const item = left.pop();
    if (typeof item === 'string') {
      if (!wellFormed(item)) return false;
    } else if (Array.isArray(item)) {
      for (const inner of item) left.push(inner);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (!wellFormed(key)) return false;
        left.push(inner);
      }
    }
  }
  return true;
}
