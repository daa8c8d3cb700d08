import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { EmptyState } from './EmptyState';
import { useT } from '../i18n/i18n';

/** What QueryState reads of an RTK Query hook's result. */
interface QueryResult<T> {
  data?: T;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
}

interface Props<T> {
  query: QueryResult<T>;
  /**
   * What is read, translated, as it fills in query.loading ('Loading the wallet') and
   * query.failed ('The wallet could not be loaded.').
   */
  what: string;
  /** True when the answer has nothing to list: 'No record Found' shows instead of the children. */
  isEmpty?: (data: T) => boolean;
  /** Inside a table body: every state is one row across this many columns. */
  colSpan?: number;
  children: (data: T) => ReactNode;
}

/** A message that starts with the value it fills in ('the wallet could…') starts a sentence. */
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The one loading indicator: 'Loading the wallet' to assistive technology. */
export function Loading({ label, small }: { label: string; small?: boolean }) {
  return <Spinner size={small ? 'sm' : undefined} role="status" aria-label={label} />;
}

/**
 * A read's first load, its failure (with a retry) and its empty answer, the same on every screen;
 * the children render the answer once it is there. A refetch keeps the answer on screen.
 */
export function QueryState<T>({ query, what, isEmpty, colSpan, children }: Props<T>) {
  const t = useT();
  const { data, isLoading, isError, refetch } = query;
  // Keyed: without a key React reuses the block's element for the answer's first one, so the
  // browser sees the loading block's box move and counts a layout shift (the dashboard's 0.014).
  const block = (content: ReactNode) =>
    colSpan ? (
      <tr key="query-state">
        <td colSpan={colSpan} className="text-center py-4">
          {content}
        </td>
      </tr>
    ) : (
      <div key="query-state" className="text-center py-5">
        {content}
      </div>
    );

  if (isLoading)
    return block(<Loading label={t('query.loading', { what })} small={colSpan !== undefined} />);
  if (data !== undefined) {
    if (!isEmpty?.(data)) return children(data);
    return colSpan ? (
      <EmptyState colSpan={colSpan} />
    ) : (
      <div className="card">
        <EmptyState />
      </div>
    );
  }
  if (!isError) return null;
  return block(
    <>
      <p className="text-muted">{capitalized(t('query.failed', { what }))}</p>
      <Button
        variant="outline-primary"
        size={colSpan ? 'sm' : undefined}
        onClick={() => void refetch()}
      >
        {t('query.retry')}
      </Button>
    </>,
  );
}
