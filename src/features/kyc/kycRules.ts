// The client side of the identity verification rules (spec 000 section 5). The server checks
// the same rules again; these give the messages before a call is made.
import type { Upload } from '../../api/generated/kyc.gen';
import type { StatusNames } from '../../components/StatusBadge';

export const MSG = {
  name: 'Name is required',
  gender: 'Gender is required',
  dob: 'Date of Birth is required',
  dobPast: 'Date of Birth must be a date before today',
  line1: 'Flat,House Number is required',
  line2: 'Area is required',
  city: 'City is required',
  state: 'State is required',
  pincode: 'Pincode is required',
  pincodeIndia: 'Pincode must be 6 digits',
  pincodeOther: 'Pincode must be 4 to 7 digits',
  documentName: 'Document Name is required',
  documentNumber: 'Document Number is required',
  aadharDigits: 'Aadhar Card number must be digits only, at most 12',
  front: 'Front Side Image is required',
  photo: 'Photo is required',
  back: 'Back Side Image is required',
  alreadyUploaded: 'Already uploaded',
} as const;

export const INDIA = 'IN';
export const DOCUMENT_NUMBER_MAX = 20;
export const AADHAR_DIGITS_MAX = 12;

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
    else if (isAadhar(values.document_name) && !/^\d{1,12}$/.test(number)) {
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

export const UPLOAD_STATUS: StatusNames<Upload['status']> = {
  0: { label: 'Pending', bg: 'warning', text: 'dark' },
  1: { label: 'Approved', bg: 'success' },
  2: { label: 'Rejected', bg: 'danger' },
};
