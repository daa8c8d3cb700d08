import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isApiError } from '../../api/errors';
import type {
  AuthType,
  LoginApiArg,
  LoginApiResponse,
  PreLoginApiArg,
  PreLoginApiResponse,
} from '../../api/generated/auth.gen';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks';
import { paths } from '../../app/paths';
import { filters, useForm, type FieldErrors } from '../../components/form/useForm';
import { PublicLayout } from './components/PublicLayout';
import { SecretInput } from '../../components/form/SecretInput';
import { TextInput } from '../../components/form/TextInput';
import { useHydrated } from '../../components/form/useHydrated';
import { ArrowLeftIcon } from '../../components/publicIcons';
import { signedIn } from '../../app/session/sessionSlice';
import { selectSignIn, signInReset, stepOnePassed } from '../../app/session/signInSlice';
import { useT } from '../../i18n/i18n';

/** Step two's field for each auth type: its length (its words are login.<type>.* in the catalogue). */
const CODE_LENGTH: Record<AuthType, number> = { mpin: 4, authenticator: 6, otp: 4 };

export const CODE_MIN_LENGTH = 4;

type LoginForm = { username: string; password: string; code: string };

const isAuthType = (value: string): value is AuthType => value in CODE_LENGTH;

type AuthEndpoints = (typeof import('../../api/auth'))['authApi']['endpoints'];

export default function LoginPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const step = useAppSelector(selectSignIn);
  const store = useAppStore();
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const inStepTwo = step.stepToken !== '';
  // An unknown type (a newer server) is asked for like the e-mailed code, the generic one.
  const authType: AuthType = isAuthType(step.authType) ? step.authType : 'otp';
  const factor = {
    label: t(`login.${authType}.label`),
    maxLength: CODE_LENGTH[authType],
  };
  const form = useForm<LoginForm>(
    { username: '', password: '', code: '' },
    { filters: { code: filters.digitsPlus }, maxLength: { code: factor.maxLength } },
  );
  const { values } = form;
  const field = (name: keyof LoginForm) => ({
    ...form.bind(name),
    'aria-invalid': form.errors[name] ? true : undefined,
  });

  /**
   * One of the two sign-in requests. RTK Query and the auth endpoints are not part of what /login
   * loads (npm run size): they are prefetched once the page is idle and awaited here.
   */
  const send = async <Answer,>(
    request: (endpoints: AuthEndpoints) => { unwrap: () => Promise<Answer>; reset: () => void },
  ): Promise<Answer> => {
    setBusy(true);
    try {
      const [{ authApi }] = await Promise.all([
        import(/* webpackChunkName: "auth-api", webpackPrefetch: true */ '../../api/auth'),
        store.apiLoader.ready(),
      ]);
      const pending = request(authApi.endpoints);
      try {
        return await pending.unwrap();
      } finally {
        pending.reset();
      }
    } finally {
      setBusy(false);
    }
  };
  const preLogin = (arg: PreLoginApiArg) =>
    send<PreLoginApiResponse>((endpoints) => dispatch(endpoints.preLogin.initiate(arg)));
  const login = (arg: LoginApiArg) =>
    send<LoginApiResponse>((endpoints) => dispatch(endpoints.login.initiate(arg)));

  // The step token lives only while this screen does.
  useEffect(() => () => void dispatch(signInReset()), [dispatch]);

  useEffect(() => {
    document.getElementById(inStepTwo ? 'login-code' : 'login-username')?.focus();
  }, [inStepTwo]);

  const submitStepOne = async () => {
    const errors: FieldErrors<LoginForm> = {};
    if (!values.username.trim()) errors.username = t('login.usernameRequired');
    if (!values.password) errors.password = t('login.passwordRequired');
    if (Object.keys(errors).length) return form.setErrors(errors);
    try {
      const answer = await preLogin({
        preLoginRequest: { username: values.username.trim(), password: values.password },
      });
      form.setField('code', '');
      dispatch(
        stepOnePassed({
          stepToken: answer.token,
          authType: answer.auth_type,
          username: values.username.trim(),
        }),
      );
    } catch {
      // The server's refusal is its toast (apiFeedback); inline messages are the client's checks.
    }
  };

  const submitStepTwo = async () => {
    if (!values.code) return form.setErrors({ code: t(`login.${authType}.required`) });
    if (values.code.length < CODE_MIN_LENGTH) {
      return form.setErrors({
        code: t('login.codeTooShort', { label: factor.label, min: CODE_MIN_LENGTH }),
      });
    }
    try {
      const session = await login({
        loginRequest: {
          username: step.username,
          password: values.password,
          [authType]: values.code,
        },
      });
      dispatch(signedIn(session));
      // The session slice keeps the list from this answer (sidebar, dashboard). The apps endpoints
      // load here, not with /login (npm run size).
      void import('../../api/apps').then(({ enhancedAppsApi }) =>
        dispatch(enhancedAppsApi.endpoints.getApps.initiate(undefined, { subscribe: false })),
      );
      dispatch(signInReset());
      navigate(paths.dashboard, { replace: true });
    } catch (error) {
      // The refusal itself is its toast (apiFeedback), not repeated under a field.
      if (!isApiError(error)) return;
      // A wrong code stays on this step, to be typed again.
      if (error.fieldErrors[authType]) return;
      // Rate limited or offline: the same step can be tried again in a moment.
      if (error.status === 429 || error.kind !== 'failure') return;
      // Expired or spent step, lock, changed password: back to step one, fields kept.
      dispatch(signInReset());
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void (inStepTwo ? submitStepTwo() : submitStepOne());
  };

  const back = () => {
    dispatch(signInReset());
    form.setField('code', '');
  };

  return (
    <PublicLayout>
      <h1 className="page-title mb-1">{t('login.title')}</h1>
      <p className="text-body-secondary mb-4">
        {inStepTwo ? t('login.signingInAs', { username: step.username }) : t('login.welcome')}
      </p>
      {/* Bootstrap's classes on plain elements: see components/form/TextInput. */}
      <form noValidate onSubmit={onSubmit}>
        {inStepTwo ? (
          <div className="mb-4">
            <label className="form-label" htmlFor="login-code">
              {factor.label}
            </label>
            {authType === 'mpin' ? (
              <SecretInput
                id="login-code"
                what={t('secret.pin')}
                {...field('code')}
                placeholder={factor.label}
                inputMode="numeric"
                autoComplete="off"
                maxLength={factor.maxLength}
                aria-describedby="login-code-hint"
              />
            ) : (
              <TextInput
                id="login-code"
                {...field('code')}
                placeholder={factor.label}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={factor.maxLength}
                aria-describedby="login-code-hint"
              />
            )}
            {form.errors.code && <div className="invalid-feedback d-block">{form.errors.code}</div>}
            <small className="form-text" id="login-code-hint">
              {t(`login.${authType}.hint`)}
            </small>
          </div>
        ) : (
          <>
            <div className="mb-3">
              <label className="form-label" htmlFor="login-username">
                {t('login.username')}
              </label>
              <TextInput
                id="login-username"
                {...field('username')}
                placeholder={t('login.username')}
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
              />
              <div className="invalid-feedback">{form.errors.username}</div>
            </div>
            <div className="mb-4">
              <div className="d-flex justify-content-between align-items-baseline">
                <label className="form-label" htmlFor="login-password">
                  {t('login.password')}
                </label>
                <Link to={paths.reset} className="small">
                  {t('login.forgot')}
                </Link>
              </div>
              <SecretInput
                id="login-password"
                what={t('secret.password')}
                {...field('password')}
                placeholder={t('login.password')}
                autoComplete="current-password"
              />
              {form.errors.password && (
                <div className="invalid-feedback d-block">{form.errors.password}</div>
              )}
            </div>
          </>
        )}
        <button
          type="submit"
          className="btn btn-primary w-100 py-2 fw-semibold"
          disabled={busy || !hydrated}
          aria-busy={busy}
        >
          {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {t('login.submit')}
        </button>
        {inStepTwo && (
          <button
            type="button"
            className="btn btn-link w-100 mt-2 text-body-secondary text-decoration-none"
            onClick={back}
          >
            <ArrowLeftIcon className="me-1" />
            {t('login.back')}
          </button>
        )}
      </form>
      <p className="text-center text-body-secondary mt-4 mb-0">
        {t('login.noAccount')} <Link to={paths.register}>{t('login.signUp')}</Link>
      </p>
    </PublicLayout>
  );
}
