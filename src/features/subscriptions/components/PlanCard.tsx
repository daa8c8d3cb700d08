import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { Package } from '../../../api/subscriptions';
import { CheckIcon } from '../../../components/icons';
import { formatMoney } from '../../../lib/format';
import { PLAN_ACTION_LABEL, type PlanAction } from '../planAction';
import { useT } from '../../../i18n/i18n';

interface Props {
  plan: Package;
  action: PlanAction;
  current: boolean;
  symbol: string;
  onAction: (plan: Package, action: PlanAction) => void;
}

/** One package: price per period, fee, transaction limits, apps, and its action button. */
export function PlanCard({ plan, action, current, symbol, onAction }: Props) {
  const t = useT();
  // The counts are written as the language in use writes numbers (1,000; 1 000).
  const features = [
    t('plans.fee', { fee: plan.fees }),
    t('plans.limit', { count: plan.tnx_limit }),
    t('plans.perDay', { count: plan.daily_tnx_limit }),
    t('plans.apps', { count: plan.app_count }),
  ];
  return (
    <Card
      className={`plan-card h-100${current ? ' plan-card--current' : ''}`}
      aria-label={t('plans.cardLabel', { plan: plan.name })}
      as="article"
    >
      <Card.Body className="d-flex flex-column">
        <div className="d-flex align-items-start justify-content-between gap-2 mb-2">
          <h2 className="plan-card__name">{plan.name}</h2>
          {current && <Badge bg="primary">{t('plans.current')}</Badge>}
        </div>
        <p className="plan-card__price">
          {formatMoney(plan.price, symbol)}
          <span> {t('plans.perDays', { count: plan.duration_days })}</span>
        </p>
        <ul className="plan-card__features">
          {features.map((feature) => (
            <li key={feature}>
              <CheckIcon width={16} height={16} className="plan-card__tick" />
              {feature}
            </li>
          ))}
        </ul>
        <Button
          className="mt-auto w-100"
          variant={
            action === 'cancel'
              ? 'outline-danger'
              : action === 'downgrade'
                ? 'outline-primary'
                : 'primary'
          }
          onClick={() => onAction(plan, action)}
        >
          {t(PLAN_ACTION_LABEL[action])}
        </Button>
      </Card.Body>
    </Card>
  );
}
