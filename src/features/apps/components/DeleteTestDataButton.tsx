import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useDeleteTestDataMutation, type App } from '../../../api/apps';
import { BusyButton } from '../../../components/BusyButton';
import { TitledModal } from '../../../components/TitledModal';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/**
 * A test app's Delete test data, after a confirmation that says what goes and what stays. The
 * server refuses while a test withdrawal or refund is on its way (its message is toasted).
 */
export function DeleteTestDataButton({ app }: { app: App }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [deleteData, { isLoading }] = useDeleteTestDataMutation();

  const confirm = async () => {
    await deleteData({ id: app.id })
      .unwrap()
      .catch(() => null); // the failure is toasted by the API layer
    setConfirming(false);
  };

  return (
    <>
      <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)}>
        {t('testMode.deleteData')}
      </Button>
      <TitledModal
        show={confirming}
        onHide={() => setConfirming(false)}
        title={t('testMode.deleteTitle')}
      >
        <Modal.Body className="text-break">
          <p>{withNodes(t, 'testMode.deleteBody', {}, { app: <strong>{app.app_name}</strong> })}</p>
          <p className="mb-0">{t('testMode.deleteKeeps')}</p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
          <BusyButton variant="danger" onClick={() => void confirm()} busy={isLoading}>
            {t('testMode.deleteConfirm')}
          </BusyButton>
        </Modal.Footer>
      </TitledModal>
    </>
  );
}
