import { formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';

export function AccountsList({ appId }: { appId: string }) {
  return (
    <ListTable
      caption="Generated accounts"
      columns={['Client Id', 'Address', 'Created Date']}
      appId={appId}
      list="accounts"
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
