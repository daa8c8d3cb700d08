import type { ReactNode } from 'react';
import Table, { type TableProps } from 'react-bootstrap/Table';
import { EmptyState } from './EmptyState';

/** One column of a DataTable: its header, its cell, and the cell's class (fixed or by row). */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string | ((row: Row) => string);
}

interface Props<Row> extends TableProps {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** Each cell carries its header as data-label, for the stacked (`stack-table`) phone layout. */
  stacked?: boolean;
  busy?: boolean;
}

/** Rows under their column headers, or the spec's 'No record Found' across the columns. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  stacked = false,
  busy,
  ...table
}: Props<Row>) {
  return (
    <Table {...table}>
      <thead>
        <tr>
          {columns.map(({ header }) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody aria-busy={busy}>
        {rows.length === 0 ? (
          <EmptyState colSpan={columns.length} />
        ) : (
          rows.map((row, index) => (
            <tr key={rowKey(row, index)}>
              {columns.map(({ header, cell, className }) => (
                <td
                  key={header}
                  data-label={stacked ? header : undefined}
                  className={typeof className === 'function' ? className(row) : className}
                >
                  {cell(row)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
