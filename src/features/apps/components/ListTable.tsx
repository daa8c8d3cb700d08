import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Pagination, type PageMeta } from '../../../components/Pagination';
import { QueryState } from '../../../components/QueryState';

interface Props<T> {
  caption: string;
  columns: readonly string[];
  page: (PageMeta & { data: T[] }) | undefined;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
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
  isError,
  refetch,
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
            <QueryState
              query={{ data: page, isLoading, isError, refetch }}
              what={caption}
              colSpan={columns.length}
              isEmpty={(rows) => rows.data.length === 0}
            >
              {(rows) => rows.data.map(row)}
            </QueryState>
          </tbody>
        </Table>
      </div>
      {page && <Pagination meta={page} onPageChange={onPageChange} disabled={isFetching} />}
    </>
  );
}
