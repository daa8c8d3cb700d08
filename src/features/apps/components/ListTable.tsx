import type { ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { EmptyState } from '../../../components/EmptyState';
import { Pagination, type PageMeta } from '../../../components/Pagination';

interface Props<T> {
  caption: string;
  columns: readonly string[];
  page: (PageMeta & { data: T[] }) | undefined;
  isLoading: boolean;
  isFetching: boolean;
  onPageChange: (page: number) => void;
  row: (item: T) => ReactNode;
  /** Keeps the last column (the row actions) in view while the table scrolls sideways. */
  stickyActions?: boolean;
}

/** A paged list of the app detail: table, 'No record Found', the shared pagination. */
export function ListTable<T>({
  caption,
  columns,
  page,
  isLoading,
  isFetching,
  onPageChange,
  row,
  stickyActions = false,
}: Props<T>) {
  return (
    <>
      <div
        className={`table-responsive list-table${stickyActions ? ' list-table--sticky-actions' : ''}`}
        aria-busy={isFetching}
      >
        <Table hover size="sm" className="align-middle bg-white mb-0">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="text-nowrap">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {isLoading && (
              <tr>
                <td colSpan={columns.length} className="text-center py-4">
                  <Spinner size="sm" role="status" aria-label="Loading" />
                </td>
              </tr>
            )}
            {page?.data.length === 0 && <EmptyState colSpan={columns.length} />}
            {page?.data.map(row)}
          </tbody>
        </Table>
      </div>
      {page && <Pagination meta={page} onPageChange={onPageChange} disabled={isFetching} />}
    </>
  );
}
