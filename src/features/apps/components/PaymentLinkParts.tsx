import type { PaymentLink } from '../../../api/paymentLinks';
import { CopyButton } from '../../../components/CopyButton';
import { StatusBadge } from '../../../components/StatusBadge';
import { PAYMENT_LINK_STATUS } from '../paymentLinkRules';

/** A link's status as a badge. */
export function PaymentLinkBadge({ link }: { link: Pick<PaymentLink, 'status'> }) {
  return <StatusBadge status={link.status} names={PAYMENT_LINK_STATUS} />;
}

/** Copies a link's URL, with the toast the invoice's checkout link copy gives. */
export function CopyLinkButton({ url, className }: { url: string; className?: string }) {
  return (
    <CopyButton
      value={url}
      label="Copy payment link"
      successText="Payment link copied"
      className={className}
    >
      Copy
    </CopyButton>
  );
}
