import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { useListPackagesQuery } from '../../../api/subscriptions';
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { APPS_WITHOUT_SUBSCRIPTION } from '../../../shared/apps';
import { selectApps } from '../../../app/session/sessionSlice';
import { useT, type MessageKey } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/**
 * Create App's word on the plan, which sets how many apps a merchant may have (and without which
 * the gateway opens no deposit accounts): said before the form is filled, not after a refusal.
 */
export function PlanNotice() {
  const t = useT();
  const { data } = useListPackagesQuery();
  const owned = useAppSelector(selectApps).length;
  if (!data) return null;
  const current = data.current_subscription;
  const plan = current && data.data.find((p) => p.id === current.package_id);
  /** The message with the link to Packages where it names them. */
  const notice = (key: MessageKey, values: Record<string, string | number>) => (
    <Alert variant="warning">
      {withNodes(t, key, values, {
        packages: <Link to={paths.subscriptions}>{t('title.subscriptions')}</Link>,
      })}
    </Alert>
  );

  if (!plan) {
    return notice(owned >= APPS_WITHOUT_SUBSCRIPTION ? 'apps.plan.noneOwned' : 'apps.plan.none', {
      count: APPS_WITHOUT_SUBSCRIPTION,
      owned,
    });
  }
  if (owned < plan.app_count) return null;
  return notice('apps.plan.full', { plan: plan.name, count: plan.app_count, owned });
}
