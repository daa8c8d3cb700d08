import { SECURITY_MESSAGES } from '../../../shared/security';
import Form from 'react-bootstrap/Form';
import { useChangeMpinMutation } from '../../../api/security';
import { filters, useForm, type FieldErrors } from '../../../components/form/useForm';
import { SecretField } from '../../../components/form/SecretField';
import { validSubmit } from '../../../components/form/validSubmit';
import { BusyButton } from '../../../components/BusyButton';

const EMPTY = { password: '', spassword: '', spassword_confirmation: '' };
type Values = typeof EMPTY;

export function validateChangePin(values: Values): FieldErrors<Values> {
  const errors: FieldErrors<Values> = {};
  if (!values.password) errors.password = 'Current Password is required';
  if (!values.spassword) errors.spassword = 'New 4 Digit Pin is required';
  if (!values.spassword_confirmation) {
    errors.spassword_confirmation = 'Confirm Pin is required';
  } else if (values.spassword && values.spassword !== values.spassword_confirmation) {
    errors.spassword_confirmation = SECURITY_MESSAGES.pinMismatch;
  }
  return errors;
}

const PIN_RULES = {
  filters: { spassword: filters.digits, spassword_confirmation: filters.digits },
  maxLength: { spassword: 4, spassword_confirmation: 4 },
};

/** The new pin and its confirmation, side by side. */
const NEW_PIN_FIELDS: { id: string; label: string; name: keyof Values }[] = [
  { id: 'pin-new', label: 'New 4 Digit Pin', name: 'spassword' },
  { id: 'pin-confirm', label: 'Confirm Pin', name: 'spassword_confirmation' },
];

/** The pin panel: a new 4-digit pin, authorised by the account password. */
export function ChangePinForm() {
  const form = useForm(EMPTY, PIN_RULES);
  const [changeMpin, { isLoading }] = useChangeMpinMutation();

  const submit = validSubmit(form, validateChangePin, async (values) => {
    await changeMpin({ changeMpinRequest: values }).unwrap();
    form.reset();
  });

  const field = (name: keyof Values) => ({ ...form.bind(name), error: form.errors[name] });

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-label="Change 4 Digit Pin">
      <p className="text-secondary small">
        Change the 4 digit pin you sign in with. Confirm it with your account password.
      </p>
      <SecretField
        id="pin-current-password"
        label="Current Password"
        autoComplete="current-password"
        {...field('password')}
      />
      <div className="row g-sm-3">
        {NEW_PIN_FIELDS.map(({ id, label, name }) => (
          <div className="col-sm-6" key={id}>
            <SecretField
              id={id}
              label={label}
              autoComplete="off"
              inputMode="numeric"
              {...field(name)}
            />
          </div>
        ))}
      </div>
      <BusyButton type="submit" busy={isLoading}>
        Update Pin
      </BusyButton>
    </Form>
  );
}
