import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import type { DashboardSubscription } from '../../../api/generated/dashboard.gen';
import { paths } from '../../../app/paths';
import { formatDate } from '../../../lib/format';

/** The subscription in force: when it ends, and transactions used of the package's limit. */
export function LicenseCard({ subscription }: { subscription: DashboardSubscription | null }) {
  const limit = Math.max(subscription?.transaction_limit ?? 0, 1);
  const full =
    subscription !== null && subscription.transaction_used >= subscription.transaction_limit;
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
            {/* react-bootstrap's ProgressBar puts aria-label on its wrapper (prohibited there) and
                leaves the role="progressbar" element unnamed, so the bar is written out here. */}
            <div className="progress license-card__bar">
              <div
                role="progressbar"
                aria-label="Service usage"
                aria-valuemin={0}
                aria-valuemax={limit}
                aria-valuenow={subscription.transaction_used}
                className={`progress-bar ${full ? 'bg-danger' : 'bg-primary'}`}
                style={{
                  width: `${Math.min(100, (subscription.transaction_used / limit) * 100)}%`,
                }}
              />
            </div>
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
