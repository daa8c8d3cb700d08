import Button from 'react-bootstrap/Button';
import {
  useCancelWithdrawMutation,
  useRequeueWithdrawMutation,
  type SendTransaction,
} from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatCoin } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { canActOnSend, SEND_STATUS } from '../appRules';
import { StatusBadge } from '../../../components/StatusBadge';
import { ListTable } from './ListTable';
import { DateTime } from '../../../components/DateTime';
import { TxHash } from './TxHash';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT } from '../../../i18n/i18n';

export function SendList({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'send');
  const [cancel, cancelState] = useCancelWithdrawMutation();
  const [requeue, requeueState] = useRequeueWithdrawMutation();
  const busy = (id: string) =>
    (cancelState.isLoading && cancelState.originalArgs?.id === id) ||
    (requeueState.isLoading && requeueState.originalArgs?.id === id);

  const columns: Column<SendTransaction>[] = [
    {
      header: t('wallet.txHash'),
      className: 'text-nowrap',
      cell: (tx) => <TxHash chainId={tx.chain_id} hash={tx.thash} />,
    },
    { header: t('wallet.network'), className: 'network-cell', cell: (tx) => tx.network_name },
    {
      header: t('dashboard.amount'),
      numeric: true,
      className: 'text-nowrap',
      cell: (tx) => formatCoin(tx.amount, tx.name),
    },
    {
      header: t('tx.receiver'),
      className: 'font-monospace small text-nowrap',
      cell: (tx) => <span title={tx.to_address}>{shorten(tx.to_address, 6, 4)}</span>,
    },
    {
      header: t('wallet.status'),
      className: 'status-cell',
      cell: (tx) => (
        <>
          <StatusBadge status={tx.status} names={SEND_STATUS} />
          {tx.refund_id && (
            <div className="small text-body-secondary mt-1" title={tx.refund_id}>
              {t('tx.refund')}
            </div>
          )}
          {tx.waiting_reason && (
            <div className="small text-body-secondary mt-1 waiting-reason">{tx.waiting_reason}</div>
          )}
        </>
      ),
    },
    {
      header: t('dashboard.time'),
      className: 'time-cell',
      cell: (tx) => <DateTime value={tx.created_at} />,
    },
    {
      header: t('history.action'),
      cell: (tx) =>
        canActOnSend(tx.status) ? (
          <div className="d-flex flex-column gap-1">
            <Button
              size="sm"
              variant="outline-danger"
              disabled={busy(tx.id)}
              onClick={() => void cancel({ id: tx.id })}
            >
              {t('tx.cancelSend')}
            </Button>
            <Button
              size="sm"
              variant="outline-warning"
              className="btn-requeue"
              disabled={busy(tx.id)}
              onClick={() => void requeue({ id: tx.id })}
            >
              {t('tx.reinitiateSend')}
            </Button>
          </div>
        ) : (
          <span className="text-muted">----</span>
        ),
    },
  ];

  return (
    <>
      <DownloadCsvButton kind="withdrawals" appId={appId} />
      <ListTable
        caption={t('tx.sent')}
        columns={columns}
        rowKey={(tx) => tx.id}
        {...list}
        stickyActions
        compact
      />
    </>
  );
}
