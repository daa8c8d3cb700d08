import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useUpdatePermissionsMutation, type ApiKey, type TokenPermission } from '../../../api/apps';
import { MSG } from '../appRules';
import { PermissionChecks } from './PermissionChecks';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

interface Props {
  appId: string;
  apiKey: ApiKey | null;
  permissions: TokenPermission[];
  onHide: () => void;
}

export function EditPermissionsModal({ appId, apiKey, permissions, onHide }: Props) {
  const t = useT();
  return (
    <TitledModal show={apiKey !== null} onHide={onHide} title={t('keys.editPermissions')}>
      {apiKey && (
        <EditPermissionsBody
          key={apiKey.id}
          appId={appId}
          apiKey={apiKey}
          permissions={permissions}
          onDone={onHide}
        />
      )}
    </TitledModal>
  );
}

function EditPermissionsBody({
  appId,
  apiKey,
  permissions,
  onDone,
}: {
  appId: string;
  apiKey: ApiKey;
  permissions: TokenPermission[];
  onDone: () => void;
}) {
  const t = useT();
  const [selected, setSelected] = useState<string[]>(apiKey.abilities);
  const [error, setError] = useState<string>();
  const [update, { isLoading }] = useUpdatePermissionsMutation();

  const save = async () => {
    if (selected.length === 0) {
      setError(MSG.minOnePermission);
      return;
    }
    try {
      await update({
        tokenId: apiKey.id,
        updatePermissionsRequest: { abilities: selected, app_id: appId },
      }).unwrap();
      onDone();
    } catch (failure) {
      const messages = (failure as { fieldErrors?: Record<string, string[]> }).fieldErrors;
      setError(messages?.abilities?.[0]);
    }
  };

  return (
    <>
      <Modal.Body>
        <p className="mb-3 text-break">
          {withNodes(t, 'keys.key', {}, { name: <strong>{apiKey.token_name}</strong> })}
        </p>
        <PermissionChecks
          idPrefix={`edit-${apiKey.id}`}
          permissions={permissions}
          selected={selected}
          error={error}
          onChange={(next) => {
            setSelected(next);
            setError(undefined);
          }}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onDone}>
          {t('common.close')}
        </Button>
        <BusyButton onClick={() => void save()} busy={isLoading}>
          {t('keys.save')}
        </BusyButton>
      </Modal.Footer>
    </>
  );
}
