import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { Transaction } from '../../../api/generated/dashboard.gen';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { maskTnx } from '../../../lib/mask';

/** The latest wallet ledger entries, transaction ids masked 5 + **** + 5. */
export function RecentActivity({ rows, symbol }: { rows: Transaction[]; symbol: string }) {
  return (
    <Card className="dash-card">
      <Card.Body className="p-0">
        <h2 className="dash-card__title px-3 pt-3">Recent Activity</h2>
        <Table responsive hover className="activity-table mb-0" aria-label="Recent Activity">
          <thead>
            <tr>
              <th scope="col">Transaction ID</th>
              <th scope="col">Amount</th>
              <th scope="col">Type</th>
              <th scope="col">Source</th>
              <th scope="col">Note</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <EmptyState colSpan={6} />
            ) : (
              rows.map((row, index) => (
                <tr key={`${row.tnx}-${row.created_at}-${index}`}>
                  <td className="font-monospace text-nowrap">{maskTnx(row.tnx)}</td>
                  <td
                    className={`text-nowrap fw-semibold ${row.type === 'credit' ? 'text-success' : 'text-danger'}`}
                  >
                    {row.type === 'credit' ? '+' : '-'}
                    {formatMoney(row.amount, symbol)}
                  </td>
                  <td>
                    <span className={`type-pill type-pill--${row.type}`}>
                      {row.type === 'credit' ? 'Credit' : 'Debit'}
                    </span>
                  </td>
                  <td className="text-capitalize">{row.source}</td>
                  <td className="activity-table__note">{row.note || '----'}</td>
                  <td className="text-nowrap">{formatDateTime(row.created_at)}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </Card.Body>
    </Card>
  );
}
