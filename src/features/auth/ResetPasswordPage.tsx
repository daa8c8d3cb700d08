import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useRequestPasswordResetMutation, useResetPasswordMutation } from '../../api/recovery';
import { paths } from '../../app/paths';
import { SecretField } from '../../components/form/SecretField';
import { TextInput } from '../../components/form/TextInput';
import { useHydrated } from '../../components/form/useHydrated';
import { filters, useForm, type FieldErrors } from '../../components/form/useForm';
import { validSubmit } from '../../components/form/validSubmit';
import { ArrowLeftIcon } from '../../components/publicIcons';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { PublicLayout } from './components/PublicLayout';
import { t as translate, useT } from '../../i18n/i18n';
import '../../i18n/auth';
import { withNodes } from '../../i18n/withNodes';

// Bootstrap's classes on plain elements, as /login does (components/form/TextInput).

const CODE_LENGTH = 8;

const REQUEST = { username: '' };
const RESET = { code: '', password: '', password_confirmation: '', mpin: '' };
type ResetValues = typeof RESET;

function validateReset(values: ResetValues): FieldErrors<ResetValues> {
  const errors: FieldErrors<ResetValues> = {};
  if (!values.code) errors.code = translate('reset.codeRequired');
  else if (values.code.length !== CODE_LENGTH) {
    errors.code = translate('reset.codeLength', { length: CODE_LENGTH });
  }
  if (!values.password) errors.password = translate('reset.newPasswordRequired');
  if (!values.password_confirmation) {
    errors.password_confirmation = translate('reset.confirmRequired');
  } else if (values.password && values.password !== values.password_confirmation) {
    // SECURITY_MESSAGES.passwordMismatch, as the server says it.
    errors.password_confirmation = translate('reset.mismatch');
  }
  if (!values.mpin) errors.mpin = translate('reset.pinRequired');
  return errors;
}

function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      className="btn btn-primary w-100 py-2 fw-semibold"
      disabled={busy || !hydrated}
      aria-busy={busy}
    >
      {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
      {children}
    </button>
  );
}

/**
 * Reset Password (/reset, /Reset): the spec's screen made to work (docs/decisions.md, Password
 * recovery works). Step one takes a username or an e-mail address and e-mails a code; step two
 * sets the new password with that code and the 4 Digit Pin, then the user signs in.
 */
export default function ResetPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const [requestReset, requestState] = useRequestPasswordResetMutation();
  const [resetPassword, resetState] = useResetPasswordMutation();
  // The name the code was sent for; empty while on step one.
  const [sentFor, setSentFor] = useState('');
  const request = useForm(REQUEST);
  const reset = useForm(RESET, {
    filters: { code: filters.digits, mpin: filters.digits },
    maxLength: { code: CODE_LENGTH, mpin: 4 },
  });

  useEffect(() => {
    document.getElementById(sentFor ? 'reset-code' : 'reset-email')?.focus();
  }, [sentFor]);

  const sendCode = validSubmit(
    request,
    (values) => (values.username.trim() ? {} : { username: t('reset.nameRequired') }),
    async (values) => {
      const username = values.username.trim();
      await requestReset({ requestPasswordResetRequest: { username } }).unwrap();
      reset.reset();
      setSentFor(username);
    },
  );

  const setPassword = validSubmit(reset, validateReset, async (values) => {
    await resetPassword({ resetPasswordRequest: { username: sentFor, ...values } }).unwrap();
    navigate(paths.login, { replace: true });
  });

  const secret = (name: keyof ResetValues) => ({
    ...reset.bind(name),
    error: reset.errors[name],
    'aria-invalid': reset.errors[name] ? true : undefined,
  });

  return (
    <PublicLayout>
      <h1 className="page-title mb-1">{t('title.reset')}</h1>
      <p className="text-body-secondary mb-4">{t('reset.intro')}</p>
      {sentFor ? (
        <form
          noValidate
          aria-label={t('reset.setNew')}
          aria-describedby="reset-sent"
          onSubmit={(event) => void setPassword(event)}
        >
          <p
            className="small bg-primary-subtle text-primary-emphasis rounded-3 p-3"
            id="reset-sent"
            role="status"
          >
            {withNodes(t, 'reset.sent', {}, { name: <strong>{sentFor}</strong> })}
          </p>
          <div className="mb-3">
            <label className="form-label" htmlFor="reset-code">
              {t('reset.code')}
            </label>
            <TextInput
              id="reset-code"
              {...reset.bind('code')}
              aria-invalid={reset.errors.code ? true : undefined}
              placeholder={t('reset.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
            />
            <div className="invalid-feedback">{reset.errors.code}</div>
          </div>
          <SecretField
            id="reset-password"
            label={t('reset.newPassword')}
            autoComplete="new-password"
            aria-describedby="reset-password-rules"
            {...secret('password')}
          />
          <PasswordChecklist
            id="reset-password-rules"
            password={reset.values.password}
            className="mb-3"
          />
          <SecretField
            id="reset-confirm"
            label={t('reset.confirm')}
            autoComplete="new-password"
            {...secret('password_confirmation')}
          />
          <SecretField
            id="reset-pin"
            label={t('login.mpin.label')}
            autoComplete="off"
            inputMode="numeric"
            {...secret('mpin')}
          />
          <SubmitButton busy={resetState.isLoading}>{t('reset.submitNew')}</SubmitButton>
          <button
            type="button"
            className="btn btn-link w-100 mt-2 text-body-secondary text-decoration-none"
            onClick={() => setSentFor('')}
          >
            <ArrowLeftIcon className="me-1" />
            {t('reset.sendNew')}
          </button>
        </form>
      ) : (
        <form noValidate aria-label={t('title.reset')} onSubmit={(event) => void sendCode(event)}>
          <div className="mb-4">
            <label className="form-label" htmlFor="reset-email">
              {t('register.email')}
            </label>
            <TextInput
              id="reset-email"
              {...request.bind('username')}
              aria-invalid={request.errors.username ? true : undefined}
              aria-describedby="reset-email-hint"
              placeholder={t('login.username')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
            />
            <div className="invalid-feedback">{request.errors.username}</div>
            <small className="form-text" id="reset-email-hint">
              {t('reset.hint')}
            </small>
          </div>
          <SubmitButton busy={requestState.isLoading}>{t('reset.submit')}</SubmitButton>
        </form>
      )}
      <p className="text-center text-body-secondary mt-4 mb-0">
        <Link to={paths.login}>{t('login.submit')}</Link>
        <span className="mx-2 text-body-secondary" aria-hidden="true">
          ·
        </span>
        <Link to={paths.register}>{t('login.signUp')}</Link>
      </p>
    </PublicLayout>
  );
}
