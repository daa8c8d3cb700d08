import Button from 'react-bootstrap/Button';
import { useCancelWithdrawMutation, useRequeueWithdrawMutation } from '../../../api/apps';
import { formatAmount } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { canActOnSend, SEND_STATUS } from '../appRules';
import { StatusBadge } from '../../../components/StatusBadge';
import { ListTable } from './ListTable';
import { ShortDateTime } from './ShortDateTime';
import { TxHash } from './TxHash';
import { usePagedList } from './usePagedList';

export function SendList({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'send');
  const [cancel, cancelState] = useCancelWithdrawMutation();
  const [requeue, requeueState] = useRequeueWithdrawMutation();
  const busy = (id: string) =>
    (cancelState.isLoading && cancelState.originalArgs?.id === id) ||
    (requeueState.isLoading && requeueState.originalArgs?.id === id);

  return (
    <ListTable
      caption="Sent transactions"
      columns={['Tx Hash', 'Network', 'Amount', 'Receiver Address', 'Status', 'Time', 'Action']}
      {...list}
      stickyActions
      row={(tx) => (
        <tr key={tx.id}>
          <td className="text-nowrap">
            <TxHash chainId={tx.chain_id} hash={tx.thash} />
          </td>
          <td className="network-cell">{tx.network_name}</td>
          <td className="text-nowrap">
            {formatAmount(tx.amount, 4)} {tx.name}
          </td>
          <td className="font-monospace small text-nowrap" title={tx.to_address}>
            {shorten(tx.to_address, 6, 4)}
          </td>
          <td className="status-cell">
            <StatusBadge status={tx.status} names={SEND_STATUS} />
          </td>
          <td className="time-cell">
            <ShortDateTime value={tx.created_at} />
          </td>
          <td>
            {canActOnSend(tx.status) ? (
              <div className="d-flex flex-column gap-1">
                <Button
                  size="sm"
                  variant="outline-danger"
                  disabled={busy(tx.id)}
                  onClick={() => void cancel({ id: tx.id })}
                >
                  Cancel
                </Button>
                <Button
                  size="sm"
                  variant="outline-warning"
                  disabled={busy(tx.id)}
                  onClick={() => void requeue({ id: tx.id })}
                >
                  Reinitiate
                </Button>
              </div>
            ) : (
              <span className="text-muted">----</span>
            )}
          </td>
        </tr>
      )}
    />
  );
}
