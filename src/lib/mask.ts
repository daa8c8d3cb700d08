/** Transaction ids are shown as the first 5 characters, ****, and the last 5. */
export function maskTnx(tnx: string): string {
  if (tnx.length <= 10) return tnx;
  return `${tnx.slice(0, 5)}****${tnx.slice(-5)}`;
}

/** Keeps `head` and `tail` characters with an ellipsis between (addresses, hashes). */
export function shorten(value: string, head: number, tail: number): string {
  if (value.length <= head + tail + 3) return value;
  return `${value.slice(0, head)}...${value.slice(-tail)}`;
}

export const MASKED_BALANCE = '******';
