import Card from 'react-bootstrap/Card';
import type { Transaction } from '../../../api/generated/dashboard.gen';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { maskTnx } from '../../../lib/mask';
import { useT, type MessageKey, type Translate } from '../../../i18n/i18n';

const isCredit = (row: Transaction) => row.type === 'credit';

/** The ledger's sources the catalogue words; another shows as the server names it. */
const SOURCES: Record<string, MessageKey> = {
  deposit: 'ledgerSource.deposit',
  subscription: 'ledgerSource.subscription',
};

function columns(t: Translate, symbol: string): Column<Transaction>[] {
  return [
    {
      header: t('dashboard.tnx'),
      className: 'font-monospace text-nowrap',
      cell: (row) => maskTnx(row.tnx),
    },
    {
      header: t('dashboard.amount'),
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
      header: t('dashboard.type'),
      cell: (row) => (
        <span className={`type-pill type-pill--${row.type}`}>
          {isCredit(row) ? t('dashboard.credit') : t('dashboard.debit')}
        </span>
      ),
    },
    {
      header: t('dashboard.source'),
      className: 'text-capitalize',
      cell: (row) => {
        const key = SOURCES[row.source];
        return key ? t(key) : row.source;
      },
    },
    {
      header: t('dashboard.note'),
      className: 'activity-table__note',
      cell: (row) => row.note || '----',
    },
    {
      header: t('dashboard.time'),
      className: 'text-nowrap',
      cell: (row) => formatDateTime(row.created_at),
    },
  ];
}

/** The latest wallet ledger entries, transaction ids masked 5 + **** + 5. */
export function RecentActivity({ rows, symbol }: { rows: Transaction[]; symbol: string }) {
  const t = useT();
  return (
    <Card className="dash-card table-card">
      <Card.Body>
        <h2 className="dash-card__title px-sm-3 pt-sm-3">{t('dashboard.activity')}</h2>
        <DataTable
          responsive
          hover
          className="activity-table mb-0"
          aria-label={t('dashboard.activity')}
          columns={columns(t, symbol)}
          rows={rows}
          rowKey={(row, index) => `${row.tnx}-${row.created_at}-${index}`}
        />
      </Card.Body>
    </Card>
  );
}
