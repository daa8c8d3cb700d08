import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useT } from '../../../i18n/i18n';

interface Props {
  show: boolean;
  /** What is being saved, e.g. 'your personal information'. */
  subject: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before a save that the reviewers will see (and that may lock the section). */
export function ConfirmSaveModal({ show, subject, busy, onCancel, onConfirm }: Props) {
  const t = useT();
  return (
    <Modal show={show} onHide={busy ? undefined : onCancel} centered aria-labelledby="confirm-save">
      <Modal.Header closeButton={!busy} closeLabel={t('common.close')}>
        <Modal.Title id="confirm-save" as="h2" className="h5">
          {t('kyc.confirmTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{t('kyc.confirmBody', { subject })}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          {t('kyc.cancel')}
        </Button>
        <Button variant="primary" onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          {t('kyc.yesSave')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
