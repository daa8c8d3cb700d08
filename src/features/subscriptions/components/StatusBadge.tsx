import Badge from 'react-bootstrap/Badge';
import type { SubscriptionRow } from '../../../api/subscriptions';

const STATUS: Record<SubscriptionRow['status'], { label: string; bg: string }> = {
  0: { label: 'Expired', bg: 'secondary' },
  1: { label: 'Active', bg: 'success' },
  2: { label: 'Canceled', bg: 'danger' },
};

/** A purchase's status: 0 Expired, 1 Active, 2 Canceled. */
export function StatusBadge({ status }: { status: SubscriptionRow['status'] }) {
  const { label, bg } = STATUS[status];
  return <Badge bg={bg}>{label}</Badge>;
}
