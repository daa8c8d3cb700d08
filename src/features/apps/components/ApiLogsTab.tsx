import Badge from 'react-bootstrap/Badge';
import { ListTable } from './ListTable';
import { ShortDateTime } from './ShortDateTime';
import { usePagedList } from './usePagedList';

export function ApiLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'api_logs');
  return (
    <ListTable
      caption="API logs"
      columns={['Method', 'Route', 'IP', 'Time']}
      {...list}
      row={(log) => (
        <tr key={log.id}>
          <td>
            <Badge bg={log.method === 'GET' ? 'info' : 'primary'}>{log.method}</Badge>
          </td>
          <td className="font-monospace small text-break">{log.route}</td>
          <td className="text-nowrap">{log.ip}</td>
          <td className="time-cell">
            <ShortDateTime value={log.created_at} />
          </td>
        </tr>
      )}
    />
  );
}
