import Card from 'react-bootstrap/Card';
import type { WalletTransaction } from '../../../api/wallet';
import { DataTable, type Column } from '../../../components/DataTable';
import { StatusBadge, type StatusNames } from '../../../components/StatusBadge';
import { explorerTxUrl } from '../../../lib/chains';
import { formatCoin, formatDateTime } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { COIN } from './DepositCard';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

/** BNB Smart Chain: the only network wallet deposits use. */
export const DEPOSIT_CHAIN_ID = 56;

const DEPOSIT_STATE: StatusNames<WalletTransaction['status']> = {
  0: { label: 'Pending', bg: 'warning', text: 'dark' },
  1: { label: 'Confirmed', bg: 'success' },
};

const COLUMNS: Column<WalletTransaction>[] = [
  {
    header: 'Tx Hash',
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
  { header: 'Amount', numeric: true, cell: (row) => formatCoin(row.amount, COIN) },
  { header: 'Status', cell: (row) => <StatusBadge status={row.status} names={DEPOSIT_STATE} /> },
  { header: 'Time', cell: (row) => formatDateTime(row.created_at) },
];

/** The recent USDT deposits: hash (to the explorer), amount, Confirmed/Pending, time. */
export function DepositsTable({ rows }: { rows: WalletTransaction[] }) {
  return (
    <Card className="wallet-card">
      <Card.Body>
        <h2 className="wallet-card__title">Recent {COIN} Transactions</h2>
        <DownloadCsvButton kind="top_ups" />
        <DataTable
          hover
          className="stack-table wallet-table align-middle mb-0"
          columns={COLUMNS}
          rows={rows}
          rowKey={(row) => row.tnx}
        />
      </Card.Body>
    </Card>
  );
}
