import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useRequeueDepositMutation, type ReceiveTransaction } from '../../../api/apps';
import { formatCoin, formatDateTime } from '../../../lib/format';
import { canRequeueDeposit, DEPOSIT_STATUS, STRAY_FLAG } from '../appRules';
import type { Column } from '../../../components/DataTable';
import { StatusBadge } from '../../../components/StatusBadge';
import { ListTable } from './ListTable';
import { DateTime } from '../../../components/DateTime';
import { TxHash } from './TxHash';
import { usePagedList } from './usePagedList';
import { TitledModal } from '../../../components/TitledModal';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

export function ReceiveList({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'receive');
  const [shown, setShown] = useState<ReceiveTransaction | null>(null);
  const [requeue, { isLoading, originalArgs }] = useRequeueDepositMutation();
  const columns: Column<ReceiveTransaction>[] = [
    { header: 'Client Id', className: 'text-break', cell: (tx) => tx.unique_id },
    { header: 'Network', className: 'network-cell', cell: (tx) => tx.network_name },
    {
      header: 'Amount',
      numeric: true,
      className: 'text-nowrap',
      cell: (tx) => formatCoin(tx.amount, tx.name),
    },
    {
      header: 'Status',
      className: 'status-cell',
      cell: (tx) => (
        <>
          <StatusBadge status={tx.deposit_status} names={DEPOSIT_STATUS} />
          {tx.flag && (
            <div className="small text-body-secondary mt-1">{`${STRAY_FLAG[tx.flag]}: ${
              tx.name
            } on ${tx.network_name}`}</div>
          )}
          {tx.waiting_reason && (
            <div className="small text-body-secondary mt-1 waiting-reason">{tx.waiting_reason}</div>
          )}
        </>
      ),
    },
    {
      header: 'Time',
      className: 'time-cell',
      cell: (tx) => <DateTime value={tx.created_at} />,
    },
    {
      header: 'Action',
      className: 'text-nowrap',
      cell: (tx) => (
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-primary"
            onClick={() => setShown(tx)}
            aria-label={`Details of ${tx.unique_id} ${formatCoin(tx.amount, tx.name)}`}
          >
            Details
          </Button>
          {canRequeueDeposit(tx.deposit_status) && (
            <Button
              size="sm"
              variant="outline-warning"
              className="btn-requeue"
              disabled={isLoading && originalArgs?.id === tx.id}
              onClick={() => void requeue({ id: tx.id })}
            >
              Re-initiate
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <DownloadCsvButton kind="deposits" appId={appId} />
      <ListTable
        caption="Received transactions"
        columns={columns}
        rowKey={(tx) => tx.id}
        {...list}
        stickyActions
      />
      <ReceiveDetailsModal tx={shown} onHide={() => setShown(null)} />
    </>
  );
}

function ReceiveDetailsModal({
  tx,
  onHide,
}: {
  tx: ReceiveTransaction | null;
  onHide: () => void;
}) {
  return (
    <TitledModal show={tx !== null} onHide={onHide} title={'Transaction Details'}>
      {tx && (
        <Modal.Body>
          <dl className="row mb-0 details-list">
            <dt className="col-5">Client Id</dt>
            <dd className="col-7">{tx.unique_id}</dd>
            <dt className="col-5">Amount</dt>
            <dd className="col-7">{formatCoin(tx.amount, tx.name)}</dd>
            <dt className="col-5">Network</dt>
            <dd className="col-7">{tx.network_name}</dd>
            <dt className="col-5">Status</dt>
            <dd className="col-7">
              <StatusBadge status={tx.deposit_status} names={DEPOSIT_STATUS} />
            </dd>
            <dt className="col-5">Tx Hash</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.thash} />
            </dd>
            <dt className="col-5">Gas Transfer Tx</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.gas_transfer_txid} />
            </dd>
            <dt className="col-5">Collect Tx</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.collect_txid} />
            </dd>
            <dt className="col-5">Received</dt>
            <dd className="col-7">{formatDateTime(tx.created_at)}</dd>
            <dt className="col-5">Processed</dt>
            <dd className="col-7 mb-0">{formatDateTime(tx.process_datetime)}</dd>
          </dl>
        </Modal.Body>
      )}
    </TitledModal>
  );
}
