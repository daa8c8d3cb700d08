import Badge from 'react-bootstrap/Badge';
import { DEPOSIT_STATUS, depositVariant, SEND_STATUS, sendVariant } from '../appRules';

export function DepositStatusBadge({ status }: { status: number }) {
  return (
    <Badge bg={depositVariant(status)} className="text-wrap">
      {DEPOSIT_STATUS[status] ?? String(status)}
    </Badge>
  );
}

export function SendStatusBadge({ status }: { status: number }) {
  return (
    <Badge bg={sendVariant(status)} className="text-wrap">
      {SEND_STATUS[status] ?? String(status)}
    </Badge>
  );
}
