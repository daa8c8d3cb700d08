import { useState, type FormEvent } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { FormControlProps } from 'react-bootstrap/FormControl';
import { useListCountriesQuery } from '../../../api/auth';
import type { Profile } from '../../../api/generated/profile.gen';
import { useUpdateProfileMutation } from '../../../api/profile';
import { filters, useForm } from '../../../components/form/useForm';
import { formatDate } from '../../../lib/format';
import { personalErrors, pincodeMax, type PersonalValues, uploadStatus } from '../kycRules';
import { ConfirmSaveModal } from './ConfirmSaveModal';
import { StatusBadge } from '../../../components/StatusBadge';
import { countryName } from '../../../i18n/countryName';
import { useT, type MessageKey } from '../../../i18n/i18n';

const today = () => new Date().toISOString().slice(0, 10);
const GENDERS: Record<string, MessageKey> = {
  male: 'person.male',
  female: 'person.female',
  others: 'person.others',
};

function initialValues(profile: Profile): PersonalValues {
  return {
    name: profile.name,
    gender: profile.gender ?? '',
    dob: profile.dob ?? '',
    address_line1: profile.address_line1 ?? '',
    address_line2: profile.address_line2 ?? '',
    landmark: profile.landmark ?? '',
    city: profile.city ?? '',
    state: profile.state ?? '',
    pincode: profile.pincode ?? '',
  };
}

/**
 * The update-profile form. Pending until an operator approves it (is_profile_complete 1); then
 * every field is read-only and Submit is gone. Email, country and phone are never editable.
 */
export function PersonalInfoSection({ profile, eventKey }: { profile: Profile; eventKey: string }) {
  const t = useT();
  const locked = profile.is_profile_complete === 1;
  const form = useForm(initialValues(profile), {
    filters: { name: filters.letters, pincode: filters.digitsPlus },
    maxLength: {
      name: 100,
      address_line1: 255,
      address_line2: 255,
      landmark: 255,
      city: 100,
      state: 100,
      pincode: pincodeMax(profile.country),
    },
  });
  const [confirming, setConfirming] = useState(false);
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();
  const { data: countries } = useListCountriesQuery();
  const listed = countries?.data.find((c) => c.id === profile.country);
  const country = listed ? countryName(listed) : (profile.country ?? '');
  // Once approved the form shows the approved values, whatever was typed before.
  const values = locked ? initialValues(profile) : form.values;
  const genderWord = GENDERS[values.gender];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = personalErrors(form.values, profile.country, today());
    form.setErrors(errors);
    if (Object.keys(errors).length === 0) setConfirming(true);
  };

  const save = async () => {
    const v = form.values;
    try {
      await updateProfile({
        updateProfileRequest: {
          name: v.name.trim(),
          gender: v.gender as 'male' | 'female' | 'others',
          dob: v.dob,
          address_line1: v.address_line1.trim(),
          address_line2: v.address_line2.trim(),
          city: v.city.trim(),
          state: v.state.trim(),
          pincode: v.pincode.trim(),
          landmark: v.landmark.trim(),
        },
      }).unwrap();
    } catch (error) {
      form.applyServerErrors(error);
    } finally {
      setConfirming(false);
    }
  };

  // Approved: plain text, dates as DD-MM-YYYY and ---- for empty values.
  const field = (name: keyof PersonalValues & string) =>
    locked
      ? {
          value: (name === 'dob' ? formatDate(values.dob || null) : values[name]) || '----',
          readOnly: true,
          plaintext: true,
          type: 'text',
        }
      : form.bind(name);
  const feedback = (name: keyof PersonalValues & string) =>
    form.errors[name] ? (
      <Form.Control.Feedback type="invalid">{form.errors[name]}</Form.Control.Feedback>
    ) : null;

  const textField = (
    name: keyof PersonalValues & string,
    controlId: string,
    label: string,
    control: FormControlProps = {},
  ) => (
    <Form.Group className="col-12 col-md-6" controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control {...control} {...field(name)} />
      {feedback(name)}
    </Form.Group>
  );
  /** A value the section shows but does not edit. */
  const shownField = (controlId: string, label: string, value: string) => (
    <Form.Group className="col-12 col-md-6" controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control value={value} readOnly plaintext />
    </Form.Group>
  );

  return (
    <Accordion.Item eventKey={eventKey} className="kyc-section">
      <Accordion.Header>
        <span className="kyc-section__title">{t('kyc.personal')}</span>
        {!locked && profile.dob === null && (
          <span className="kyc-section__hint">{t('kyc.notSubmitted')}</span>
        )}
        <StatusBadge status={locked ? 1 : 0} names={uploadStatus(t)} />
      </Accordion.Header>
      <Accordion.Body>
        <Form noValidate onSubmit={submit} aria-label={t('kyc.personal')}>
          <div className="row g-3">
            {textField('name', 'kyc-name', t('history.name'), { autoComplete: 'name' })}
            {shownField('kyc-email', t('person.email'), profile.email)}
            <Form.Group className="col-12 col-md-6" controlId="kyc-gender">
              <Form.Label>{t('person.gender')}</Form.Label>
              {locked ? (
                <Form.Control value={genderWord ? t(genderWord) : '----'} readOnly plaintext />
              ) : (
                <Form.Select {...form.bind('gender')}>
                  <option value="">{t('kyc.selectGender')}</option>
                  {Object.entries(GENDERS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {t(label)}
                    </option>
                  ))}
                </Form.Select>
              )}
              {feedback('gender')}
            </Form.Group>
            {textField('dob', 'kyc-dob', t('person.dob'), { type: 'date', max: today() })}
            {shownField('kyc-phone', t('kyc.phone'), profile.phone || '----')}
            {shownField('kyc-country', t('person.country'), country || '----')}
            {textField('address_line1', 'kyc-line1', t('kyc.line1'), {
              autoComplete: 'address-line1',
            })}
            {textField('address_line2', 'kyc-line2', t('kyc.line2'), {
              autoComplete: 'address-line2',
            })}
            {textField('landmark', 'kyc-landmark', t('kyc.landmarkOptional'))}
            {textField('city', 'kyc-city', t('person.city'), { autoComplete: 'address-level2' })}
            {textField('state', 'kyc-state', t('person.state'), { autoComplete: 'address-level1' })}
            {textField('pincode', 'kyc-pincode', t('person.pincode'), {
              inputMode: 'numeric',
              autoComplete: 'postal-code',
            })}
          </div>
          {locked ? (
            <p className="kyc-section__note mt-3 mb-0">{t('kyc.locked')}</p>
          ) : (
            <div className="mt-4">
              <Button type="submit" disabled={isLoading}>
                {t('kyc.submit')}
              </Button>
            </div>
          )}
        </Form>
        <ConfirmSaveModal
          show={confirming}
          subject={t('kyc.subjectPersonal')}
          busy={isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void save()}
        />
      </Accordion.Body>
    </Accordion.Item>
  );
}
