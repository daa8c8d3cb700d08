import Button from 'react-bootstrap/Button';
import type { Invoice } from '../../../api/invoices';
import type { Column } from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { InvoiceBadges } from './InvoiceBadges';
import type { Translate } from '../../../i18n/i18n';

/** An invoices table's columns (the Invoices list, a payment link's invoices); the id opens it. */
export function invoiceColumns(t: Translate, onOpen: (id: string) => void): Column<Invoice>[] {
  return [
    {
      header: t('history.invoice'),
      className: 'text-nowrap',
      cell: (invoice) => (
        <Button
          variant="link"
          className="p-0 font-monospace text-start"
          onClick={() => onOpen(invoice.id)}
          title={invoice.id}
        >
          {/* Named by the whole id; the screen shows its start. */}
          <span className="visually-hidden">{t('history.invoiceOf', { id: invoice.id })}</span>
          <span aria-hidden="true">{invoice.id.slice(0, 12)}…</span>
        </Button>
      ),
    },
    {
      header: t('inv.orderId'),
      className: 'text-break',
      cell: (invoice) => invoice.order_id ?? '----',
    },
    {
      header: t('dashboard.amount'),
      numeric: true,
      className: 'text-nowrap',
      cell: (invoice) => `${invoice.amount} ${invoice.currency}`,
    },
    {
      header: t('wallet.status'),
      className: 'status-cell',
      cell: (invoice) => <InvoiceBadges invoice={invoice} />,
    },
    {
      header: t('inv.created'),
      className: 'time-cell',
      cell: (i) => <DateTime value={i.created_at} />,
    },
    {
      header: t('inv.expires'),
      className: 'time-cell',
      cell: (i) => <DateTime value={i.expires_at} />,
    },
  ];
}
