import { useState, type FormEvent } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useListCountriesQuery } from '../../../api/auth';
import type { Profile } from '../../../api/generated/profile.gen';
import { useUpdateProfileMutation } from '../../../api/profile';
import { filters, useForm } from '../../../components/form/useForm';
import { formatDate } from '../../../lib/format';
import { personalErrors, pincodeMax, type PersonalValues, UPLOAD_STATUS } from '../kycRules';
import { ConfirmSaveModal } from './ConfirmSaveModal';
import { StatusBadge } from '../../../components/StatusBadge';

const today = () => new Date().toISOString().slice(0, 10);
const GENDERS: Record<string, string> = { male: 'Male', female: 'Female', others: 'Others' };

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
  const country =
    countries?.data.find((c) => c.id === profile.country)?.name ?? profile.country ?? '';
  // Once approved the form shows the approved values, whatever was typed before.
  const values = locked ? initialValues(profile) : form.values;

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

  return (
    <Accordion.Item eventKey={eventKey} className="kyc-section">
      <Accordion.Header>
        <span className="kyc-section__title">Personal Information</span>
        <StatusBadge status={locked ? 1 : 0} names={UPLOAD_STATUS} />
      </Accordion.Header>
      <Accordion.Body>
        <Form noValidate onSubmit={submit} aria-label="Personal Information">
          <div className="row g-3">
            <Form.Group className="col-12 col-md-6" controlId="kyc-name">
              <Form.Label>Name</Form.Label>
              <Form.Control {...field('name')} autoComplete="name" />
              {feedback('name')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-email">
              <Form.Label>Email</Form.Label>
              <Form.Control value={profile.email} readOnly plaintext />
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-gender">
              <Form.Label>Gender</Form.Label>
              {locked ? (
                <Form.Control value={GENDERS[values.gender] ?? '----'} readOnly plaintext />
              ) : (
                <Form.Select {...form.bind('gender')}>
                  <option value="">Select Gender</option>
                  {Object.entries(GENDERS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Form.Select>
              )}
              {feedback('gender')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-dob">
              <Form.Label>Date of Birth</Form.Label>
              <Form.Control type="date" max={today()} {...field('dob')} />
              {feedback('dob')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-phone">
              <Form.Label>Phone</Form.Label>
              <Form.Control value={profile.phone || '----'} readOnly plaintext />
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-country">
              <Form.Label>Country</Form.Label>
              <Form.Control value={country || '----'} readOnly plaintext />
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-line1">
              <Form.Label>Flat, House Number</Form.Label>
              <Form.Control {...field('address_line1')} autoComplete="address-line1" />
              {feedback('address_line1')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-line2">
              <Form.Label>Area</Form.Label>
              <Form.Control {...field('address_line2')} autoComplete="address-line2" />
              {feedback('address_line2')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-landmark">
              <Form.Label>Landmark (optional)</Form.Label>
              <Form.Control {...field('landmark')} />
              {feedback('landmark')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-city">
              <Form.Label>City</Form.Label>
              <Form.Control {...field('city')} autoComplete="address-level2" />
              {feedback('city')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-state">
              <Form.Label>State</Form.Label>
              <Form.Control {...field('state')} autoComplete="address-level1" />
              {feedback('state')}
            </Form.Group>
            <Form.Group className="col-12 col-md-6" controlId="kyc-pincode">
              <Form.Label>Pincode</Form.Label>
              <Form.Control {...field('pincode')} inputMode="numeric" autoComplete="postal-code" />
              {feedback('pincode')}
            </Form.Group>
          </div>
          {locked ? (
            <p className="kyc-section__note mt-3 mb-0">
              Your personal information is verified and can no longer be changed.
            </p>
          ) : (
            <div className="mt-4">
              <Button type="submit" disabled={isLoading}>
                Submit
              </Button>
            </div>
          )}
        </Form>
        <ConfirmSaveModal
          show={confirming}
          subject="your personal information"
          busy={isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void save()}
        />
      </Accordion.Body>
    </Accordion.Item>
  );
}
