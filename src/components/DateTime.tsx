import { useT } from '../i18n/i18n';
import { formatDateTime } from '../lib/format';

/** A moment in a table or a sentence: the portal's one date-time format (LLL), machine-readable too. */
export function DateTime({ value }: { value: string }) {
  // Subscribed to the language: a new one (and moment's locale with it) draws the date again.
  useT();
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}
