import { formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { usePagedList } from './usePagedList';

export function AccountsList({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'accounts');
  return (
    <ListTable
      caption="Generated accounts"
      columns={['Client Id', 'Address', 'Created Date']}
      {...list}
      row={(account) => (
        <tr key={account.id}>
          <td className="text-nowrap">{account.unique_id}</td>
          <td className="font-monospace small text-break">{account.address}</td>
          <td className="text-nowrap">{formatDate(account.created_at)}</td>
        </tr>
      )}
    />
  );
}
