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
import { SUBSCRIPTION_STATUS } from './planAction';
import './subscriptions.scss';
import { PageTitle } from '../../components/PageTitle';

/** Hook arguments of page `page`: the list's first_page_url with the page number replaced. */
export function historyPageArg(firstPageUrl: string, page: number): ListSubscriptionsApiArg {
  const query = pageQueryFromUrl(firstPageUrl, page);
  return { page: Number(query.page ?? page) };
}

/** How a plan that shows Expired before its end date ended. */
const REPLACED_BY: Record<NonNullable<SubscriptionRow['replaced_by']>, string> = {
  upgrade: 'Replaced by an upgrade',
  downgrade: 'Replaced by a downgrade',
  switch: 'Replaced by another plan',
};

/** The purchases' columns; Action opens the row's invoice. */
function columns(
  symbol: string,
  showInvoice: (row: SubscriptionRow) => void,
): Column<SubscriptionRow>[] {
  return [
    { header: 'Package', className: 'fw-semibold', cell: (row) => row.package },
    {
      header: 'Price',
      numeric: true,
      cell: (row) => (
        <div>
          {formatMoney(row.price, symbol)}
          {row.paid !== row.price && (
            <div className="history__note">paid {formatMoney(row.paid, symbol)}</div>
          )}
        </div>
      ),
    },
    { header: 'Invoice Id', className: 'font-monospace', cell: (row) => row.invoice_id },
    {
      header: 'Status',
      cell: (row) => (
        <div>
          <StatusBadge status={row.status} names={SUBSCRIPTION_STATUS} />
          {row.replaced_by && (
            <div className="history__note">
              {REPLACED_BY[row.replaced_by]}, {formatMoney(row.credit, symbol)} credited
            </div>
          )}
        </div>
      ),
    },
    { header: 'Date', cell: (row) => formatDate(row.created_at) },
    { header: 'Name', cell: (row) => row.name },
    { header: 'Username', cell: (row) => row.username },
    {
      header: 'Action',
      cell: (row) => (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => showInvoice(row)}
          aria-label={`Invoice ${row.invoice_id}`}
        >
          Invoice
        </Button>
      ),
    },
  ];
}

const FIRST_PAGE: ListSubscriptionsApiArg = { page: 1 };

/** /app/history: the purchases with their invoices, paged. */
export default function HistoryPage() {
  const symbol = useAppSelector(selectCurrencySymbol);
  const purchases = usePagedQuery(
    enhancedSubscriptionsApi.endpoints.listSubscriptions,
    FIRST_PAGE,
    (list, number) => historyPageArg(list.data.first_page_url, number),
  );
  const [invoice, setInvoice] = useState<SubscriptionRow | null>(null);

  return (
    <div className="history">
      <PageTitle>Purchase History</PageTitle>
      <Card className="plans-card">
        <Card.Body>
          <QueryState query={purchases} what="the purchases">
            {({ data: page }) => (
              <>
                <DownloadCsvButton kind="subscriptions" />
                <DataTable
                  hover
                  className="stack-table history-table align-middle mb-0"
                  busy={purchases.isFetching}
                  columns={columns(symbol, setInvoice)}
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
