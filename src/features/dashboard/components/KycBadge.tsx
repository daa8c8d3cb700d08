import { Link } from 'react-router-dom';
import type { Profile } from '../../../api/generated/profile.gen';
import { paths } from '../../../app/paths';
import { ShieldIcon } from '../../../components/icons';
import { useT, type MessageKey } from '../../../i18n/i18n';

type KycStatus = Profile['status_kyc'];

/** status_kyc as words (0 Not Uploaded, 1 Approved, 2 Rejected, 3 Unverified) and the badge colour for each. */
export const KYC_STATUS: Record<KycStatus, { label: MessageKey; tone: string }> = {
  0: { label: 'kycStatus.notUploaded', tone: 'secondary' },
  1: { label: 'kycStatus.approved', tone: 'success' },
  2: { label: 'kycStatus.rejected', tone: 'danger' },
  3: { label: 'kycStatus.unverified', tone: 'warning' },
};

/** The account's identity verification state, linking to /app/kyc. */
export function KycBadge({ status }: { status: KycStatus }) {
  const t = useT();
  const { label, tone } = KYC_STATUS[status];
  return (
    <Link to={paths.kyc} className={`kyc-badge kyc-badge--${tone}`}>
      <ShieldIcon width={15} height={15} />
      {t('dashboard.kyc', { status: t(label) })}
    </Link>
  );
}
