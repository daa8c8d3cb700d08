import { SECURITY_MESSAGES } from '../../shared/security';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useChangePasswordMutation } from '../../api/security';
import { filters, useForm, type FieldErrors } from '../../components/form/useForm';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { SecretField } from '../../components/form/SecretField';
import { validSubmit } from '../../components/form/validSubmit';
import { BusyButton } from '../../components/BusyButton';
import './security.scss';
import { PageTitle } from '../../components/PageTitle';

const EMPTY = { currentpassword: '', newpassword: '', newpassword_confirmation: '', mpin: '' };
type Values = typeof EMPTY;

export function validateChangePassword(values: Values): FieldErrors<Values> {
  const errors: FieldErrors<Values> = {};
  if (!values.currentpassword) errors.currentpassword = 'Current Password is required';
  if (!values.newpassword) errors.newpassword = 'New password is required';
  if (!values.newpassword_confirmation) {
    errors.newpassword_confirmation = 'Confirm Password is required';
  } else if (values.newpassword && values.newpassword !== values.newpassword_confirmation) {
    errors.newpassword_confirmation = SECURITY_MESSAGES.passwordMismatch;
  }
  if (!values.mpin) errors.mpin = '4 Digit Pin is required';
  return errors;
}

const RULES = { filters: { mpin: filters.digits }, maxLength: { mpin: 4 } };

/** /app/changepassword: a new password, authorised by the current one and the pin. */
export default function ChangePasswordPage() {
  const form = useForm(EMPTY, RULES);
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  const submit = validSubmit(form, validateChangePassword, async (values) => {
    await changePassword({ changePasswordRequest: values }).unwrap();
    form.reset();
  });

  const field = (name: keyof Values) => ({ ...form.bind(name), error: form.errors[name] });

  return (
    <section className="change-password">
      <PageTitle lead="Your other signed-in devices are signed out when the password changes.">
        Change Password
      </PageTitle>
      <Card body>
        <Form noValidate onSubmit={(event) => void submit(event)} aria-label="Change Password">
          <SecretField
            id="current-password"
            label="Current Password"
            autoComplete="current-password"
            {...field('currentpassword')}
          />
          <SecretField
            id="new-password"
            label="New Password"
            autoComplete="new-password"
            aria-describedby="new-password-rules"
            {...field('newpassword')}
          />
          <PasswordChecklist
            id="new-password-rules"
            password={form.values.newpassword}
            className="mb-3"
          />
          <SecretField
            id="confirm-password"
            label="Confirm Password"
            autoComplete="new-password"
            {...field('newpassword_confirmation')}
          />
          <SecretField
            id="password-pin"
            label="4 Digit Pin"
            autoComplete="off"
            inputMode="numeric"
            {...field('mpin')}
          />
          <BusyButton type="submit" busy={isLoading}>
            Update Password
          </BusyButton>
        </Form>
      </Card>
    </section>
  );
}
