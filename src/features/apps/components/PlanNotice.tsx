import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { useListPackagesQuery } from '../../../api/subscriptions';
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { APPS_WITHOUT_SUBSCRIPTION } from '../../../shared/apps';
import { selectApps } from '../../../app/session/sessionSlice';
import { useT } from '../../../i18n/i18n';

/** Stands for the link to Packages in a message, where the notice puts the link. */
const LINK_MARK = '\u2063';

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
  const withLink = (message: string) => {
    const [before, after] = message.split(LINK_MARK);
    return (
      <Alert variant="warning">
        {before}
        <Link to={paths.subscriptions}>{t('title.subscriptions')}</Link>
        {after}
      </Alert>
    );
  };

  if (!plan) {
    return withLink(
      t(owned >= APPS_WITHOUT_SUBSCRIPTION ? 'apps.plan.noneOwned' : 'apps.plan.none', {
        count: APPS_WITHOUT_SUBSCRIPTION,
        owned,
        packages: LINK_MARK,
      }),
    );
  }
  if (owned < plan.app_count) return null;
  return withLink(
    t('apps.plan.full', { plan: plan.name, count: plan.app_count, owned, packages: LINK_MARK }),
  );
}
