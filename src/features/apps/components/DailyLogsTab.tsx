import type { DailyLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatCoin, formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

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
  // With the refunds among those sends under it (in the cell: a column more would not fit
  // beside the menu at 1280 px).
  {
    header: 'Send Amount',
    numeric: true,
    // One element: a phone's stacked row lays the cell's children side by side.
    cell: (log) => (
      <span className="d-inline-block">
        <span className="text-nowrap">{formatCoin(log.withdraw_volume, log.name)}</span>
        {log.refund_count > 0 && (
          <>
            {' '}
            <span className="d-block small text-muted">
              {`including ${log.refund_count === 1 ? '1 refund' : `${log.refund_count} refunds`}`}{' '}
              <span className="text-nowrap">({formatCoin(log.refund_volume, log.name)})</span>
            </span>
          </>
        )}
      </span>
    ),
  },
];

export function DailyLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'daily_logs');
  return (
    <>
      <DownloadCsvButton kind="daily_logs" appId={appId} />
      <ListTable
        caption="Daily logs"
        columns={COLUMNS}
        rowKey={(log) => log.id}
        compact
        {...list}
      />
    </>
  );
}
