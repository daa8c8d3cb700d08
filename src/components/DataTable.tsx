import type { ReactNode } from 'react';
import Table, { type TableProps } from 'react-bootstrap/Table';
import { EmptyState } from './EmptyState';

/** One column of a data table: its header, its cell, and the cell's class (fixed or by row). */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string | ((row: Row) => string);
  /** A figure: right-aligned with tabular digits on wide screens. */
  numeric?: boolean;
}

/**
 * The class every data table carries: below Bootstrap's sm breakpoint each row becomes a card of
 * labelled lines (styles/_data-table.scss), so no column is hidden off-screen on a phone.
 */
export const DATA_TABLE_CLASS = 'data-table';

const NUMERIC_CLASS = 'data-table__num';

function classOf(...names: (string | false | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

/** The header row of a data table. */
export function DataTableHead<Row>({ columns }: { columns: readonly Column<Row>[] }) {
  return (
    <thead>
      <tr>
        {columns.map(({ header, numeric }) => (
          <th key={header} scope="col" className={classOf(numeric && NUMERIC_CLASS)}>
            {header}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** One row of a data table; each cell carries its column's header as data-label for phones. */
export function DataTableRow<Row>({ columns, row }: { columns: readonly Column<Row>[]; row: Row }) {
  return (
    <tr>
      {columns.map(({ header, cell, className, numeric }) => (
        <td
          key={header}
          data-label={header}
          className={classOf(
            typeof className === 'function' ? className(row) : className,
            numeric && NUMERIC_CLASS,
          )}
        >
          {cell(row)}
        </td>
      ))}
    </tr>
  );
}

interface Props<Row> extends TableProps {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  busy?: boolean;
}

/** Rows under their column headers, or the spec's 'No record Found' across the columns. */
export function DataTable<Row>({ columns, rows, rowKey, busy, className, ...table }: Props<Row>) {
  return (
    <Table {...table} className={classOf(DATA_TABLE_CLASS, className)}>
      <DataTableHead columns={columns} />
      <tbody aria-busy={busy}>
        {rows.length === 0 ? (
          <EmptyState colSpan={columns.length} />
        ) : (
          rows.map((row, index) => (
            <DataTableRow key={rowKey(row, index)} columns={columns} row={row} />
          ))
        )}
      </tbody>
    </Table>
  );
}
