import Alert from 'react-bootstrap/Alert';
import type { WebhookDeliveryResponse, WebhookDeliveryStatus } from '../../../api/webhooks';

const VARIANT: Record<WebhookDeliveryStatus, string> = {
  delivered: 'success',
  retrying: 'warning',
  pending: 'warning',
  failed: 'danger',
};

/**
 * What a test event or a Redeliver did with its first POST, in the outcome's colour. The answer's
 * message is said here only: a success toast would show "not delivered" in green
 * (app/middleware/apiFeedback.ts leaves these two writes to their screen).
 */
export function DeliveryOutcome({
  answer,
  className,
}: {
  answer: WebhookDeliveryResponse | null;
  className?: string;
}) {
  if (!answer) return null;
  return (
    <Alert variant={VARIANT[answer.data.delivery.status]} className={className} role="status">
      {answer.msg}
    </Alert>
  );
}
