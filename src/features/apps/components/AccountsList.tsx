import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Account } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { ListTable } from './ListTable';
import { TestDepositModal } from './TestDepositModal';
import { usePagedList } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT, type Translate } from '../../../i18n/i18n';

const columns = (t: Translate): Column<Account>[] => [
  { header: t('tx.clientId'), className: 'text-nowrap', cell: (account) => account.unique_id },
  {
    header: t('tx.address'),
    className: 'font-monospace small text-break',
    cell: (account) => account.address,
  },
  {
    header: t('tx.createdDate'),
    className: 'text-nowrap',
    cell: (account) => formatDate(account.created_at),
  },
];

export function AccountsList({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'accounts');
  const [testing, setTesting] = useState<Account | null>(null);
  // Test deposits exist only on the local chain; on a real chain the column is absent.
  const testable = list.page?.data.some((account) => account.test_methods.length > 0) ?? false;
  const test: Column<Account> = {
    header: t('tx.test'),
    className: 'text-nowrap',
    cell: (account) =>
      account.test_methods.length > 0 && (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => setTesting(account)}
          aria-label={t('testDeposit.titleOf', { id: account.unique_id })}
        >
          {t('testDeposit.title')}
        </Button>
      ),
  };
  return (
    <>
      <DownloadCsvButton kind="accounts" appId={appId} />
      <ListTable
        caption={t('tx.accounts')}
        columns={testable ? [...columns(t), test] : columns(t)}
        rowKey={(account) => account.id}
        {...list}
      />
      <TestDepositModal account={testing} onHide={() => setTesting(null)} />
    </>
  );
}
