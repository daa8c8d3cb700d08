import Modal from 'react-bootstrap/Modal';
import type { DocumentType, Upload } from '../../../api/generated/kyc.gen';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDateTime } from '../../../lib/format';
import { ScanImage } from './ScanImage';
import { StatusBadge } from '../../../components/StatusBadge';
import { uploadStatus } from '../kycRules';
import { useT, type Translate } from '../../../i18n/i18n';

/** The columns of the history; the scans load only while the modal is shown. */
function columns(t: Translate, show: boolean): Column<Upload>[] {
  return [
    { header: t('kyc.document'), cell: (upload) => upload.document_name },
    {
      header: t('kyc.number'),
      className: 'font-monospace',
      cell: (upload) => upload.document_number ?? '----',
    },
    {
      header: t('kyc.images'),
      cell: (upload) => (
        <div className="d-flex gap-2">
          {show && upload.front ? (
            <ScanImage
              file={upload.front}
              label={t('kyc.scanFront', { name: upload.document_name })}
            />
          ) : null}
          {show && upload.back ? (
            <ScanImage
              file={upload.back}
              label={t('kyc.scanBack', { name: upload.document_name })}
            />
          ) : null}
          {!upload.front && !upload.back ? '----' : null}
        </div>
      ),
    },
    {
      header: t('wallet.status'),
      cell: (upload) => <StatusBadge status={upload.status} names={uploadStatus(t)} />,
    },
    { header: t('kyc.remarks'), cell: (upload) => upload.remarks ?? '----' },
    {
      header: t('kyc.uploaded'),
      className: 'text-nowrap',
      cell: (upload) => formatDateTime(upload.created_at),
    },
  ];
}

/** Every upload of one document type, newest first, with the reviewer's remarks. */
export function HistoryModal({
  type,
  show,
  onHide,
}: {
  type: DocumentType;
  show: boolean;
  onHide: () => void;
}) {
  const t = useT();
  return (
    <Modal
      show={show}
      onHide={onHide}
      size="xl"
      centered
      scrollable
      aria-labelledby={`history-${type.id}`}
    >
      <Modal.Header closeButton closeLabel={t('common.close')}>
        <Modal.Title id={`history-${type.id}`} as="h2" className="h5">
          {t('kyc.historyTitle', { type: type.document_type })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="p-0">
        <DataTable
          responsive
          className="mb-0 kyc-history"
          columns={columns(t, show)}
          rows={type.uploads.data}
          rowKey={(upload) => upload.id}
        />
      </Modal.Body>
    </Modal>
  );
}
