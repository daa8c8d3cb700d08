import Form from 'react-bootstrap/Form';
import type { TokenPermission } from '../../../api/apps';
import { useT } from '../../../i18n/i18n';
import { abilityTitle } from '../abilityTitle';

interface Props {
  idPrefix: string;
  permissions: TokenPermission[];
  selected: string[];
  error?: string;
  onChange: (selected: string[]) => void;
}

/** One checkbox per available permission (titles only; the values are not shown). */
export function PermissionChecks({ idPrefix, permissions, selected, error, onChange }: Props) {
  const t = useT();
  const toggle = (value: string, on: boolean) =>
    onChange(
      on
        ? permissions.map((p) => p.value).filter((v) => v === value || selected.includes(v))
        : selected.filter((v) => v !== value),
    );
  return (
    <fieldset aria-describedby={error ? `${idPrefix}-error` : undefined}>
      <legend className="form-label fs-6 mb-2">{t('keys.permissions')}</legend>
      <div className="permission-checks">
        {permissions.map((permission) => (
          <Form.Check
            key={permission.value}
            id={`${idPrefix}-${permission.value}`}
            label={abilityTitle(t, permission.value, permission.title)}
            checked={selected.includes(permission.value)}
            isInvalid={Boolean(error)}
            onChange={(event) => toggle(permission.value, event.target.checked)}
          />
        ))}
      </div>
      {error && (
        <div id={`${idPrefix}-error`} className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      )}
    </fieldset>
  );
}
