import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { useGetAppsQuery } from '../../api/apps';
import { useGetDashboardQuery, type DashboardData } from '../../api/dashboard';
import { useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { CopyButton } from '../../components/CopyButton';
import { CopyIcon, LayersIcon, WalletIcon } from '../../components/icons';
import { QueryState } from '../../components/QueryState';
import { formatDateTime } from '../../lib/format';
import { selectCurrencySymbol, selectSession } from '../../app/session/sessionSlice';
import { useProfile } from '../../app/session/useProfile';
import { KycBadge } from './components/KycBadge';
import { LicenseCard } from './components/LicenseCard';
import { MyApps } from './components/MyApps';
import { RecentActivity } from './components/RecentActivity';
import { TransactionCounts } from './components/TransactionCounts';
import { t as translate, useT } from '../../i18n/i18n';
import './dashboard.scss';

/**
 * The sign-in before this session's own, and where it came from: 'November 25, 2026 10:24 AM
 * from 203.0.113.9 (Chrome on Windows 10)'; '----' when there was none.
 */
function lastLogin(data: DashboardData): string {
  if (!data.last_login_at) return formatDateTime(null);
  const ip = data.last_login_ip;
  const device = data.last_login_device;
  const where = ip && device ? `${ip} (${device})` : (ip ?? device);
  const when = formatDateTime(data.last_login_at);
  return where ? translate('dashboard.loginFrom', { when, where }) : when;
}

export default function DashboardPage() {
  const t = useT();
  const session = useAppSelector(selectSession);
  const profile = useProfile();
  const symbol = useAppSelector(selectCurrencySymbol);
  const summary = useGetDashboardQuery();
  const apps = useGetAppsQuery();
  const dashboard = summary.data?.data;
  // The figures, My Apps and Recent Activity appear together: My Apps filling in after the rest
  // pushed Recent Activity down the screen (a layout shift of 0.10 on a phone). Apps that cannot
  // be read leave My Apps out, as before.
  const sections = { ...summary, isLoading: summary.isLoading || apps.isLoading };

  return (
    <div className="dashboard">
      <div className="row g-3 mb-3">
        <div className="col-12 col-lg-8">
          <Card className="dash-card welcome-card h-100">
            <Card.Body>
              <h1 className="page-title welcome-card__greeting">
                {t('dashboard.hello', { name: session.name })}
              </h1>
              <p className="welcome-card__login text-muted mb-3">
                {t('dashboard.lastLogin', { when: dashboard ? lastLogin(dashboard) : '…' })}
              </p>
              <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
                <span className="welcome-card__email text-truncate">{session.email}</span>
                <CopyButton
                  value={session.email}
                  label={t('dashboard.copyEmail')}
                  variant="light"
                  className="welcome-card__copy"
                >
                  <CopyIcon width={16} height={16} />
                </CopyButton>
                {profile ? <KycBadge status={profile.status_kyc} /> : null}
              </div>
              <div className="d-flex flex-wrap gap-2">
                <Link to={paths.wallet} className="btn btn-primary">
                  <WalletIcon width={18} height={18} className="me-2" />
                  {t('dashboard.deposit')}
                </Link>
                <Link to={paths.subscriptions} className="btn btn-outline-primary">
                  <LayersIcon width={18} height={18} className="me-2" />
                  {t('dashboard.subscription')}
                </Link>
              </div>
            </Card.Body>
          </Card>
        </div>
        <div className="col-12 col-lg-4">
          <LicenseCard subscription={dashboard?.subscription} />
        </div>
      </div>

      <QueryState query={sections} what={t('dashboard.what')}>
        {({ data }) => (
          <>
            <div className="mb-4">
              <TransactionCounts data={data} />
            </div>
            <div className="mb-4">
              <MyApps apps={apps.data?.data ?? []} />
            </div>
            <RecentActivity rows={data.latest_transacctions} symbol={symbol} />
          </>
        )}
      </QueryState>
    </div>
  );
}
