import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import {
  enhancedSubscriptionsApi,
  type ListSubscriptionsApiArg,
  type SubscriptionRow,
} from '../../api/subscriptions';
import { useAppSelector } from '../../app/hooks';
import { EmptyState } from '../../components/EmptyState';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { usePagedQuery } from '../../components/usePagedQuery';
import { formatDate, formatMoney } from '../../lib/format';
import { pageQueryFromUrl } from '../../lib/pagination';
import { selectCurrencySymbol } from '../auth/sessionSlice';
import { InvoiceModal } from './components/InvoiceModal';
import { StatusBadge } from '../../components/StatusBadge';
import { SUBSCRIPTION_STATUS } from './planAction';
import './subscriptions.scss';

/** Hook arguments of page `page`: the list's first_page_url with the page number replaced. */
export function historyPageArg(firstPageUrl: string, page: number): ListSubscriptionsApiArg {
  const query = pageQueryFromUrl(firstPageUrl, page);
  return { page: Number(query.page ?? page) };
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
      <h1 className="plans__heading">Purchase History</h1>
      <Card className="plans-card">
        <Card.Body>
          <QueryState query={purchases} what="the purchases">
            {({ data: page }) => (
              <>
                <Table hover className="stack-table history-table align-middle mb-0">
                  <thead>
                    <tr>
                      <th scope="col">Package</th>
                      <th scope="col">Price</th>
                      <th scope="col">Invoice Id</th>
                      <th scope="col">Status</th>
                      <th scope="col">Date</th>
                      <th scope="col">Name</th>
                      <th scope="col">Username</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody aria-busy={purchases.isFetching}>
                    {page.data.length === 0 ? (
                      <EmptyState colSpan={8} />
                    ) : (
                      page.data.map((row) => (
                        <tr key={row.id}>
                          <td data-label="Package" className="fw-semibold">
                            {row.package}
                          </td>
                          <td data-label="Price">{formatMoney(row.price, symbol)}</td>
                          <td data-label="Invoice Id" className="font-monospace">
                            {row.invoice_id}
                          </td>
                          <td data-label="Status">
                            <StatusBadge status={row.status} names={SUBSCRIPTION_STATUS} />
                          </td>
                          <td data-label="Date">{formatDate(row.created_at)}</td>
                          <td data-label="Name">{row.name}</td>
                          <td data-label="Username">{row.username}</td>
                          <td data-label="Action">
                            <Button
                              size="sm"
                              variant="outline-primary"
                              onClick={() => setInvoice(row)}
                              aria-label={`Invoice ${row.invoice_id}`}
                            >
                              Invoice
                            </Button>
                          </td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </Table>
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
