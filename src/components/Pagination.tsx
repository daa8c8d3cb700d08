import BsPagination from 'react-bootstrap/Pagination';
import { pageWindow } from '../lib/pagination';

export interface PageMeta {
  current_page: number;
  last_page: number;
  from?: number | null;
  to?: number | null;
  total: number;
}

interface Props {
  meta: PageMeta;
  onPageChange: (page: number) => void;
  disabled?: boolean;
}

/** 'Showing x to y of z results', first/last, up to 3 page links either side of the current page. */
export function Pagination({ meta, onPageChange, disabled }: Props) {
  const { current_page: current, last_page: last, total } = meta;
  if (total === 0) return null;
  const go = (page: number) => {
    if (!disabled && page !== current && page >= 1 && page <= last) onPageChange(page);
  };
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
      <small className="text-muted">
        Showing {meta.from ?? 0} to {meta.to ?? 0} of {total} results
      </small>
      <BsPagination size="sm" className="mb-0" aria-label="Pagination">
        <BsPagination.First aria-label="First page" disabled={current <= 1} onClick={() => go(1)} />
        {pageWindow(current, last).map((page) => (
          <BsPagination.Item
            key={page}
            active={page === current}
            aria-label={`Page ${page}`}
            onClick={() => go(page)}
          >
            {page}
          </BsPagination.Item>
        ))}
        <BsPagination.Last
          aria-label="Last page"
          disabled={current >= last}
          onClick={() => go(last)}
        />
      </BsPagination>
    </div>
  );
}
