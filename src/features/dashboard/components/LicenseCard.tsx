import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import type { DashboardSubscription } from '../../../api/generated/dashboard.gen';
import { paths } from '../../../app/paths';
import { formatDate } from '../../../lib/format';
import { useT } from '../../../i18n/i18n';

/**
 * The subscription in force: when it ends, and transactions used of the package's limit. While
 * the dashboard loads (`undefined`) it shows the same lines with '…', so the card keeps its height
 * and nothing below it moves when the figures come.
 */
/**
 * The '…' of a figure still loading, in an element of its own: the figure then replaces it. Were
 * both text, React would rewrite the one text node, and the browser would count the right-aligned
 * text's start moving left as a layout shift (0.003 on a phone).
 */
const pending = <span>…</span>;

export function LicenseCard({
  subscription,
}: {
  subscription: DashboardSubscription | null | undefined;
}) {
  const t = useT();
  const limit = Math.max(subscription?.transaction_limit ?? 0, 1);
  const used = subscription?.transaction_used ?? 0;
  const full = subscription != null && used >= subscription.transaction_limit;
  return (
    <Card className="dash-card license-card h-100" aria-busy={subscription === undefined}>
      <Card.Body>
        <h2 className="dash-card__title">{t('dashboard.license')}</h2>
        {subscription !== null ? (
          <>
            <dl className="license-card__facts">
              <dt>{t('dashboard.expiry')}</dt>
              <dd>{subscription ? formatDate(subscription.expiry) : pending}</dd>
              <dt>{t('dashboard.usage')}</dt>
              <dd>{subscription ? `${used}/${subscription.transaction_limit}` : pending}</dd>
            </dl>
            {/* react-bootstrap's ProgressBar puts aria-label on its wrapper (prohibited there) and
                leaves the role="progressbar" element unnamed, so the bar is written out here. */}
            <div className="progress license-card__bar">
              {subscription && (
                <div
                  role="progressbar"
                  aria-label={t('dashboard.usage')}
                  aria-valuemin={0}
                  aria-valuemax={limit}
                  aria-valuenow={used}
                  className={`progress-bar ${full ? 'bg-danger' : 'bg-primary'}`}
                  style={{ width: `${Math.min(100, (used / limit) * 100)}%` }}
                />
              )}
            </div>
          </>
        ) : (
          <>
            <p className="text-muted mb-2">{t('dashboard.noSubscription')}</p>
            <Link to={paths.subscriptions} className="small">
              {t('dashboard.seePackages')}
            </Link>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
