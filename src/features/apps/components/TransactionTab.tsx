import Nav from 'react-bootstrap/Nav';
import { useSearchParams } from 'react-router-dom';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { AccountsList } from './AccountsList';
import { ReceiveList } from './ReceiveList';
import { SendList } from './SendList';
import { useT } from '../../../i18n/i18n';

const VIEWS = [
  { key: 'account', title: 'tx.account' },
  { key: 'receive', title: 'tx.receive' },
  { key: 'send', title: 'tx.send' },
] as const;
type View = (typeof VIEWS)[number]['key'];

/**
 * Sub-tabs Account, Receive and Send; the chosen one is in the URL (?view=) like the tab. Above
 * them, whichever is shown, the reconciliation of every payment received with its fee and sweep.
 */
export function TransactionTab({ appId }: { appId: string }) {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((v) => v.key === params.get('view'))?.key ?? 'account';

  return (
    <>
      <DownloadCsvButton kind="reconciliation" appId={appId} label="csv.downloadReconciliation" />
      <Nav variant="tabs" className="mb-3" aria-label={t('tx.lists')}>
        {VIEWS.map((item) => (
          <Nav.Item key={item.key}>
            <Nav.Link
              as="button"
              type="button"
              active={item.key === view}
              aria-current={item.key === view ? 'page' : undefined}
              onClick={() => setParams({ view: item.key }, { replace: true })}
            >
              {t(item.title)}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      {view === 'account' && <AccountsList appId={appId} />}
      {view === 'receive' && <ReceiveList appId={appId} />}
      {view === 'send' && <SendList appId={appId} />}
    </>
  );
}
