import { SECURITY_MESSAGES } from '../../../shared/security';
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useChangeMpinMutation } from '../../../api/security';
import { filters, useForm, type FieldErrors } from '../../../components/form/useForm';
import { SecretField } from '../../../components/form/SecretField';

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

/** The pin panel: a new 4-digit pin, authorised by the account password. */
export function ChangePinForm() {
  const form = useForm(EMPTY, PIN_RULES);
  const [changeMpin, { isLoading }] = useChangeMpinMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = validateChangePin(form.values);
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return;
    try {
      await changeMpin({ changeMpinRequest: form.values }).unwrap();
      form.reset();
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

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
        <div className="col-sm-6">
          <SecretField
            id="pin-new"
            label="New 4 Digit Pin"
            autoComplete="off"
            inputMode="numeric"
            {...field('spassword')}
          />
        </div>
        <div className="col-sm-6">
          <SecretField
            id="pin-confirm"
            label="Confirm Pin"
            autoComplete="off"
            inputMode="numeric"
            {...field('spassword_confirmation')}
          />
        </div>
      </div>
      <Button type="submit" disabled={isLoading}>
        {isLoading && <Spinner size="sm" className="me-2" aria-hidden />}
        Update Pin
      </Button>
    </Form>
  );
}
