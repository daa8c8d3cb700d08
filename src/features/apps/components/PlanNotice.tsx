import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { useListPackagesQuery } from '../../../api/subscriptions';
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { APPS_WITHOUT_SUBSCRIPTION } from '../../../shared/apps';
import { selectApps } from '../../../app/session/sessionSlice';

const apps = (n: number) => `${n} app${n === 1 ? '' : 's'}`;

/**
 * Create App's word on the plan, which sets how many apps a merchant may have (and without which
 * the gateway opens no deposit accounts): said before the form is filled, not after a refusal.
 */
export function PlanNotice() {
  const { data } = useListPackagesQuery();
  const owned = useAppSelector(selectApps).length;
  if (!data) return null;
  const current = data.current_subscription;
  const plan = current && data.data.find((p) => p.id === current.package_id);
  const packages = <Link to={paths.subscriptions}>Packages</Link>;

  if (!plan) {
    return (
      <Alert variant="warning">
        You have no active plan. Without one you can create {apps(APPS_WITHOUT_SUBSCRIPTION)}
        {owned >= APPS_WITHOUT_SUBSCRIPTION ? ` and you have ${owned}` : ''}, and the gateway opens
        no deposit accounts for it. Choose a plan in {packages}.
      </Alert>
    );
  }
  if (owned < plan.app_count) return null;
  return (
    <Alert variant="warning">
      Your {plan.name} plan allows {apps(plan.app_count)} and you have {owned}. Upgrade in{' '}
      {packages} to create more.
    </Alert>
  );
}
