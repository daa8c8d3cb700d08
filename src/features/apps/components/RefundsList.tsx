import { useMemo } from 'react';
import Button from 'react-bootstrap/Button';
import {
  enhancedRefundsApi,
  useCancelAppRefundMutation,
  useReinitiateAppRefundMutation,
  type Refund,
} from '../../../api/refunds';
import type { Column } from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { usePagedQuery } from '../../../components/usePagedQuery';
import { canCancelRefund, claimState } from '../refundRules';
import { ListTable } from './ListTable';
import { CopyClaimLinkButton, RefundBadge } from './RefundParts';
import { TxHash } from './TxHash';
import { LIVE } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT } from '../../../i18n/i18n';

/**
 * The app's refunds, newest first, or one invoice's (`invoiceId`): amount and token, status,
 * where the money goes (the claim link while it waits), the transaction, and Cancel while
 * nothing is signed. Polled: the shopper's claim and the signer move them.
 */
export function RefundsList({
  appId,
  invoiceId,
  onOpenInvoice,
}: {
  appId: string;
  /** Only this invoice's refunds (its details); absent, the app's (the Invoices tab). */
  invoiceId?: string;
  /** Opens a refund's invoice, in the app's list. */
  onOpenInvoice?: (id: string) => void;
}) {
  const t = useT();
  const first = useMemo(
    () => (invoiceId === undefined ? { id: appId } : { id: appId, invoice: invoiceId }),
    [appId, invoiceId],
  );
  const { data, ...list } = usePagedQuery(
    enhancedRefundsApi.endpoints.listAppRefunds,
    first,
    (_page, page) => ({ ...first, page }),
    LIVE,
  );
  const [cancel, cancelState] = useCancelAppRefundMutation();
  const [reinitiate, reinitiateState] = useReinitiateAppRefundMutation();
  const busy = (id: string) =>
    (cancelState.isLoading && cancelState.originalArgs?.refundId === id) ||
    (reinitiateState.isLoading && reinitiateState.originalArgs?.refundId === id);

  const columns: Column<Refund>[] = [
    {
      header: t('inv.created'),
      className: 'time-cell',
      cell: (r) => <DateTime value={r.created_at} />,
    },
    ...(onOpenInvoice
      ? [
          {
            header: t('history.invoice'),
            className: 'text-nowrap',
            cell: (r: Refund) => (
              <Button
                variant="link"
                className="p-0 text-start"
                aria-label={t('history.invoiceOf', { id: r.invoice_id })}
                onClick={() => onOpenInvoice(r.invoice_id)}
              >
                <code>{r.invoice_id}</code>
              </Button>
            ),
          },
        ]
      : []),
    {
      header: t('dashboard.amount'),
      numeric: true,
      className: 'text-nowrap',
      cell: (r) => `${r.amount} ${r.method}`,
    },
    {
      header: t('wallet.status'),
      className: 'status-cell',
      cell: (r) => (
        <>
          <RefundBadge refund={r} />
          {(r.waiting_message ?? r.failure_reason) && (
            <div className="small text-body-secondary mt-1">
              {r.waiting_message ?? r.failure_reason}
            </div>
          )}
        </>
      ),
    },
    {
      header: t('claim.header'),
      cell: (r) => (
        <>
          <div>{claimState(r)}</div>
          {r.claim_url && (
            <span className="d-flex gap-2 align-items-center small">
              <span className="text-break">{r.claim_url}</span>
              <CopyClaimLinkButton url={r.claim_url} className="flex-shrink-0" />
            </span>
          )}
          {r.claimed_at && (
            <div className="small text-body-secondary">
              <DateTime value={r.claimed_at} />
            </div>
          )}
          {r.address && <code className="small text-break">{r.address}</code>}
        </>
      ),
    },
    {
      header: t('wallet.txHash'),
      className: 'text-nowrap',
      cell: (r) => <TxHash chainId={r.chain_id} hash={r.tx_hash} />,
    },
    {
      header: t('history.action'),
      cell: (r) =>
        canCancelRefund(r.status) ? (
          <Button
            size="sm"
            variant="outline-danger"
            disabled={busy(r.id)}
            aria-label={t('refund.cancelOf', { id: r.id })}
            onClick={() => void cancel({ id: appId, refundId: r.id })}
          >
            {t('refund.cancel')}
          </Button>
        ) : r.status === 'failed' ? (
          <Button
            size="sm"
            variant="outline-primary"
            disabled={busy(r.id)}
            aria-label={t('refund.reinitiateOf', { id: r.id })}
            onClick={() => void reinitiate({ id: appId, refundId: r.id })}
          >
            {t('refund.reinitiate')}
          </Button>
        ) : (
          <span className="text-muted">----</span>
        ),
    },
  ];

  return (
    <>
      {invoiceId === undefined && <DownloadCsvButton kind="refunds" appId={appId} />}
      <ListTable
        caption={invoiceId === undefined ? t('inv.refunds') : t('refund.ofInvoice')}
        columns={columns}
        rowKey={(r) => r.id}
        page={data?.data}
        {...list}
        stickyActions
      />
    </>
  );
}
