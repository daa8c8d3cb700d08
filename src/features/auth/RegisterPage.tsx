import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import type { FormControlProps } from 'react-bootstrap/FormControl';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  useLazyCheckUsernameQuery,
  useListCountriesQuery,
  useRegisterMutation,
} from '../../api/auth';
import { isApiError } from '../../api/errors';
import { paths } from '../../app/paths';
import { filters, useForm, type FieldErrors } from '../../components/form/useForm';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { CountrySelect } from './components/CountrySelect';
import { PublicLayout } from './components/PublicLayout';
import { SecretInput } from '../../components/form/SecretInput';
import { useHydrated } from '../../components/form/useHydrated';
import { currentLanguage, t, useT } from '../../i18n/i18n';
import '../../i18n/auth';
import { PASSWORD_RULES } from '../../shared/account';
import { passwordRuleLabel } from '../../components/PasswordChecklist';

type RegisterForm = {
  name: string;
  username: string;
  email: string;
  phone: string;
  country: string;
  spassword: string;
  password: string;
  sponsor_id: string;
  /** '1' when the terms box is ticked (the form holds strings). */
  is_checked: string;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const PHONE_MIN = 6;
export const PHONE_MAX = 16;
export const PIN_LENGTH = 4;

/**
 * Everything the client can check, in one round before a call: the password checklist's unmet
 * rules too (the server enforces the same rules), so only what needs the server comes back.
 */
export function validateRegistration(v: RegisterForm): FieldErrors<RegisterForm> {
  const errors: FieldErrors<RegisterForm> = {};
  if (!v.name.trim()) errors.name = t('register.nameRequired');
  if (!v.username.trim()) errors.username = t('login.usernameRequired');
  if (!v.email) errors.email = t('register.emailRequired');
  else if (!EMAIL.test(v.email)) errors.email = t('register.emailInvalid');
  if (!v.phone) errors.phone = t('register.phoneRequired');
  else if (v.phone.length < PHONE_MIN || v.phone.length > PHONE_MAX) {
    errors.phone = t('register.phoneLength', { min: PHONE_MIN, max: PHONE_MAX });
  }
  if (!v.spassword) errors.spassword = t('register.pinRequired');
  else if (!/^\d{4}$/.test(v.spassword)) {
    errors.spassword = t('register.pinDigits');
  }
  const unmet = PASSWORD_RULES.filter((rule) => !rule.test(v.password));
  if (!v.password) errors.password = t('login.passwordRequired');
  else if (unmet.length) {
    const language = currentLanguage();
    const rules = unmet.map((rule) => passwordRuleLabel(rule.label).toLocaleLowerCase(language));
    errors.password = t('register.passwordUnmet', { rules: rules.join(', ') });
  }
  if (!v.country) errors.country = t('register.countryRequired');
  if (v.is_checked !== '1') errors.is_checked = t('register.termsRequired');
  return errors;
}

/** The username availability answer for one value (shown while the field still holds it). */
interface Availability {
  username: string;
  available: boolean;
  message: string;
}

const FIELD_ORDER: (keyof RegisterForm)[] = [
  'name',
  'username',
  'email',
  'phone',
  'country',
  'spassword',
  'password',
  'sponsor_id',
  'is_checked',
];

export default function RegisterPage() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const form = useForm<RegisterForm>(
    {
      name: '',
      username: '',
      email: '',
      phone: '',
      country: '',
      spassword: '',
      password: '',
      sponsor_id: params.get('u') ?? '',
      is_checked: '',
    },
    {
      filters: {
        name: filters.letters,
        email: filters.email,
        phone: filters.digitsPlus,
        spassword: filters.digitsPlus,
      },
      maxLength: { phone: PHONE_MAX, spassword: PIN_LENGTH, name: 100, username: 32 },
    },
  );
  const { values, errors } = form;
  const field = (name: keyof RegisterForm) => ({
    ...form.bind(name),
    'aria-invalid': errors[name] ? true : undefined,
  });
  const countries = useListCountriesQuery();
  const [checkUsername] = useLazyCheckUsernameQuery();
  const [register, { isLoading }] = useRegisterMutation();
  const [availability, setAvailability] = useState<Availability | null>(null);
  const shownAvailability = availability?.username === values.username ? availability : null;

  const onUsernameBlur = async () => {
    const username = values.username.trim();
    if (!username) return;
    try {
      const answer = await checkUsername({ username }, true).unwrap();
      setAvailability({ username, available: true, message: answer.msg });
    } catch (error) {
      // Taken answers status false (an error here); a malformed name answers 422.
      if (!isApiError(error) || error.kind !== 'failure') return;
      const message = error.fieldErrors.username?.[0] ?? error.message;
      setAvailability({ username, available: false, message });
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    const found = validateRegistration(values);
    if (Object.keys(found).length) {
      form.setErrors(found);
      const first = FIELD_ORDER.find((field) => found[field]);
      document.getElementById(`register-${first}`)?.focus();
      return;
    }
    try {
      await register({
        registerRequest: {
          name: values.name.trim(),
          username: values.username.trim(),
          email: values.email,
          sponsor_id: values.sponsor_id.trim(),
          password: values.password,
          spassword: values.spassword,
          country: values.country,
          phone: values.phone,
          is_checked: 1,
        },
      }).unwrap();
      form.reset();
      setAvailability(null);
      navigate(paths.login);
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

  const usernameError =
    errors.username ??
    (shownAvailability?.available === false ? shownAvailability.message : undefined);

  /** A half-width field with its label and its message. */
  const textField = (
    name: 'name' | 'email' | 'phone',
    label: string,
    control: FormControlProps,
  ) => (
    <Form.Group as={Col} md={6} controlId={`register-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control {...field(name)} {...control} />
      <Form.Control.Feedback type="invalid">{errors[name]}</Form.Control.Feedback>
    </Form.Group>
  );

  return (
    <PublicLayout wide>
      <h1 className="page-title mb-1">{t('title.register')}</h1>
      <p className="text-body-secondary fw-medium mb-4">{t('register.tagline')}</p>
      <Form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Row className="g-3">
          {textField('name', t('register.name'), {
            placeholder: t('register.name'),
            autoComplete: 'name',
          })}
          <Form.Group as={Col} md={6} controlId="register-username">
            <Form.Label>{t('register.username')}</Form.Label>
            <Form.Control
              {...field('username')}
              placeholder={t('register.username')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              isInvalid={Boolean(usernameError)}
              aria-invalid={usernameError ? true : undefined}
              isValid={shownAvailability?.available === true && !errors.username}
              onBlur={() => void onUsernameBlur()}
            />
            <Form.Control.Feedback type="invalid">{usernameError}</Form.Control.Feedback>
            {shownAvailability?.available && (
              <Form.Control.Feedback type="valid">
                {shownAvailability.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          {textField('email', t('register.email'), {
            type: 'email',
            placeholder: t('register.email'),
            autoComplete: 'email',
            autoCapitalize: 'none',
          })}
          {textField('phone', t('register.phone'), {
            type: 'tel',
            inputMode: 'tel',
            placeholder: t('register.phone'),
            autoComplete: 'tel',
          })}
          <Form.Group as={Col} md={6} controlId="register-country">
            <Form.Label>{t('register.country')}</Form.Label>
            <CountrySelect
              id="register-country"
              countries={countries.data?.data ?? []}
              loading={countries.isLoading}
              value={values.country}
              onChange={(id) => form.setField('country', id)}
              isInvalid={Boolean(errors.country)}
              describedBy={errors.country ? 'register-country-error' : undefined}
            />
            {errors.country && (
              <div id="register-country-error" className="invalid-feedback d-block">
                {errors.country}
              </div>
            )}
          </Form.Group>
          <Form.Group as={Col} md={6} controlId="register-spassword">
            <Form.Label>{t('login.mpin.label')}</Form.Label>
            <SecretInput
              id="register-spassword"
              what={t('secret.pin')}
              {...field('spassword')}
              placeholder={t('login.mpin.label')}
              inputMode="numeric"
              autoComplete="new-password"
            />
            {errors.spassword && (
              <Form.Control.Feedback type="invalid" className="d-block">
                {errors.spassword}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Form.Group as={Col} xs={12} controlId="register-password">
            <Form.Label>{t('login.password')}</Form.Label>
            <SecretInput
              id="register-password"
              what={t('secret.password')}
              {...field('password')}
              placeholder={t('login.password')}
              autoComplete="new-password"
              aria-describedby="register-password-checklist"
            />
            {errors.password && (
              <Form.Control.Feedback type="invalid" className="d-block">
                {errors.password}
              </Form.Control.Feedback>
            )}
            <PasswordChecklist
              id="register-password-checklist"
              password={values.password}
              className="mt-2"
            />
          </Form.Group>
          <Form.Group as={Col} xs={12} controlId="register-sponsor_id">
            <div className="d-flex justify-content-between align-items-baseline">
              <Form.Label>{t('register.sponsor')}</Form.Label>
              <span className="small text-body-secondary">{t('register.optional')}</span>
            </div>
            <Form.Control
              {...field('sponsor_id')}
              placeholder={t('register.sponsorPlaceholder')}
              autoCapitalize="none"
              spellCheck={false}
            />
            <Form.Control.Feedback type="invalid">{errors.sponsor_id}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group as={Col} xs={12} controlId="register-is_checked">
            <Form.Check
              type="checkbox"
              {...form.check('is_checked')}
              label={t('register.terms')}
              feedback={errors.is_checked}
              feedbackType="invalid"
            />
          </Form.Group>
        </Row>
        <Button
          type="submit"
          className="w-100 py-2 fw-semibold mt-4"
          disabled={isLoading || !hydrated}
          aria-busy={isLoading}
        >
          {isLoading && (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          )}
          {t('login.signUp')}
        </Button>
      </Form>
      <p className="text-center text-body-secondary mt-4 mb-0">
        {t('register.haveAccount')} <Link to={paths.login}>{t('login.submit')}</Link>
      </p>
    </PublicLayout>
  );
}
