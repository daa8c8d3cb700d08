import Modal from 'react-bootstrap/Modal';
import type { DocumentType, Upload } from '../../../api/generated/kyc.gen';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDateTime } from '../../../lib/format';
import { ScanImage } from './ScanImage';
import { StatusBadge } from '../../../components/StatusBadge';
import { UPLOAD_STATUS } from '../kycRules';

/** The columns of the history; the scans load only while the modal is shown. */
function columns(show: boolean): Column<Upload>[] {
  return [
    { header: 'Document', cell: (upload) => upload.document_name },
    {
      header: 'Number',
      className: 'font-monospace',
      cell: (upload) => upload.document_number ?? '----',
    },
    {
      header: 'Images',
      cell: (upload) => (
        <div className="d-flex gap-2">
          {show && upload.front ? (
            <ScanImage file={upload.front} label={`${upload.document_name} front`} />
          ) : null}
          {show && upload.back ? (
            <ScanImage file={upload.back} label={`${upload.document_name} back`} />
          ) : null}
          {!upload.front && !upload.back ? '----' : null}
        </div>
      ),
    },
    {
      header: 'Status',
      cell: (upload) => <StatusBadge status={upload.status} names={UPLOAD_STATUS} />,
    },
    { header: 'Remarks', cell: (upload) => upload.remarks ?? '----' },
    {
      header: 'Uploaded',
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
  return (
    <Modal
      show={show}
      onHide={onHide}
      size="xl"
      centered
      scrollable
      aria-labelledby={`history-${type.id}`}
    >
      <Modal.Header closeButton>
        <Modal.Title id={`history-${type.id}`} as="h2" className="h5">
          {type.document_type} History
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="p-0">
        <DataTable
          responsive
          className="mb-0 kyc-history"
          columns={columns(show)}
          rows={type.uploads.data}
          rowKey={(upload) => upload.id}
        />
      </Modal.Body>
    </Modal>
  );
}
