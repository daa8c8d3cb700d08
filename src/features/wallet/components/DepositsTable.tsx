import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { WalletTransaction } from '../../../api/wallet';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge, type StatusNames } from '../../../components/StatusBadge';
import { explorerTxUrl } from '../../../lib/chains';
import { formatAmount, formatDateTime } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { COIN } from './DepositCard';

/** BNB Smart Chain: the only network wallet deposits use. */
export const DEPOSIT_CHAIN_ID = 56;

const DEPOSIT_STATE: StatusNames<WalletTransaction['status']> = {
  0: { label: 'Pending', bg: 'warning', text: 'dark' },
  1: { label: 'Confirmed', bg: 'success' },
};

/** The recent USDT deposits: hash (to the explorer), amount, Confirmed/Pending, time. */
export function DepositsTable({ rows }: { rows: WalletTransaction[] }) {
  return (
    <Card className="wallet-card">
      <Card.Body>
        <h2 className="wallet-card__title">Recent {COIN} Transactions</h2>
        <Table hover className="stack-table wallet-table align-middle mb-0">
          <thead>
            <tr>
              <th scope="col">Tx Hash</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <EmptyState colSpan={4} />
            ) : (
              rows.map((row) => (
                <tr key={row.tnx}>
                  <td data-label="Tx Hash">
                    <a
                      href={explorerTxUrl(DEPOSIT_CHAIN_ID, row.tnx)}
                      target="_blank"
                      rel="noopener noreferrer"
                      title={row.tnx}
                      className="font-monospace"
                    >
                      {shorten(row.tnx, 10, 10)}
                    </a>
                  </td>
                  <td data-label="Amount">
                    {formatAmount(row.amount, 4)} {COIN}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={row.status} names={DEPOSIT_STATE} />
                  </td>
                  <td data-label="Time">{formatDateTime(row.created_at)}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </Card.Body>
    </Card>
  );
}
