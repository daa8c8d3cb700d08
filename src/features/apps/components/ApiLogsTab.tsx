import Badge from 'react-bootstrap/Badge';
import type { ApiLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { ListTable } from './ListTable';
import { DateTime } from '../../../components/DateTime';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT, type Translate } from '../../../i18n/i18n';

const columns = (t: Translate): Column<ApiLog>[] => [
  {
    header: t('logs.method'),
    cell: (log) => <Badge bg={log.method === 'GET' ? 'info' : 'primary'}>{log.method}</Badge>,
  },
  {
    header: t('logs.route'),
    className: 'font-monospace small text-break',
    cell: (log) => log.route,
  },
  { header: t('logs.ip'), className: 'text-nowrap', cell: (log) => log.ip },
  {
    header: t('dashboard.time'),
    className: 'time-cell',
    cell: (log) => <DateTime value={log.created_at} />,
  },
];

export function ApiLogsTab({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'api_logs');
  return (
    <>
      <DownloadCsvButton kind="api_logs" appId={appId} />
      <ListTable caption={t('logs.api')} columns={columns(t)} rowKey={(log) => log.id} {...list} />
    </>
  );
}
