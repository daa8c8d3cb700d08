import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Pagination } from '../../../components/Pagination';
import { QueryState } from '../../../components/QueryState';
import type { ListName } from '../appRules';
import { usePagedList } from './usePagedList';

type Page<L extends ListName> = NonNullable<ReturnType<typeof usePagedList<L>>['page']>;

interface Props<L extends ListName> {
  appId: string;
  /** Which paged list of the app detail. */
  list: L;
  caption: string;
  columns: readonly string[];
  row: (item: Page<L>['data'][number]) => ReactNode;
  /** Keeps the last column (the row actions) in view while the table scrolls sideways. */
  stickyActions?: boolean;
}

/** A paged list of the app detail: table, 'No record Found', the shared pagination. */
export function ListTable<L extends ListName>({
  appId,
  list,
  caption,
  columns,
  row,
  stickyActions = false,
}: Props<L>) {
  const { page, isLoading, isError, refetch, isFetching, onPageChange } = usePagedList(appId, list);
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
