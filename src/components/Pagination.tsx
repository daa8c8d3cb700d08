import BsPagination from 'react-bootstrap/Pagination';
import { pageWindow } from '../lib/pagination';
import { useT } from '../i18n/i18n';

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
  const t = useT();
  const { current_page: current, last_page: last, total } = meta;
  if (total === 0) return null;
  const go = (page: number) => {
    if (!disabled && page !== current && page >= 1 && page <= last) onPageChange(page);
  };
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
      <small className="text-muted">
        {t('page.showing', { from: meta.from ?? 0, to: meta.to ?? 0, total })}
      </small>
      <BsPagination size="sm" className="mb-0" aria-label={t('page.nav')}>
        {/* Items rather than react-bootstrap's First and Last, whose hidden words are English. */}
        <BsPagination.Item
          aria-label={t('page.first')}
          disabled={current <= 1}
          onClick={() => go(1)}
        >
          <span aria-hidden="true">«</span>
        </BsPagination.Item>
        {pageWindow(current, last).map((page) => (
          <BsPagination.Item
            key={page}
            active={page === current}
            activeLabel={t('page.current')}
            aria-label={t('page.number', { page })}
            onClick={() => go(page)}
          >
            {page}
          </BsPagination.Item>
        ))}
        <BsPagination.Item
          aria-label={t('page.last')}
          disabled={current >= last}
          onClick={() => go(last)}
        >
          <span aria-hidden="true">»</span>
        </BsPagination.Item>
      </BsPagination>
    </div>
  );
}
