import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import {
  enhancedSubscriptionsApi,
  type ListSubscriptionsApiArg,
  type SubscriptionRow,
} from '../../api/subscriptions';
import { useAppSelector } from '../../app/hooks';
import { DataTable, type Column } from '../../components/DataTable';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { usePagedQuery } from '../../components/usePagedQuery';
import { formatDate, formatMoney } from '../../lib/format';
import { pageQueryFromUrl } from '../../lib/pagination';
import { selectCurrencySymbol } from '../../app/session/sessionSlice';
import { InvoiceModal } from './components/InvoiceModal';
import { StatusBadge } from '../../components/StatusBadge';
import { subscriptionStatus } from './planAction';
import './subscriptions.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT, type MessageKey, type Translate } from '../../i18n/i18n';

/** Hook arguments of page `page`: the list's first_page_url with the page number replaced. */
export function historyPageArg(firstPageUrl: string, page: number): ListSubscriptionsApiArg {
  const query = pageQueryFromUrl(firstPageUrl, page);
  return { page: Number(query.page ?? page) };
}

/** How a plan that shows Expired before its end date ended. */
const REPLACED_BY: Record<NonNullable<SubscriptionRow['replaced_by']>, MessageKey> = {
  upgrade: 'history.byUpgrade',
  downgrade: 'history.byDowngrade',
  switch: 'history.bySwitch',
};

/** The purchases' columns; Action opens the row's invoice. */
function columns(
  t: Translate,
  symbol: string,
  showInvoice: (row: SubscriptionRow) => void,
): Column<SubscriptionRow>[] {
  return [
    { header: t('history.package'), className: 'fw-semibold', cell: (row) => row.package },
    {
      header: t('history.price'),
      numeric: true,
      cell: (row) => (
        <div>
          {formatMoney(row.price, symbol)}
          {row.paid !== row.price && (
            <div className="history__note">
              {t('history.paid', { amount: formatMoney(row.paid, symbol) })}
            </div>
          )}
        </div>
      ),
    },
    { header: t('history.invoiceId'), className: 'font-monospace', cell: (row) => row.invoice_id },
    {
      header: t('wallet.status'),
      cell: (row) => (
        <div>
          <StatusBadge status={row.status} names={subscriptionStatus(t)} />
          {row.replaced_by && (
            <div className="history__note">
              {t('history.credited', {
                reason: t(REPLACED_BY[row.replaced_by]),
                amount: formatMoney(row.credit, symbol),
              })}
            </div>
          )}
        </div>
      ),
    },
    { header: t('history.date'), cell: (row) => formatDate(row.created_at) },
    { header: t('history.name'), cell: (row) => row.name },
    { header: t('history.username'), cell: (row) => row.username },
    {
      header: t('history.action'),
      cell: (row) => (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => showInvoice(row)}
          aria-label={t('history.invoiceOf', { id: row.invoice_id })}
        >
          {t('history.invoice')}
        </Button>
      ),
    },
  ];
}

const FIRST_PAGE: ListSubscriptionsApiArg = { page: 1 };

/** /app/history: the purchases with their invoices, paged. */
export default function HistoryPage() {
  const t = useT();
  const symbol = useAppSelector(selectCurrencySymbol);
  const purchases = usePagedQuery(
    enhancedSubscriptionsApi.endpoints.listSubscriptions,
    FIRST_PAGE,
    (list, number) => historyPageArg(list.data.first_page_url, number),
  );
  const [invoice, setInvoice] = useState<SubscriptionRow | null>(null);

  return (
    <div className="history">
      <PageTitle>{t('title.history')}</PageTitle>
      <Card className="plans-card">
        <Card.Body>
          <QueryState query={purchases} what={t('history.what')}>
            {({ data: page }) => (
              <>
                <DownloadCsvButton kind="subscriptions" />
                <DataTable
                  hover
                  className="stack-table history-table align-middle mb-0"
                  busy={purchases.isFetching}
                  columns={columns(t, symbol, setInvoice)}
                  rows={page.data}
                  rowKey={(row) => row.id}
                />
                <Pagination
                  meta={page}
                  onPageChange={(number) => void purchases.onPageChange(number)}
                  disabled={purchases.isChangingPage}
                />
              </>
            )}
          </QueryState>
        </Card.Body>
      </Card>
      <InvoiceModal row={invoice} onHide={() => setInvoice(null)} />
    </div>
  );
}
