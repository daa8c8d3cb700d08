import { UPLOAD_STATUS } from '../kycRules';

/** Pending / Approved / Rejected, for an upload or the personal section. */
export function StatusBadge({ status }: { status: 0 | 1 | 2 }) {
  const { label, tone } = UPLOAD_STATUS[status];
  return <span className={`kyc-status kyc-status--${tone}`}>{label}</span>;
}
