import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { DocumentType } from '../../../api/generated/kyc.gen';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime } from '../../../lib/format';
import { ScanImage } from './ScanImage';
import { StatusBadge } from '../../../components/StatusBadge';
import { UPLOAD_STATUS } from '../kycRules';

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
  const uploads = type.uploads.data;
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
        <Table responsive className="mb-0 kyc-history">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Number</th>
              <th scope="col">Images</th>
              <th scope="col">Status</th>
              <th scope="col">Remarks</th>
              <th scope="col">Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {uploads.length === 0 ? (
              <EmptyState colSpan={6} />
            ) : (
              uploads.map((upload) => (
                <tr key={upload.id}>
                  <td>{upload.document_name}</td>
                  <td className="font-monospace">{upload.document_number ?? '----'}</td>
                  <td>
                    <div className="d-flex gap-2">
                      {show && upload.front ? (
                        <ScanImage file={upload.front} label={`${upload.document_name} front`} />
                      ) : null}
                      {show && upload.back ? (
                        <ScanImage file={upload.back} label={`${upload.document_name} back`} />
                      ) : null}
                      {!upload.front && !upload.back ? '----' : null}
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={upload.status} names={UPLOAD_STATUS} />
                  </td>
                  <td>{upload.remarks ?? '----'}</td>
                  <td className="text-nowrap">{formatDateTime(upload.created_at)}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </Modal.Body>
    </Modal>
  );
}
