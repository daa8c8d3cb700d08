import Card from 'react-bootstrap/Card';
import type { DashboardData } from '../../../api/generated/dashboard.gen';

/** Gateway transactions of the account's apps: today, this month and in total. */
export function TransactionCounts({ data }: { data: DashboardData }) {
  const counts = [
    { label: 'Today', value: data.daily_transaction },
    { label: 'This Month', value: data.monthly_transaction },
    { label: 'Total', value: data.total_transaction },
  ];
  return (
    <div className="row g-2 g-sm-3">
      {counts.map((count) => (
        <div className="col-4" key={count.label}>
          <Card className="dash-card count-card h-100">
            <Card.Body>
              <div className="count-card__label">{count.label}</div>
              <div className="count-card__value" aria-label={`${count.label} transactions`}>
                {count.value}
              </div>
              <div className="count-card__hint">Transactions</div>
            </Card.Body>
          </Card>
        </div>
      ))}
    </div>
  );
}
