import type { Refund } from '../../../api/refunds';
import { CopyButton } from '../../../components/CopyButton';
import { StatusBadge } from '../../../components/StatusBadge';
import { REFUND_STATUS } from '../refundRules';
import { useT } from '../../../i18n/i18n';

/** A refund's status as a badge. */
export function RefundBadge({ refund }: { refund: Pick<Refund, 'status'> }) {
  return <StatusBadge status={refund.status} names={REFUND_STATUS} />;
}

/** Copies a refund's claim link, with its toast. */
export function CopyClaimLinkButton({ url, className }: { url: string; className?: string }) {
  const t = useT();
  return (
    <CopyButton
      value={url}
      label={t('claim.copy')}
      successText={t('claim.copied')}
      className={className}
    >
      {t('copy.label')}
    </CopyButton>
  );
}
