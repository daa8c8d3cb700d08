import { fieldInvalid } from '../errors';
import { BOM, csvRecords } from './csv';
import {
  EXPORT_KINDS,
  isExportKind,
  type ExportKind,
  type ExportKindName,
  type InvoiceListFilter,
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
  /** The Invoices tab's status and order id, for the invoices kind. */
  invoiceFilter: InvoiceListFilter;
}

const INVOICE_STATUSES: readonly string[] = ['new', 'processing', 'settled', 'expired', 'invalid'];
const isInvoiceStatus = (value: string): value is NonNullable<InvoiceListFilter['status']> =>
  INVOICE_STATUSES.includes(value);

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
  status?: string;
  orderId?: string;
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
  const invoiceFilter: InvoiceListFilter = {};
  if (input.status !== undefined || input.orderId !== undefined) {
    if (input.kind !== 'invoices') {
      throw fieldInvalid(
        input.status === undefined ? 'order_id' : 'status',
        'Only the invoices list is filtered by status and order id.',
      );
    }
    if (input.status !== undefined) {
      if (!isInvoiceStatus(input.status)) {
        throw fieldInvalid('status', `status must be one of ${INVOICE_STATUSES.join(', ')}.`);
      }
      invoiceFilter.status = input.status;
    }
    if (input.orderId !== undefined) invoiceFilter.orderId = input.orderId;
  }
  return { name: input.kind, kind, version, range, invoiceFilter };
}

/** The CSV text of an export: the header line (after a BOM when asked), then each chunk's rows. */
export async function* exportCsv(
  source: Omit<ReadQuery, 'range'>,
  plan: ExportPlan,
  options: { bom: boolean; chunkSize?: number },
): AsyncGenerator<string> {
  const names = plan.kind.versions[plan.version - 1] ?? [];
  yield `${options.bom ? BOM : ''}${csvRecords([[...names]])}`;
  const q: ReadQuery = { ...source, range: plan.range, invoiceFilter: plan.invoiceFilter };
  for await (const records of plan.kind.chunks(
    q,
    plan.version,
    options.chunkSize ?? EXPORT_CHUNK,
  )) {
    yield csvRecords(records);
  }
}
