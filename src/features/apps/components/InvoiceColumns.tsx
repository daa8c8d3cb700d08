import Button from 'react-bootstrap/Button';
import type { Invoice } from '../../../api/invoices';
import type { Column } from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { InvoiceBadges } from './InvoiceBadges';
import type { Translate } from '../../../i18n/i18n';

/** Order ids up to this long stay on one line where the rows are a table. */
const ONE_LINE_ID = 24;

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
      cell: (invoice) => {
        const id = invoice.order_id;
        if (id === null) return '----';
        // A short id on one line: a narrow column (Japanese's) would split 'ORD-5010' at its
        // hyphen. A long one (up to 128 characters) wraps, rather than widen the table.
        return id.length <= ONE_LINE_ID ? <span className="one-line-id">{id}</span> : id;
      },
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
