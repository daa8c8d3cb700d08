import Card from 'react-bootstrap/Card';
import type { Transaction } from '../../../api/generated/dashboard.gen';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { maskTnx } from '../../../lib/mask';

const isCredit = (row: Transaction) => row.type === 'credit';

function columns(symbol: string): Column<Transaction>[] {
  return [
    {
      header: 'Transaction ID',
      className: 'font-monospace text-nowrap',
      cell: (row) => maskTnx(row.tnx),
    },
    {
      header: 'Amount',
      numeric: true,
      className: (row) =>
        `text-nowrap fw-semibold ${isCredit(row) ? 'text-success' : 'text-danger'}`,
      cell: (row) => (
        <>
          {isCredit(row) ? '+' : '-'}
          {formatMoney(row.amount, symbol)}
        </>
      ),
    },
    {
      header: 'Type',
      cell: (row) => (
        <span className={`type-pill type-pill--${row.type}`}>
          {isCredit(row) ? 'Credit' : 'Debit'}
        </span>
      ),
    },
    { header: 'Source', className: 'text-capitalize', cell: (row) => row.source },
    { header: 'Note', className: 'activity-table__note', cell: (row) => row.note || '----' },
    { header: 'Time', className: 'text-nowrap', cell: (row) => formatDateTime(row.created_at) },
  ];
}

/** The latest wallet ledger entries, transaction ids masked 5 + **** + 5. */
export function RecentActivity({ rows, symbol }: { rows: Transaction[]; symbol: string }) {
  return (
    <Card className="dash-card table-card">
      <Card.Body>
        <h2 className="dash-card__title px-sm-3 pt-sm-3">Recent Activity</h2>
        <DataTable
          responsive
          hover
          className="activity-table mb-0"
          aria-label="Recent Activity"
          columns={columns(symbol)}
          rows={rows}
          rowKey={(row, index) => `${row.tnx}-${row.created_at}-${index}`}
        />
      </Card.Body>
    </Card>
  );
}
