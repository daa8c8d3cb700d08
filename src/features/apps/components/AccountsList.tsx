import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Account } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { TestDepositModal } from './TestDepositModal';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

const COLUMNS: Column<Account>[] = [
  { header: 'Client Id', className: 'text-nowrap', cell: (account) => account.unique_id },
  {
    header: 'Address',
    className: 'font-monospace small text-break',
    cell: (account) => account.address,
  },
  {
    header: 'Created Date',
    className: 'text-nowrap',
    cell: (account) => formatDate(account.created_at),
  },
];

export function AccountsList({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'accounts');
  const [testing, setTesting] = useState<Account | null>(null);
  // Test deposits exist only on the local chain; on a real chain the column is absent.
  const testable = list.page?.data.some((account) => account.test_methods.length > 0) ?? false;
  const test: Column<Account> = {
    header: 'Test',
    className: 'text-nowrap',
    cell: (account) =>
      account.test_methods.length > 0 && (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => setTesting(account)}
          aria-label={`Send test deposit to ${account.unique_id}`}
        >
          Send test deposit
        </Button>
      ),
  };
  return (
    <>
      <DownloadCsvButton kind="accounts" appId={appId} />
      <ListTable
        caption="Generated accounts"
        columns={testable ? [...COLUMNS, test] : COLUMNS}
        rowKey={(account) => account.id}
        {...list}
      />
      <TestDepositModal account={testing} onHide={() => setTesting(null)} />
    </>
  );
}
