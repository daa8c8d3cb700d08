import type { DailyLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatCoin, formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT, type Translate } from '../../../i18n/i18n';

const columns = (t: Translate): Column<DailyLog>[] => [
  { header: t('history.date'), className: 'text-nowrap', cell: (log) => formatDate(log.date) },
  { header: t('wallet.network'), cell: (log) => log.network_name },
  { header: t('logs.receiveCount'), numeric: true, cell: (log) => log.deposit_count },
  {
    header: t('logs.receiveAmount'),
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.deposit_volume, log.name),
  },
  // How that day's deposits split at the sweep (the Usage cards' split, per day).
  {
    header: t('logs.gatewayFee'),
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.gateway_fee_volume, log.name),
  },
  {
    header: t('logs.toPayout'),
    numeric: true,
    className: 'text-nowrap',
    cell: (log) => formatCoin(log.payout_volume, log.name),
  },
  { header: t('logs.sendCount'), numeric: true, cell: (log) => log.withdraw_count },
  // With the refunds among those sends under it (in the cell: a column more would not fit
  // beside the menu at 1280 px).
  {
    header: t('logs.sendAmount'),
    numeric: true,
    // One element: a phone's stacked row lays the cell's children side by side.
    cell: (log) => (
      <span className="d-inline-block">
        <span className="text-nowrap">{formatCoin(log.withdraw_volume, log.name)}</span>
        {log.refund_count > 0 && (
          <>
            {' '}
            <span className="d-block small text-muted">
              {t('logs.refunds', { count: log.refund_count })}{' '}
              <span className="text-nowrap">({formatCoin(log.refund_volume, log.name)})</span>
            </span>
          </>
        )}
      </span>
    ),
  },
];

export function DailyLogsTab({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'daily_logs');
  return (
    <>
      <DownloadCsvButton kind="daily_logs" appId={appId} />
      <ListTable
        caption={t('logs.daily')}
        columns={columns(t)}
        rowKey={(log) => log.id}
        compact
        {...list}
      />
    </>
  );
}
