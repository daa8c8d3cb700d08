import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useRevokeTokenMutation, type ApiKey } from '../../../api/apps';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/** Revoke, after a confirmation: the key stops working at once and cannot be restored. */
export function RevokeKeyButton({ appId, apiKey }: { appId: string; apiKey: ApiKey }) {
  const t = useT();
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
        aria-label={t('keys.revokeOf', { name: apiKey.token_name })}
      >
        {t('keys.revoke')}
      </Button>
      <TitledModal
        show={confirming}
        onHide={() => setConfirming(false)}
        title={t('keys.revokeTitle')}
      >
        <Modal.Body className="text-break">
          {withNodes(t, 'keys.revokeConfirm', {}, { name: <strong>{apiKey.token_name}</strong> })}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            {t('kyc.cancel')}
          </Button>
          <BusyButton variant="danger" onClick={() => void confirm()} busy={isLoading}>
            {t('keys.revokeYes')}
          </BusyButton>
        </Modal.Footer>
      </TitledModal>
    </>
  );
}
