import Button from 'react-bootstrap/Button';
import type { Invoice } from '../../../api/invoices';
import type { Column } from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { InvoiceBadges } from './InvoiceBadges';

/** An invoices table's columns (the Invoices list, a payment link's invoices); the id opens it. */
export function invoiceColumns(onOpen: (id: string) => void): Column<Invoice>[] {
  return [
    {
      header: 'Invoice',
      className: 'text-nowrap',
      cell: (invoice) => (
        <Button
          variant="link"
          className="p-0 font-monospace text-start"
          onClick={() => onOpen(invoice.id)}
          title={invoice.id}
        >
          {/* Named by the whole id; the screen shows its start. */}
          <span className="visually-hidden">Invoice {invoice.id}</span>
          <span aria-hidden="true">{invoice.id.slice(0, 12)}…</span>
        </Button>
      ),
    },
    { header: 'Order Id', className: 'text-break', cell: (invoice) => invoice.order_id ?? '----' },
    {
      header: 'Amount',
      numeric: true,
      className: 'text-nowrap',
      cell: (invoice) => `${invoice.amount} ${invoice.currency}`,
    },
    {
      header: 'Status',
      className: 'status-cell',
      cell: (invoice) => <InvoiceBadges invoice={invoice} />,
    },
    { header: 'Created', className: 'time-cell', cell: (i) => <DateTime value={i.created_at} /> },
    { header: 'Expires', className: 'time-cell', cell: (i) => <DateTime value={i.expires_at} /> },
  ];
}
