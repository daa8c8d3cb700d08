// One source for client and server: a pure module both import (no React, browser or Node APIs).
import { NAME_REQUIRED } from './account';

/** The country whose pincodes have exactly 6 digits (4 to 7 elsewhere). */
export const INDIA = 'IN';
export const DOCUMENT_NUMBER_MAX = 20;
/** An Aadhar card number: digits only, at most this many. */
export const AADHAR_DIGITS_MAX = 12;

/** What the identity verification forms say, before a call (client) and on it (server). */
export const KYC_MESSAGES = {
  name: NAME_REQUIRED,
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
  aadharDigits: `Aadhar Card number must be digits only, at most ${AADHAR_DIGITS_MAX}`,
  front: 'Front Side Image is required',
  photo: 'Photo is required',
  back: 'Back Side Image is required',
  alreadyUploaded: 'Already uploaded',
} as const;
