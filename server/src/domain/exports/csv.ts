import { stringify } from 'csv-stringify/sync';

// CSV as RFC 4180 writes it (csv-stringify quotes; CRLF ends every record), in UTF-8, with a
// byte-order mark on request so Excel reads the text as UTF-8.

/** A cell as the kinds give it: text, or null for an empty cell. */
export type Cell = string | null;

/** U+FEFF, which Excel takes as "this file is UTF-8". */
export const BOM = '\ufeff';

/** An exact decimal number: no spreadsheet reads one as a formula, so a minus sign stays. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** The first characters that make a spreadsheet evaluate a cell (or hide one) as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cell made inert: text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets
 * a leading apostrophe, so no spreadsheet runs it as a formula (OWASP's CSV-injection rule).
 * An exact decimal number such as `-12.5` is left as it is: it is a number, not a formula.
 */
export function inert(cell: Cell): string {
  if (cell === null) return '';
  if (FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell)) return `'${cell}`;
  return cell;
}

/** Records as CSV text, each ended by CRLF, every cell made inert first. */
export function csvRecords(records: readonly (readonly Cell[])[]): string {
  if (records.length === 0) return '';
  return stringify(
    records.map((record) => record.map(inert)),
    // A field holding any line break is quoted, a lone LF or CR included (RFC 4180's CRLF only
    // would leave those bare, and spreadsheets would split the record there).
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
