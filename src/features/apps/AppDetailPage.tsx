import Form from 'react-bootstrap/Form';
import Nav from 'react-bootstrap/Nav';
import { Link, Navigate, NavLink, useNavigate, useParams } from 'react-router-dom';
import { useGetAppDetailsQuery, type AppDetails } from '../../api/apps';
import { paths } from '../../app/paths';
import { QueryState } from '../../components/QueryState';
import { TABS, tabOf, type TabSlug } from './appRules';
import { AppKeysTab } from './components/AppKeysTab';
import { DailyLogsTab } from './components/DailyLogsTab';
import { ApiLogsTab } from './components/ApiLogsTab';
import { InvoicesTab } from './components/InvoicesTab';
import { IpnLogsTab } from './components/IpnLogsTab';
import { MerchantSettingTab } from './components/MerchantSettingTab';
import { PaymentSettingTab } from './components/PaymentSettingTab';
import { TransactionTab } from './components/TransactionTab';
import { UsageTab } from './components/UsageTab';
import { useMediaQuery } from '../../components/useMediaQuery';
import './apps.scss';
import { PageTitle } from '../../components/PageTitle';
import { TestModeBanner, TestModeSwitch } from './components/TestModeSwitch';
import { DeleteTestDataButton } from './components/DeleteTestDataButton';
import { useT } from '../../i18n/i18n';

function TabContent({ tab, details }: { tab: TabSlug; details: AppDetails }) {
  const appId = details.app_data.id;
  switch (tab) {
    case 'payment-setting':
      return <PaymentSettingTab details={details} />;
    case 'app-keys':
      return <AppKeysTab appId={appId} livemode={details.app_data.livemode} />;
    case 'merchant-setting':
      return <MerchantSettingTab app={details.app_data} />;
    case 'usage':
      return <UsageTab details={details} />;
    case 'transaction':
      return <TransactionTab appId={appId} />;
    case 'api-logs':
      return <ApiLogsTab appId={appId} />;
    case 'ipn-logs':
      return <IpnLogsTab appId={appId} />;
    case 'daily-logs':
      return <DailyLogsTab appId={appId} />;
    case 'invoices':
      return <InvoicesTab details={details} />;
  }
}

/** Below Bootstrap's sm breakpoint: a select rather than a bar of pills cut off at the edge. */
const PHONE = '(max-width: 575.98px)';

/** The app's sections, each a URL: a select on phones, pills elsewhere. */
function AppMenu({ appId, tab }: { appId: string; tab: TabSlug }) {
  const t = useT();
  const phone = useMediaQuery(PHONE, false);
  const navigate = useNavigate();
  if (phone) {
    return (
      <Form.Group controlId="app-section" className="app-detail__select">
        <Form.Label className="small text-muted mb-1">{t('appDetail.section')}</Form.Label>
        <Form.Select
          value={tab}
          onChange={(event) => navigate(paths.myApp(appId, event.target.value))}
        >
          {TABS.map((item) => (
            <option key={item.slug} value={item.slug}>
              {t(item.title)}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    );
  }
  return (
    <Nav as="nav" variant="pills" className="app-detail__menu" aria-label={t('appDetail.menu')}>
      {TABS.map((item) => (
        <Nav.Item key={item.slug}>
          <Nav.Link as={NavLink} to={paths.myApp(appId, item.slug)} active={item.slug === tab}>
            {t(item.title)}
          </Nav.Link>
        </Nav.Item>
      ))}
    </Nav>
  );
}

/** /app/my-app/:id/:tab?: the app's header, the left menu and the selected tab (in the URL). */
export default function AppDetailPage() {
  const t = useT();
  const { id = '', tab: tabParam } = useParams();
  const tab = tabOf(tabParam);
  const read = useGetAppDetailsQuery({ id }, { skip: !tab });
  // Only this URL's app: the hook's `data` keeps the app shown before (the live app, as the Test
  // mode switch opens its test app) until the new one arrives, and a click meanwhile (Create
  // Invoice) would act on the app the URL has left. The tabs are keyed by the app for the same
  // reason: a list read for the app before never shows under this one.
  const app = {
    ...read,
    data: read.currentData,
    isLoading: read.currentData === undefined && read.isFetching,
  };

  if (!tab) return <Navigate to={paths.myApp(id)} replace />;

  const current = TABS.find((item) => item.slug === tab);

  return (
    <section className="apps-page app-detail">
      <Link to={paths.allApps} className="small text-decoration-none d-inline-block mb-2">
        &larr; {t('appDetail.back')}
      </Link>
      <QueryState query={app} what={t('appDetail.what')}>
        {({ data: details }) => (
          <>
            {!details.app_data.livemode && <TestModeBanner />}
            <PageTitle
              lead={details.app_data.info || undefined}
              actions={
                <div className="app-detail__mode-actions">
                  <TestModeSwitch app={details.app_data} tab={tab} />
                  {!details.app_data.livemode && <DeleteTestDataButton app={details.app_data} />}
                </div>
              }
            >
              {details.app_data.app_name}
            </PageTitle>
            <div className="app-detail__layout" key={id}>
              <AppMenu appId={id} tab={tab} />
              <div className="app-detail__content">
                <h2 className="h5 mb-3">{current && t(current.title)}</h2>
                <TabContent tab={tab} details={details} />
              </div>
            </div>
          </>
        )}
      </QueryState>
    </section>
  );
}
