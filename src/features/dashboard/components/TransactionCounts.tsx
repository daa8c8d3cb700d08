import Card from 'react-bootstrap/Card';
import type { DashboardData } from '../../../api/generated/dashboard.gen';
import { useT } from '../../../i18n/i18n';

/** Gateway transactions of the account's apps: today, this month and in total. */
export function TransactionCounts({ data }: { data: DashboardData }) {
  const t = useT();
  const counts = [
    { label: t('dashboard.today'), value: data.daily_transaction },
    { label: t('dashboard.month'), value: data.monthly_transaction },
    { label: t('dashboard.total'), value: data.total_transaction },
  ];
  return (
    <div className="row g-2 g-sm-3">
      {counts.map((count) => (
        <div className="col-4" key={count.label}>
          <Card className="dash-card count-card h-100">
            <Card.Body>
              <div className="count-card__label">{count.label}</div>
              <div
                className="count-card__value"
                aria-label={t('dashboard.countLabel', { label: count.label })}
              >
                {count.value}
              </div>
              <div className="count-card__hint">{t('dashboard.transactions')}</div>
            </Card.Body>
          </Card>
        </div>
      ))}
    </div>
  );
}
