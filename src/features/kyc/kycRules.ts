// The client side of the identity verification rules. The server checks the same rules again
// (shared/kyc); these give the messages before a call is made.
import { AADHAR_DIGITS_MAX, INDIA } from '../../shared/kyc';
import type { Upload } from '../../api/generated/kyc.gen';
import type { StatusNames } from '../../components/StatusBadge';
import { t, type Translate } from '../../i18n/i18n';

/**
 * The shared messages (KYC_MESSAGES, which the server says too), and those of the fields only
 * the client checks (the schema checks them on the server), in the language in use.
 */
export const MSG = {
  get name() {
    return t('kyc.nameRequired');
  },
  get gender() {
    return t('kyc.genderRequired');
  },
  get dob() {
    return t('kyc.dobRequired');
  },
  get dobPast() {
    return t('kyc.dobPast');
  },
  get line1() {
    return t('kyc.line1Required');
  },
  get line2() {
    return t('kyc.line2Required');
  },
  get city() {
    return t('kyc.cityRequired');
  },
  get state() {
    return t('kyc.stateRequired');
  },
  get pincode() {
    return t('kyc.pincodeRequired');
  },
  get pincodeIndia() {
    return t('kyc.pincodeIndia');
  },
  get pincodeOther() {
    return t('kyc.pincodeOther');
  },
  get documentName() {
    return t('kyc.documentNameRequired');
  },
  get documentNumber() {
    return t('kyc.documentNumberRequired');
  },
  get aadharDigits() {
    return t('kyc.aadharDigits', { max: AADHAR_DIGITS_MAX });
  },
  get front() {
    return t('kyc.frontRequired');
  },
  get photo() {
    return t('kyc.photoRequired');
  },
  get back() {
    return t('kyc.backRequired');
  },
  get alreadyUploaded() {
    return t('kyc.alreadyUploaded');
  },
};

export interface PersonalValues extends Record<string, string> {
  name: string;
  gender: string;
  dob: string;
  address_line1: string;
  address_line2: string;
  landmark: string;
  city: string;
  state: string;
  pincode: string;
}

/** Longest pincode the field takes: 6 in India, otherwise 7. */
export const pincodeMax = (country: string | null | undefined) => (country === INDIA ? 6 : 7);

export function personalErrors(
  values: PersonalValues,
  country: string | null | undefined,
  today: string,
): Partial<Record<keyof PersonalValues, string>> {
  const errors: Partial<Record<keyof PersonalValues, string>> = {};
  const required: [keyof PersonalValues, string][] = [
    ['name', MSG.name],
    ['gender', MSG.gender],
    ['dob', MSG.dob],
    ['address_line1', MSG.line1],
    ['address_line2', MSG.line2],
    ['city', MSG.city],
    ['state', MSG.state],
    ['pincode', MSG.pincode],
  ];
  for (const [field, message] of required) {
    if (!values[field]?.trim()) errors[field] = message;
  }
  if (values.dob && values.dob >= today) errors.dob = MSG.dobPast;
  const pincode = values.pincode.trim();
  if (pincode) {
    if (country === INDIA && pincode.length !== 6) errors.pincode = MSG.pincodeIndia;
    if (country !== INDIA && (pincode.length < 4 || pincode.length > 7)) {
      errors.pincode = MSG.pincodeOther;
    }
  }
  return errors;
}

export const isPhotoType = (documentType: string) => documentType.trim().toLowerCase() === 'photo';
export const isAadhar = (documentName: string) => /aadha?r/i.test(documentName);

export interface DocumentValues extends Record<string, string> {
  document_name: string;
  document_number: string;
}

export interface DocumentFiles {
  front: File | null;
  back: File | null;
}

export function documentErrors(
  type: { document_type: string; front_required: 0 | 1; back_required: 0 | 1 },
  values: DocumentValues,
  files: DocumentFiles,
): Partial<Record<'document_name' | 'document_number' | 'front' | 'back', string>> {
  const errors: Partial<Record<'document_name' | 'document_number' | 'front' | 'back', string>> =
    {};
  const photo = isPhotoType(type.document_type);
  if (!values.document_name) errors.document_name = MSG.documentName;
  const number = values.document_number.trim();
  if (!photo) {
    if (!number) errors.document_number = MSG.documentNumber;
    else if (
      isAadhar(values.document_name) &&
      !new RegExp(`^\\d{1,${AADHAR_DIGITS_MAX}}$`).test(number)
    ) {
      errors.document_number = MSG.aadharDigits;
    }
  }
  if (type.front_required === 1 && !files.front) errors.front = photo ? MSG.photo : MSG.front;
  if (type.back_required === 1 && !files.back) errors.back = MSG.back;
  return errors;
}

/** The latest upload decides: pending or approved blocks a new one. */
export function acceptsUpload(uploads: readonly { status: 0 | 1 | 2 }[]): boolean {
  const latest = uploads[0];
  return !latest || latest.status === 2;
}

export const uploadStatus = (translate: Translate): StatusNames<Upload['status']> => ({
  0: { label: translate('wallet.pending'), bg: 'warning', text: 'dark' },
  1: { label: translate('kycStatus.approved'), bg: 'success' },
  2: { label: translate('kycStatus.rejected'), bg: 'danger' },
});
