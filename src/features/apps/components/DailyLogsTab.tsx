import type { DailyLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatCoin, formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { usePagedList } from './usePagedList';

const COLUMNS: Column<DailyLog>[] = [
  { header: 'Date', className: 'text-nowrap', cell: (log) => formatDate(log.date) },
  { header: 'Network', cell: (log) => log.network_name },
  { header: 'Receive Count', numeric: true, cell: (log) => log.deposit_count },
  {
    header: 'Receive Amount',
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.deposit_volume, log.name),
  },
  // How that day's deposits split at the sweep (the Usage cards' split, per day).
  {
    header: 'Gateway Fee',
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.gateway_fee_volume, log.name),
  },
  {
    header: 'To Payout Address',
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.payout_volume, log.name),
  },
  { header: 'Send Count', numeric: true, cell: (log) => log.withdraw_count },
  {
    header: 'Send Amount',
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.withdraw_volume, log.name),
  },
  // The sends among those that paid refunds of the app's invoices.
  { header: 'Refund Count', numeric: true, cell: (log) => log.refund_count },
  {
    header: 'Refund Amount',
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.refund_volume, log.name),
  },
];

export function DailyLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'daily_logs');
  return (
    <ListTable caption="Daily logs" columns={COLUMNS} rowKey={(log) => log.id} compact {...list} />
  );
}
