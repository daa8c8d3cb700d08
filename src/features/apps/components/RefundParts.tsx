import type { Refund } from '../../../api/refunds';
import { CopyButton } from '../../../components/CopyButton';
import { StatusBadge } from '../../../components/StatusBadge';
import { REFUND_STATUS } from '../refundRules';

/** A refund's status as a badge. */
export function RefundBadge({ refund }: { refund: Pick<Refund, 'status'> }) {
  return <StatusBadge status={refund.status} names={REFUND_STATUS} />;
}

/** Copies a refund's claim link, with its toast. */
export function CopyClaimLinkButton({ url, className }: { url: string; className?: string }) {
  return (
    <CopyButton
      value={url}
      label="Copy claim link"
      successText="Claim link copied"
      className={className}
    >
      Copy
    </CopyButton>
  );
}
