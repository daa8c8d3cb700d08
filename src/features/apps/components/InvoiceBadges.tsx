import Badge from 'react-bootstrap/Badge';
import type { Invoice } from '../../../api/invoices';
import { StatusBadge } from '../../../components/StatusBadge';
import { INVOICE_EXCEPTION, INVOICE_STATUS } from '../invoiceRules';

/** An invoice's status and its exception flags, as badges. */
export function InvoiceBadges({ invoice }: { invoice: Pick<Invoice, 'status' | 'exceptions'> }) {
  return (
    <span className="d-inline-flex flex-wrap gap-1 align-items-center">
      <StatusBadge status={invoice.status} names={INVOICE_STATUS} />
      {invoice.exceptions.map((flag) => (
        <Badge key={flag} bg="light" text="dark" className="border">
          {INVOICE_EXCEPTION[flag]}
        </Badge>
      ))}
    </span>
  );
}
