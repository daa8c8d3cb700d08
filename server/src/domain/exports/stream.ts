import { fieldInvalid } from '../errors';
import { BOM, csvRecords } from './csv';
import {
  EXPORT_KINDS,
  isExportKind,
  type ExportKind,
  type ExportKindName,
  type Range,
  type ReadQuery,
} from './kinds';

// An export as CSV text, chunk by chunk: one statement per chunk of rows (keyset-paged on the
// list's own order), so memory holds one chunk whatever the row count, and no read holds a
// connection while the client is slow to take the bytes.

/** Rows per statement and per piece of the answer. */
export const EXPORT_CHUNK = 1_000;

/** An export a caller asked for, checked: its kind, the version of its columns, its range. */
export interface ExportPlan {
  name: ExportKindName;
  kind: ExportKind;
  version: number;
  range: Range;
}

/** The newest version of a kind's columns: the default. */
export const latestVersion = (kind: ExportKind): number => kind.versions.length;

/**
 * The caller's kind, version and range checked, each refusal naming the field: an unknown kind
 * or version, a time that is not one, `from` after `to`.
 */
export function planExport(input: {
  kind: string;
  version?: number;
  from?: string;
  to?: string;
}): ExportPlan {
  if (!isExportKind(input.kind)) {
    throw fieldInvalid(
      'kind',
      `There is no export '${input.kind}': use one of ${Object.keys(EXPORT_KINDS).join(', ')}.`,
    );
  }
  const kind = EXPORT_KINDS[input.kind];
  const version = input.version ?? latestVersion(kind);
  if (!Number.isInteger(version) || version < 1 || version > latestVersion(kind)) {
    throw fieldInvalid(
      'version',
      `The ${input.kind} export has versions 1 to ${latestVersion(kind)}, not ${version}.`,
    );
  }
  const range: Range = {};
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const time = new Date(value);
    if (Number.isNaN(time.getTime())) {
      throw fieldInvalid(field, `${field} must be a date-time, like "2026-11-01T09:00:00Z".`);
    }
    range[field] = time.toISOString();
  }
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    throw fieldInvalid('to', 'to must not be before from.');
  }
  return { name: input.kind, kind, version, range };
}

/** The CSV text of an export: the header line (after a BOM when asked), then each chunk's rows. */
export async function* exportCsv(
  source: Omit<ReadQuery, 'range'>,
  plan: ExportPlan,
  options: { bom: boolean; chunkSize?: number },
): AsyncGenerator<string> {
  const names = plan.kind.versions[plan.version - 1] ?? [];
  yield `${options.bom ? BOM : ''}${csvRecords([[...names]])}`;
  const q: ReadQuery = { ...source, range: plan.range };
  for await (const records of plan.kind.chunks(
    q,
    plan.version,
    options.chunkSize ?? EXPORT_CHUNK,
  )) {
    yield csvRecords(records);
  }
}
