import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useRevokeTokenMutation, type ApiKey } from '../../../api/apps';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';

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
          <BusyButton variant="danger" onClick={() => void confirm()} busy={isLoading}>
            Yes, Revoke
          </BusyButton>
        </Modal.Footer>
      </TitledModal>
    </>
  );
}
