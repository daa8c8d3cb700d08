import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Account } from '../../../api/apps';
import { formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { TestDepositModal } from './TestDepositModal';
import { usePagedList } from './usePagedList';

const COLUMNS = ['Client Id', 'Address', 'Created Date'] as const;

export function AccountsList({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'accounts');
  const [testing, setTesting] = useState<Account | null>(null);
  // Test deposits exist only on the local chain; on a real chain the column is absent.
  const testable = list.page?.data.some((account) => account.test_methods.length > 0) ?? false;
  return (
    <>
      <ListTable
        caption="Generated accounts"
        columns={testable ? [...COLUMNS, 'Test'] : COLUMNS}
        {...list}
        row={(account) => (
          <tr key={account.id}>
            <td className="text-nowrap">{account.unique_id}</td>
            <td className="font-monospace small text-break">{account.address}</td>
            <td className="text-nowrap">{formatDate(account.created_at)}</td>
            {testable && (
              <td className="text-nowrap">
                {account.test_methods.length > 0 && (
                  <Button
                    size="sm"
                    variant="outline-primary"
                    onClick={() => setTesting(account)}
                    aria-label={`Send test deposit to ${account.unique_id}`}
                  >
                    Send test deposit
                  </Button>
                )}
              </td>
            )}
          </tr>
        )}
      />
      <TestDepositModal account={testing} onHide={() => setTesting(null)} />
    </>
  );
}
