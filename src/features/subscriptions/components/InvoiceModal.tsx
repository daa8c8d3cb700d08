import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { SubscriptionRow } from '../../../api/subscriptions';
import { formatAmount, formatDate } from '../../../lib/format';
import { StatusBadge } from '../../../components/StatusBadge';
import { subscriptionStatus } from '../planAction';
import { TitledModal } from '../../../components/TitledModal';
import { useT } from '../../../i18n/i18n';

/** Invoices are always in USD. */
export const INVOICE_CURRENCY = 'USD';
const PRINTING_CLASS = 'invoice-printing';

/** A printable invoice of one purchase, in USD. */
export function InvoiceModal({ row, onHide }: { row: SubscriptionRow | null; onHide: () => void }) {
  const t = useT();
  // While the invoice is open, print styles (subscriptions.scss) print it alone.
  useEffect(() => {
    if (!row) return;
    document.body.classList.add(PRINTING_CLASS);
    return () => document.body.classList.remove(PRINTING_CLASS);
  }, [row]);

  const usd = (value: number) => `${formatAmount(value, 2)} ${INVOICE_CURRENCY}`;
  // A plan that replaced another was paid less the replaced plan's credit (never below 0).
  const credited = row ? row.price - row.paid : 0;
  return (
    <TitledModal
      show={row !== null}
      onHide={onHide}
      size="lg"
      className="invoice-modal"
      title={t('history.invoice')}
    >
      {row && (
        <>
          <Modal.Body>
            <div className="invoice">
              <div className="invoice__top">
                <div>
                  <p className="invoice__brand">CryptoSafeLock</p>
                  <p className="text-muted small mb-0">{t('invoice.kind')}</p>
                </div>
                <dl className="invoice__meta">
                  <dt>{t('history.invoiceId')}</dt>
                  <dd>{row.invoice_id}</dd>
                  <dt>{t('history.date')}</dt>
                  <dd>{formatDate(row.created_at)}</dd>
                  <dt>{t('wallet.status')}</dt>
                  <dd>
                    <StatusBadge status={row.status} names={subscriptionStatus(t)} />
                  </dd>
                </dl>
              </div>
              <div className="invoice__to">
                <span className="text-muted small">{t('invoice.billedTo')}</span>
                <p className="mb-0 fw-semibold">{row.name}</p>
                <p className="mb-0 text-muted">@{row.username}</p>
              </div>
              <table className="table invoice__lines">
                <thead>
                  <tr>
                    <th scope="col">{t('history.package')}</th>
                    <th scope="col">{t('invoice.duration')}</th>
                    <th scope="col" className="text-end">
                      {t('history.price')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <td>{row.package}</td>
                    <td>{t('invoice.days', { count: row.duration_days })}</td>
                    <td className="text-end">{usd(row.price)}</td>
                  </tr>
                  {credited > 0 && (
                    <tr>
                      <td colSpan={2}>{t('invoice.credit')}</td>
                      <td className="text-end">−{usd(credited)}</td>
                    </tr>
                  )}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={2} className="text-end">
                      {t('dashboard.total')}
                    </th>
                    <td className="text-end fw-bold">{usd(row.paid)}</td>
                  </tr>
                </tfoot>
              </table>
              <p className="text-muted small mb-0">{t('invoice.paidFrom')}</p>
            </div>
          </Modal.Body>
          <Modal.Footer className="invoice-modal__actions">
            <Button variant="outline-secondary" onClick={onHide}>
              {t('common.close')}
            </Button>
            <Button onClick={() => window.print()}>{t('invoice.print')}</Button>
          </Modal.Footer>
        </>
      )}
    </TitledModal>
  );
}
