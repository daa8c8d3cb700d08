import Form from 'react-bootstrap/Form';
import { useChangeMpinMutation } from '../../../api/security';
import { filters, useForm, type FieldErrors } from '../../../components/form/useForm';
import { SecretField } from '../../../components/form/SecretField';
import { validSubmit } from '../../../components/form/validSubmit';
import { BusyButton } from '../../../components/BusyButton';
import { t as translate, useT, type MessageKey } from '../../../i18n/i18n';

const EMPTY = { password: '', spassword: '', spassword_confirmation: '' };
type Values = typeof EMPTY;

export function validateChangePin(values: Values): FieldErrors<Values> {
  const errors: FieldErrors<Values> = {};
  if (!values.password) errors.password = translate('security.currentRequired');
  if (!values.spassword) errors.spassword = translate('security.newPinRequired');
  if (!values.spassword_confirmation) {
    errors.spassword_confirmation = translate('security.confirmPinRequired');
  } else if (values.spassword && values.spassword !== values.spassword_confirmation) {
    // SECURITY_MESSAGES.pinMismatch (shared/security), as the server says it.
    errors.spassword_confirmation = translate('security.pinMismatch');
  }
  return errors;
}

const PIN_RULES = {
  filters: { spassword: filters.digits, spassword_confirmation: filters.digits },
  maxLength: { spassword: 4, spassword_confirmation: 4 },
};

/** The new pin and its confirmation, side by side. */
const NEW_PIN_FIELDS: { id: string; label: MessageKey; name: keyof Values }[] = [
  { id: 'pin-new', label: 'security.newPin', name: 'spassword' },
  { id: 'pin-confirm', label: 'security.confirmPin', name: 'spassword_confirmation' },
];

/** The pin panel: a new 4-digit pin, authorised by the account password. */
export function ChangePinForm() {
  const t = useT();
  const form = useForm(EMPTY, PIN_RULES);
  const [changeMpin, { isLoading }] = useChangeMpinMutation();

  const submit = validSubmit(form, validateChangePin, async (values) => {
    await changeMpin({ changeMpinRequest: values }).unwrap();
    form.reset();
  });

  const field = (name: keyof Values) => ({ ...form.bind(name), error: form.errors[name] });

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-label={t('security.pinForm')}>
      <p className="text-secondary small">{t('security.pinLead')}</p>
      <SecretField
        id="pin-current-password"
        label={t('security.current')}
        autoComplete="current-password"
        {...field('password')}
      />
      <div className="row g-sm-3">
        {NEW_PIN_FIELDS.map(({ id, label, name }) => (
          <div className="col-sm-6" key={id}>
            <SecretField
              id={id}
              label={t(label)}
              autoComplete="off"
              inputMode="numeric"
              {...field(name)}
            />
          </div>
        ))}
      </div>
      <BusyButton type="submit" busy={isLoading}>
        {t('security.updatePin')}
      </BusyButton>
    </Form>
  );
}
