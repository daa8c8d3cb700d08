import type { ReactNode } from 'react';
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
      {/* Bootstrap's classes on plain elements: react-bootstrap's First and Last name themselves
          to screen readers in English, and its items are links acting as buttons. */}
      <ul className="pagination pagination-sm mb-0" aria-label={t('page.nav')}>
        <PageItem label={t('page.first')} disabled={current <= 1} onClick={() => go(1)}>
          <span aria-hidden="true">«</span>
        </PageItem>
        {pageWindow(current, last).map((page) => (
          <PageItem
            key={page}
            label={t('page.number', { page })}
            active={page === current}
            onClick={() => go(page)}
          >
            {page}
            {page === current && <span className="visually-hidden">{t('page.current')}</span>}
          </PageItem>
        ))}
        <PageItem label={t('page.last')} disabled={current >= last} onClick={() => go(last)}>
          <span aria-hidden="true">»</span>
        </PageItem>
      </ul>
    </div>
  );
}

/** One item: a button, or, for the current page and an end already reached, its text alone. */
function PageItem({
  label,
  active = false,
  disabled = false,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <li className={`page-item${active ? ' active' : ''}${disabled ? ' disabled' : ''}`}>
      {active || disabled ? (
        // A span takes no aria-label (axe: aria-prohibited-attr): its name is hidden text.
        <span className="page-link" aria-current={active ? 'page' : undefined}>
          <span aria-hidden="true">{children}</span>
          <span className="visually-hidden">{label}</span>
        </span>
      ) : (
        <button type="button" className="page-link" aria-label={label} onClick={onClick}>
          {children}
        </button>
      )}
    </li>
  );
}
