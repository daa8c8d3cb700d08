import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { Package } from '../../../api/subscriptions';
import { CheckIcon } from '../../../components/icons';
import { formatMoney } from '../../../lib/format';
import { PLAN_ACTION_LABEL, type PlanAction } from '../planAction';

interface Props {
  plan: Package;
  action: PlanAction;
  current: boolean;
  symbol: string;
  onAction: (plan: Package, action: PlanAction) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/** One package: price per period, fee, transaction limits, apps, and its action button. */
export function PlanCard({ plan, action, current, symbol, onAction }: Props) {
  const features = [
    `${plan.fees}% fee per transaction`,
    `Up to ${count(plan.tnx_limit)} transactions`,
    `${count(plan.daily_tnx_limit)} transactions a day`,
    `${count(plan.app_count)} ${plan.app_count === 1 ? 'app' : 'apps'}`,
  ];
  return (
    <Card
      className={`plan-card h-100${current ? ' plan-card--current' : ''}`}
      aria-label={`${plan.name} plan`}
      as="article"
    >
      <Card.Body className="d-flex flex-column">
        <div className="d-flex align-items-start justify-content-between gap-2 mb-2">
          <h2 className="plan-card__name">{plan.name}</h2>
          {current && <Badge bg="primary">Current Plan</Badge>}
        </div>
        <p className="plan-card__price">
          {formatMoney(plan.price, symbol)}
          <span> / {plan.duration_days} days</span>
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
          {PLAN_ACTION_LABEL[action]}
        </Button>
      </Card.Body>
    </Card>
  );
}
