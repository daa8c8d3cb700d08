import type { PaymentLink } from '../../../api/paymentLinks';
import { CopyButton } from '../../../components/CopyButton';
import { StatusBadge } from '../../../components/StatusBadge';
import { PAYMENT_LINK_STATUS } from '../paymentLinkRules';
import { useT } from '../../../i18n/i18n';

/** A link's status as a badge. */
export function PaymentLinkBadge({ link }: { link: Pick<PaymentLink, 'status'> }) {
  return <StatusBadge status={link.status} names={PAYMENT_LINK_STATUS} />;
}

/** Copies a link's URL, with the toast the invoice's checkout link copy gives. */
export function CopyLinkButton({ url, className }: { url: string; className?: string }) {
  const t = useT();
  return (
    <CopyButton
      value={url}
      label={t('link.copy')}
      successText={t('link.copied')}
      className={className}
    >
      {t('copy.label')}
    </CopyButton>
  );
}
