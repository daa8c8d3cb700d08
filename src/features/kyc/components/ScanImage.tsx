import { skipToken } from '@reduxjs/toolkit/query';
import Spinner from 'react-bootstrap/Spinner';
import { imageObjectUrl, useGetImageQuery } from '../../../api/profile';
import { useT } from '../../../i18n/i18n';

/**
 * A KYC scan: only its owner's session may read it, so it is fetched with the session (not an
 * <img src>) and shown from an object URL that lives as long as the cached answer.
 */
export function useScanUrl(file: string | null): { url: string | null; failed: boolean } {
  const { data, isError } = useGetImageQuery(file ? { file } : skipToken);
  const url = file && data instanceof Blob ? imageObjectUrl(file, data) : null;
  return { url, failed: isError };
}

export function ScanImage({ file, label }: { file: string; label: string }) {
  const t = useT();
  const { url, failed } = useScanUrl(file);
  if (failed) return <span className="kyc-scan kyc-scan--missing">{t('kyc.notAvailable')}</span>;
  if (!url) {
    return (
      <span className="kyc-scan kyc-scan--loading">
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">{t('kyc.loadingScan', { label })}</span>
        </Spinner>
      </span>
    );
  }
  return (
    <a href={url} target="_blank" rel="noreferrer" className="kyc-scan">
      <img src={url} alt={label} />
    </a>
  );
}
