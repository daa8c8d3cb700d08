import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useRevokeTokenMutation, type ApiKey } from '../../../api/apps';
import { TitledModal } from '../../../components/TitledModal';

/** Revoke, after a confirmation: the key stops working at once and cannot be restored. */
export function RevokeKeyButton({ appId, apiKey }: { appId: string; apiKey: ApiKey }) {
  const [confirming, setConfirming] = useState(false);
  const [revoke, { isLoading }] = useRevokeTokenMutation();

  const confirm = async () => {
    try {
      await revoke({ tokenId: apiKey.id, appid: appId }).unwrap();
      setConfirming(false);
    } catch {
      setConfirming(false); // the failure is toasted by the API layer
    }
  };

  return (
    <>
      <Button
        size="sm"
        variant="outline-danger"
        onClick={() => setConfirming(true)}
        aria-label={`Revoke ${apiKey.token_name}`}
      >
        Revoke
      </Button>
      <TitledModal show={confirming} onHide={() => setConfirming(false)} title={'Revoke Key'}>
        <Modal.Body className="text-break">
          Revoke <strong>{apiKey.token_name}</strong>? Calls made with it will be refused at once.
          This cannot be undone.
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} disabled={isLoading}>
            {isLoading && <Spinner size="sm" className="me-2" aria-hidden />}
            Yes, Revoke
          </Button>
        </Modal.Footer>
      </TitledModal>
    </>
  );
}
