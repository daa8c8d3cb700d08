import Card from 'react-bootstrap/Card';
import type { WalletTransaction } from '../../../api/wallet';
import { DataTable, type Column } from '../../../components/DataTable';
import { StatusBadge, type StatusNames } from '../../../components/StatusBadge';
import { explorerTxUrl } from '../../../lib/chains';
import { formatCoin, formatDateTime } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { COIN } from './DepositCard';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT, type Translate } from '../../../i18n/i18n';

/** BNB Smart Chain: the only network wallet deposits use. */
export const DEPOSIT_CHAIN_ID = 56;

const depositState = (t: Translate): StatusNames<WalletTransaction['status']> => ({
  0: { label: t('wallet.pending'), bg: 'warning', text: 'dark' },
  1: { label: t('wallet.confirmed'), bg: 'success' },
});

const columns = (t: Translate): Column<WalletTransaction>[] => [
  {
    header: t('wallet.txHash'),
    cell: (row) => (
      <a
        href={explorerTxUrl(DEPOSIT_CHAIN_ID, row.tnx)}
        target="_blank"
        rel="noopener noreferrer"
        title={row.tnx}
        className="font-monospace"
      >
        {shorten(row.tnx, 10, 10)}
      </a>
    ),
  },
  { header: t('dashboard.amount'), numeric: true, cell: (row) => formatCoin(row.amount, COIN) },
  {
    header: t('wallet.status'),
    cell: (row) => <StatusBadge status={row.status} names={depositState(t)} />,
  },
  { header: t('dashboard.time'), cell: (row) => formatDateTime(row.created_at) },
];

/** The recent USDT deposits: hash (to the explorer), amount, Confirmed/Pending, time. */
export function DepositsTable({ rows }: { rows: WalletTransaction[] }) {
  const t = useT();
  return (
    <Card className="wallet-card">
      <Card.Body>
        <h2 className="wallet-card__title">{t('wallet.recent', { coin: COIN })}</h2>
        <div className="d-flex flex-wrap justify-content-end column-gap-2">
          <DownloadCsvButton kind="top_ups" />
          <DownloadCsvButton kind="ledger" label="csv.downloadLedger" />
        </div>
        <DataTable
          hover
          className="stack-table wallet-table align-middle mb-0"
          columns={columns(t)}
          rows={rows}
          rowKey={(row) => row.tnx}
        />
      </Card.Body>
    </Card>
  );
}
