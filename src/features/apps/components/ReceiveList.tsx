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
import { useT } from '../../../i18n/i18n';

export function ReceiveList({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'receive');
  const [shown, setShown] = useState<ReceiveTransaction | null>(null);
  const [requeue, { isLoading, originalArgs }] = useRequeueDepositMutation();
  const columns: Column<ReceiveTransaction>[] = [
    { header: t('tx.clientId'), className: 'text-break', cell: (tx) => tx.unique_id },
    { header: t('wallet.network'), className: 'network-cell', cell: (tx) => tx.network_name },
    {
      header: t('dashboard.amount'),
      numeric: true,
      className: 'text-nowrap',
      cell: (tx) => formatCoin(tx.amount, tx.name),
    },
    {
      header: t('wallet.status'),
      className: 'status-cell',
      cell: (tx) => (
        <>
          <StatusBadge status={tx.deposit_status} names={DEPOSIT_STATUS} />
          {tx.flag && (
            <div className="small text-body-secondary mt-1">
              {t('tx.flagged', {
                flag: STRAY_FLAG[tx.flag],
                method: tx.name,
                network: tx.network_name,
              })}
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
      className: 'text-nowrap',
      cell: (tx) => (
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-primary"
            onClick={() => setShown(tx)}
            aria-label={t('tx.detailsOf', {
              id: tx.unique_id,
              amount: formatCoin(tx.amount, tx.name),
            })}
          >
            {t('tx.details')}
          </Button>
          {canRequeueDeposit(tx.deposit_status) && (
            <Button
              size="sm"
              variant="outline-warning"
              className="btn-requeue"
              disabled={isLoading && originalArgs?.id === tx.id}
              onClick={() => void requeue({ id: tx.id })}
            >
              {t('tx.reinitiate')}
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
        caption={t('tx.received')}
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
  const t = useT();
  return (
    <TitledModal show={tx !== null} onHide={onHide} title={t('tx.title')}>
      {tx && (
        <Modal.Body>
          <dl className="row mb-0 details-list">
            <dt className="col-5">{t('tx.clientId')}</dt>
            <dd className="col-7">{tx.unique_id}</dd>
            <dt className="col-5">{t('dashboard.amount')}</dt>
            <dd className="col-7">{formatCoin(tx.amount, tx.name)}</dd>
            <dt className="col-5">{t('wallet.network')}</dt>
            <dd className="col-7">{tx.network_name}</dd>
            <dt className="col-5">{t('wallet.status')}</dt>
            <dd className="col-7">
              <StatusBadge status={tx.deposit_status} names={DEPOSIT_STATUS} />
            </dd>
            <dt className="col-5">{t('wallet.txHash')}</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.thash} />
            </dd>
            <dt className="col-5">{t('tx.gasTx')}</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.gas_transfer_txid} />
            </dd>
            <dt className="col-5">{t('tx.collectTx')}</dt>
            <dd className="col-7">
              <TxHash chainId={tx.chain_id} hash={tx.collect_txid} />
            </dd>
            <dt className="col-5">{t('tx.receivedAt')}</dt>
            <dd className="col-7">{formatDateTime(tx.created_at)}</dd>
            <dt className="col-5">{t('tx.processed')}</dt>
            <dd className="col-7 mb-0">{formatDateTime(tx.process_datetime)}</dd>
          </dl>
        </Modal.Body>
      )}
    </TitledModal>
  );
}
