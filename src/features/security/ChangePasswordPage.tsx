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
import { t as translate, useT } from '../../i18n/i18n';
// The new-password messages are password reset's, in the auth catalogue (as the checklist's).
import '../../i18n/auth';

const EMPTY = { currentpassword: '', newpassword: '', newpassword_confirmation: '', mpin: '' };
type Values = typeof EMPTY;

export function validateChangePassword(values: Values): FieldErrors<Values> {
  const errors: FieldErrors<Values> = {};
  if (!values.currentpassword) errors.currentpassword = translate('security.currentRequired');
  if (!values.newpassword) errors.newpassword = translate('reset.newPasswordRequired');
  if (!values.newpassword_confirmation) {
    errors.newpassword_confirmation = translate('reset.confirmRequired');
  } else if (values.newpassword && values.newpassword !== values.newpassword_confirmation) {
    // SECURITY_MESSAGES.passwordMismatch, as the server says it.
    errors.newpassword_confirmation = translate('reset.mismatch');
  }
  if (!values.mpin) errors.mpin = translate('reset.pinRequired');
  return errors;
}

const RULES = { filters: { mpin: filters.digits }, maxLength: { mpin: 4 } };

/** /app/changepassword: a new password, authorised by the current one and the pin. */
export default function ChangePasswordPage() {
  const t = useT();
  const form = useForm(EMPTY, RULES);
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  const submit = validSubmit(form, validateChangePassword, async (values) => {
    await changePassword({ changePasswordRequest: values }).unwrap();
    form.reset();
  });

  const field = (name: keyof Values) => ({ ...form.bind(name), error: form.errors[name] });

  return (
    <section className="change-password">
      <PageTitle lead={t('security.changeLead')}>{t('title.changePassword')}</PageTitle>
      <Card body>
        <Form
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-label={t('title.changePassword')}
        >
          <SecretField
            id="current-password"
            label={t('security.current')}
            autoComplete="current-password"
            {...field('currentpassword')}
          />
          <SecretField
            id="new-password"
            label={t('reset.newPassword')}
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
            label={t('reset.confirm')}
            autoComplete="new-password"
            {...field('newpassword_confirmation')}
          />
          <SecretField
            id="password-pin"
            label={t('login.mpin.label')}
            autoComplete="off"
            inputMode="numeric"
            {...field('mpin')}
          />
          <BusyButton type="submit" busy={isLoading}>
            {t('security.updatePassword')}
          </BusyButton>
        </Form>
      </Card>
    </section>
  );
}
