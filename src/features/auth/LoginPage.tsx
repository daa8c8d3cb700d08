import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FACTOR_REQUIRED } from '../../shared/auth';
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

/** Step two's field for each auth type: its label, message when empty, length and hint. */
export const SECOND_FACTOR: Record<
  AuthType,
  { label: string; required: string; maxLength: number; hint: string }
> = {
  mpin: {
    label: '4 Digit Pin',
    required: FACTOR_REQUIRED.mpin,
    maxLength: 4,
    hint: 'Enter the 4 digit pin you chose when you signed up.',
  },
  authenticator: {
    label: 'Two-Factor Authentication Code',
    required: FACTOR_REQUIRED.authenticator,
    maxLength: 6,
    hint: 'Open your authenticator app and enter the code it shows now.',
  },
  otp: {
    label: 'OTP',
    required: FACTOR_REQUIRED.otp,
    maxLength: 4,
    hint: 'We have e-mailed you a 4 digit code. It is valid for 10 minutes.',
  },
};

export const CODE_MIN_LENGTH = 4;

type LoginForm = { username: string; password: string; code: string };

const isAuthType = (value: string): value is AuthType => value in SECOND_FACTOR;

type AuthEndpoints = (typeof import('../../api/auth'))['authApi']['endpoints'];

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const step = useAppSelector(selectSignIn);
  const store = useAppStore();
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const inStepTwo = step.stepToken !== '';
  // An unknown type (a newer server) is asked for like the e-mailed code, the generic one.
  const authType: AuthType = isAuthType(step.authType) ? step.authType : 'otp';
  const factor = SECOND_FACTOR[authType];
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
    if (!values.username.trim()) errors.username = 'Username is required';
    if (!values.password) errors.password = 'Password is required';
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
    if (!values.code) return form.setErrors({ code: factor.required });
    if (values.code.length < CODE_MIN_LENGTH) {
      return form.setErrors({
        code: `${factor.label} must be at least ${CODE_MIN_LENGTH} characters`,
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
      <h1 className="page-title mb-1">Sign In</h1>
      <p className="text-body-secondary mb-4">
        {inStepTwo ? (
          <>
            Signing in as <strong>{step.username}</strong>
          </>
        ) : (
          'Welcome back. Sign in to your merchant account.'
        )}
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
                what="pin"
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
              {factor.hint}
            </small>
          </div>
        ) : (
          <>
            <div className="mb-3">
              <label className="form-label" htmlFor="login-username">
                Username or Email
              </label>
              <TextInput
                id="login-username"
                {...field('username')}
                placeholder="Username or Email"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
              />
              <div className="invalid-feedback">{form.errors.username}</div>
            </div>
            <div className="mb-4">
              <div className="d-flex justify-content-between align-items-baseline">
                <label className="form-label" htmlFor="login-password">
                  Password
                </label>
                <Link to={paths.reset} className="small">
                  Forgot password?
                </Link>
              </div>
              <SecretInput
                id="login-password"
                what="password"
                {...field('password')}
                placeholder="Password"
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
          Sign In
        </button>
        {inStepTwo && (
          <button
            type="button"
            className="btn btn-link w-100 mt-2 text-body-secondary text-decoration-none"
            onClick={back}
          >
            <ArrowLeftIcon className="me-1" />
            Back
          </button>
        )}
      </form>
      <p className="text-center text-body-secondary mt-4 mb-0">
        Don&apos;t have an account? <Link to={paths.register}>Sign Up</Link>
      </p>
    </PublicLayout>
  );
}
