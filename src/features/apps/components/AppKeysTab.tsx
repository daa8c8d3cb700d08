import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import {
  useGenerateApiKeyMutation,
  useListTokenPermissionsQuery,
  useListTokensQuery,
  type ApiKey,
} from '../../../api/apps';
import {
  DATA_TABLE_CLASS,
  DataTableHead,
  DataTableRow,
  type Column,
} from '../../../components/DataTable';
import { QueryState } from '../../../components/QueryState';
import { useForm } from '../../../components/form/useForm';
import { formatDateTime } from '../../../lib/format';
import { MSG } from '../appRules';
import { EditPermissionsModal } from './EditPermissionsModal';
import { GatewayQuickStart } from './GatewayQuickStart';
import { NewKeyPanel } from './NewKeyPanel';
import { PermissionChecks } from './PermissionChecks';
import { RevokeKeyButton } from './RevokeKeyButton';
import { BusyButton } from '../../../components/BusyButton';
import { useT } from '../../../i18n/i18n';
import { abilityTitle } from '../abilityTitle';

/**
 * Key name + permissions form, the new key shown once, how to call the gateway with it, and the
 * table of live keys.
 */
export function AppKeysTab({ appId, livemode }: { appId: string; livemode: boolean }) {
  const t = useT();
  const permissions = useListTokenPermissionsQuery();
  const keys = useListTokensQuery({ appid: appId });
  const [generate, { isLoading }] = useGenerateApiKeyMutation();
  const form = useForm({ token_name: '' }, { maxLength: { token_name: 100 } });
  const [abilities, setAbilities] = useState<string[]>([]);
  const [abilitiesError, setAbilitiesError] = useState<string>();
  const [newKey, setNewKey] = useState<string | null>(null);
  const [editing, setEditing] = useState<ApiKey | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = form.values.token_name.trim();
    if (name === '') form.setErrors({ token_name: MSG.keyNameRequired });
    setAbilitiesError(abilities.length === 0 ? MSG.minOnePermission : undefined);
    if (name === '' || abilities.length === 0) return;
    try {
      const result = await generate({
        generateApiKeyRequest: { token_name: name, app_id: appId, abilities },
      }).unwrap();
      form.reset();
      setAbilities([]);
      setNewKey(result.token);
    } catch (error) {
      form.applyServerErrors(error);
      const messages = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
      if (messages?.abilities?.[0]) setAbilitiesError(messages.abilities[0]);
    }
  };

  const titleOf = (value: string) =>
    abilityTitle(t, value, permissions.data?.data.find((p) => p.value === value)?.title);

  const columns: Column<ApiKey>[] = [
    { header: t('keys.name'), className: 'key-name-cell', cell: (key) => key.token_name },
    {
      header: t('keys.created'),
      className: 'text-nowrap',
      cell: (key) => formatDateTime(key.created_at),
    },
    {
      header: t('keys.permissions'),
      className: 'small text-muted',
      cell: (key) => key.abilities.map(titleOf).join(', '),
    },
    {
      header: t('history.action'),
      className: 'key-actions-cell',
      cell: (key) => (
        <div className="d-flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline-primary"
            onClick={() => setEditing(key)}
            aria-label={t('keys.editPermissionsOf', { name: key.token_name })}
          >
            {t('keys.editPermissions')}
          </Button>
          <RevokeKeyButton appId={appId} apiKey={key} />
        </div>
      ),
    },
  ];

  return (
    <>
      <Card className="mb-4">
        <Card.Body>
          {newKey ? (
            <NewKeyPanel token={newKey} onBack={() => setNewKey(null)} />
          ) : (
            <Form noValidate onSubmit={(event) => void submit(event)}>
              <Form.Group controlId="key-name" className="mb-3">
                <Form.Label>{t('keys.name')}</Form.Label>
                <Form.Control
                  {...form.bind('token_name')}
                  placeholder={t('keys.namePlaceholder')}
                />
                <Form.Control.Feedback type="invalid">
                  {form.errors.token_name}
                </Form.Control.Feedback>
              </Form.Group>
              <PermissionChecks
                idPrefix="new-key"
                permissions={permissions.data?.data ?? []}
                selected={abilities}
                error={abilitiesError}
                onChange={(next) => {
                  setAbilities(next);
                  setAbilitiesError(undefined);
                }}
              />
              <BusyButton type="submit" className="mt-3" busy={isLoading}>
                {t('kyc.submit')}
              </BusyButton>
            </Form>
          )}
        </Card.Body>
      </Card>

      <GatewayQuickStart apiKey={newKey} livemode={livemode} />

      <Card className="table-card">
        <Card.Body>
          <div className="table-responsive">
            <Table hover className={`${DATA_TABLE_CLASS} align-middle mb-0`}>
              <caption className="visually-hidden">{t('keys.caption')}</caption>
              <DataTableHead columns={columns} />
              <tbody>
                <QueryState
                  query={keys}
                  what={t('keys.what')}
                  colSpan={columns.length}
                  isEmpty={(list) => list.data.length === 0}
                >
                  {(list) =>
                    list.data.map((key) => (
                      <DataTableRow key={key.id} columns={columns} row={key} />
                    ))
                  }
                </QueryState>
              </tbody>
            </Table>
          </div>
        </Card.Body>
      </Card>

      <EditPermissionsModal
        appId={appId}
        apiKey={editing}
        permissions={permissions.data?.data ?? []}
        onHide={() => setEditing(null)}
      />
    </>
  );
}
