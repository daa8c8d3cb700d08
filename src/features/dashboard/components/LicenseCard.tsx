import Card from 'react-bootstrap/Card';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { Link } from 'react-router-dom';
import type { DashboardSubscription } from '../../../api/generated/dashboard.gen';
import { paths } from '../../../app/paths';
import { formatDate } from '../../../lib/format';

/** The subscription in force: when it ends, and transactions used of the package's limit. */
export function LicenseCard({ subscription }: { subscription: DashboardSubscription | null }) {
  return (
    <Card className="dash-card license-card h-100">
      <Card.Body>
        <h2 className="dash-card__title">License</h2>
        {subscription ? (
          <>
            <dl className="license-card__facts">
              <dt>Expiry</dt>
              <dd>{formatDate(subscription.expiry)}</dd>
              <dt>Service usage</dt>
              <dd>
                {subscription.transaction_used}/{subscription.transaction_limit}
              </dd>
            </dl>
            <ProgressBar
              now={subscription.transaction_used}
              max={Math.max(subscription.transaction_limit, 1)}
              variant={
                subscription.transaction_used >= subscription.transaction_limit
                  ? 'danger'
                  : 'primary'
              }
              aria-label="Service usage"
              className="license-card__bar"
            />
          </>
        ) : (
          <p className="text-muted mb-2">No active subscription.</p>
        )}
        {subscription ? null : (
          <Link to={paths.subscriptions} className="small">
            See the packages
          </Link>
        )}
      </Card.Body>
    </Card>
  );
}
