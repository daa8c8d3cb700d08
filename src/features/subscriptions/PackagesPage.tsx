import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { QueryState } from '../../components/QueryState';
import { toast } from '../../components/toast';
import {
  useCancelSubscriptionMutation,
  useListPackagesQuery,
  usePurchasePackageMutation,
  type Package,
} from '../../api/subscriptions';
import { useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { formatDate } from '../../lib/format';
import { selectCurrencySymbol } from '../../app/session/sessionSlice';
import { PlanActionModal, type PendingAction } from './components/PlanActionModal';
import { PlanCard } from './components/PlanCard';
import { isCurrentPlan, planAction, type PlanAction } from './planAction';
import './subscriptions.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** /app/subscriptions: the plan cards with buy, upgrade, downgrade and cancel. */
export default function PackagesPage() {
  const t = useT();
  const symbol = useAppSelector(selectCurrencySymbol);
  const packages = useListPackagesQuery();
  const [purchase, purchaseState] = usePurchasePackageMutation();
  const [cancel, cancelState] = useCancelSubscriptionMutation();
  // One Idempotency-Key per dialog: a second click or a retry after a lost answer cannot pay twice.
  const [pending, setPending] = useState<(PendingAction & { key: string }) | null>(null);

  const current = packages.data?.current_subscription ?? null;
  const currentName = packages.data?.data.find((plan) => plan.id === current?.package_id)?.name;

  const open = (plan: Package, action: PlanAction) =>
    setPending({ plan, action, key: crypto.randomUUID() });

  // Successes and failures are toasted by the API feedback middleware; the cache tags refresh
  // the cards, the history, the wallet and the sidebar balance.
  const confirm = async (remarks: string, amountDue?: number) => {
    if (!pending) {
      toast.error(t('plans.noneSelected'));
      return;
    }
    if (pending.action === 'cancel') {
      if (!current) {
        toast.error(t('plans.noneSelected'));
        return;
      }
      await cancel({ id: current.id }).unwrap();
    } else {
      await purchase({
        'Idempotency-Key': pending.key,
        purchaseRequest: {
          package_id: pending.plan.id,
          amount_due: amountDue,
          ...(pending.action === 'downgrade' ? { remarks } : {}),
        },
      }).unwrap();
    }
    setPending(null);
  };

  return (
    <div className="plans">
      <PageTitle
        lead={
          <>
            {t('plans.lead')} <Link to={paths.wallet}>{t('dashboard.deposit')}</Link>
          </>
        }
        actions={
          <Link to={paths.history} className="btn btn-outline-primary">
            {t('title.history')}
          </Link>
        }
      >
        {t('plans.title')}
      </PageTitle>

      <QueryState query={packages} what={t('plans.what')}>
        {(data) => (
          <>
            {current && (
              <Alert variant={current.status === 2 ? 'warning' : 'info'} className="plans__status">
                {t(current.status === 2 ? 'plans.canceled' : 'plans.active', {
                  plan: currentName ?? '',
                  date: formatDate(current.end_date),
                })}
              </Alert>
            )}
            <div className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3">
              {data.data.map((plan) => (
                <div className="col" key={plan.id}>
                  <PlanCard
                    plan={plan}
                    action={planAction(plan.price, current)}
                    current={isCurrentPlan(plan, current)}
                    symbol={symbol}
                    onAction={open}
                  />
                </div>
              ))}
            </div>
          </>
        )}
      </QueryState>

      <PlanActionModal
        pending={pending}
        current={current}
        currentName={currentName}
        symbol={symbol}
        busy={purchaseState.isLoading || cancelState.isLoading}
        onHide={() => setPending(null)}
        onConfirm={confirm}
      />
    </div>
  );
}
