import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import {
  DATA_TABLE_CLASS,
  DataTableHead,
  DataTableRow,
  type Column,
} from '../../../components/DataTable';
import { Pagination, type PageMeta } from '../../../components/Pagination';
import { QueryState } from '../../../components/QueryState';

interface Props<T> {
  caption: string;
  columns: readonly Column<T>[];
  rowKey: (item: T) => string | number;
  page: (PageMeta & { data: T[] }) | undefined;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
  isFetching: boolean;
  onPageChange: (page: number) => void;
  /** Keeps the last column (the row actions) in view while the table scrolls sideways. */
  stickyActions?: boolean;
  /** Wrapped headers, tighter cells: a table of many figure columns fits without scrolling. */
  compact?: boolean;
}

/** A paged list of the app detail: table, 'No record Found', the shared pagination. */
export function ListTable<T>({
  caption,
  columns,
  rowKey,
  page,
  isLoading,
  isError,
  refetch,
  isFetching,
  onPageChange,
  stickyActions = false,
  compact = false,
}: Props<T>) {
  return (
    <>
      <Card className="table-card">
        <Card.Body>
          <div
            className={[
              'table-responsive list-table',
              stickyActions && 'list-table--sticky-actions',
              compact && 'list-table--compact',
            ]
              .filter(Boolean)
              .join(' ')}
            aria-busy={isFetching}
          >
            <Table hover size="sm" className={`${DATA_TABLE_CLASS} align-middle mb-0`}>
              <caption className="visually-hidden">{caption}</caption>
              <DataTableHead columns={columns} />
              <tbody>
                <QueryState
                  query={{ data: page, isLoading, isError, refetch }}
                  what={caption}
                  colSpan={columns.length}
                  isEmpty={(rows) => rows.data.length === 0}
                >
                  {(rows) =>
                    rows.data.map((item) => (
                      <DataTableRow key={rowKey(item)} columns={columns} row={item} />
                    ))
                  }
                </QueryState>
              </tbody>
            </Table>
          </div>
        </Card.Body>
      </Card>
      {page && <Pagination meta={page} onPageChange={onPageChange} disabled={isFetching} />}
    </>
  );
}
