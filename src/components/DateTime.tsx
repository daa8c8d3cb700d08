import { formatDateTime } from '../lib/format';

/** A moment in a table or a sentence: the portal's one date-time format (LLL), machine-readable too. */
export function DateTime({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}
