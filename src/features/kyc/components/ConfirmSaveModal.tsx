import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

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
  return (
    <Modal show={show} onHide={busy ? undefined : onCancel} centered aria-labelledby="confirm-save">
      <Modal.Header closeButton={!busy}>
        <Modal.Title id="confirm-save" as="h2" className="h5">
          Confirm Save
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        Are you sure you want to save {subject}? It will be sent for verification.
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="primary" onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          Yes, Save
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
