import { formatAmount, formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { usePagedList } from './usePagedList';

export function DailyLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'daily_logs');
  return (
    <ListTable
      caption="Daily logs"
      columns={['Date', 'Network', 'Receive Count', 'Receive Amount', 'Send Count', 'Send Amount']}
      {...list}
      row={(log) => (
        <tr key={log.id}>
          <td className="text-nowrap">{formatDate(log.date)}</td>
          <td className="text-nowrap">{log.network_name}</td>
          <td>{log.deposit_count}</td>
          <td className="text-nowrap">
            {formatAmount(log.deposit_volume, 4)} {log.name}
          </td>
          <td>{log.withdraw_count}</td>
          <td className="text-nowrap">
            {formatAmount(log.withdraw_volume, 4)} {log.name}
          </td>
        </tr>
      )}
    />
  );
}
