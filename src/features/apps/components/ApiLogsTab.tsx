import Badge from 'react-bootstrap/Badge';
import type { ApiLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { ListTable } from './ListTable';
import { DateTime } from '../../../components/DateTime';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

const COLUMNS: Column<ApiLog>[] = [
  {
    header: 'Method',
    cell: (log) => <Badge bg={log.method === 'GET' ? 'info' : 'primary'}>{log.method}</Badge>,
  },
  { header: 'Route', className: 'font-monospace small text-break', cell: (log) => log.route },
  { header: 'IP', className: 'text-nowrap', cell: (log) => log.ip },
  {
    header: 'Time',
    className: 'time-cell',
    cell: (log) => <DateTime value={log.created_at} />,
  },
];

export function ApiLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'api_logs');
  return (
    <>
      <DownloadCsvButton kind="api_logs" appId={appId} />
      <ListTable caption="API logs" columns={COLUMNS} rowKey={(log) => log.id} {...list} />
    </>
  );
}
