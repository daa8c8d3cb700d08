import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePicture: build.mutation<ChangePictureApiResponse, ChangePictureApiArg>({
      query: (queryArg) => ({
        url: `/change-picture`,
        method: 'POST',
        body: queryArg.changePictureRequest,
      }),
    }),
    updateProfile: build.mutation<UpdateProfileApiResponse, UpdateProfileApiArg>({
      query: (queryArg) => ({
        url: `/update-profile`,
        method: 'POST',
        body: queryArg.updateProfileRequest,
      }),
    }),
    getProfile: build.query<GetProfileApiResponse, GetProfileApiArg>({
      query: () => ({ url: `/profile` }),
    }),
    getImage: build.query<GetImageApiResponse, GetImageApiArg>({
      query: (queryArg) => ({ url: `/images/${encodeURIComponent(String(queryArg.file))}` }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as profileApi };
export type ChangePictureApiResponse =
  /** status 200 The avatar is replaced. */ ChangePictureResponse;
export type ChangePictureApiArg = {
  changePictureRequest: ChangePictureRequest;
};
export type UpdateProfileApiResponse =
  /** status 200 The profile is saved (it stays editable until approved). */ UpdateProfileResponse;
export type UpdateProfileApiArg = {
  updateProfileRequest: UpdateProfileRequest;
};
export type GetProfileApiResponse = /** status 200 The profile. */ ProfileResponse;
export type GetProfileApiArg = void;
export type GetImageApiResponse = /** status 200 The image bytes. */ Blob;
export type GetImageApiArg = {
  /** The stored file name, as found in `Profile.avatar`, `Upload.front`, `Upload.back` or `PaymentMethod.logo`. */
  file: string;
};
export type Status = boolean | (0 | 1) | 'success';
export type MessageCode = {
  /** `<group>.<name>`, e.g. `auth.badCredentials`; never reused for other words. */
  code: string;
  values?: string[];
};
export type MessageCodes = {
  msg?: MessageCode;
  errors?: {
    [key: string]: (MessageCode | null)[];
  };
};
export type ChangePictureResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The new avatar's file name, served by `getImage`. */
  avatar: string;
};
export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type ErrorEnvelope = {
  /** Failure flag; the reference server always sends false. */
  status: Status;
  codes?: MessageCodes;
  /** A human-readable summary of the failure. */
  msg: string;
  /** Messages per request field (field name to its messages); an empty object when the failure is not tied to a field. */
  errors: {
    [key: string]: string[];
  };
  /** A refusal's machine-readable reason, where the gateway has one (the invoice calls): `no_package`, `tnx_limit`, `daily_tnx_limit` (402), `invoice_state` (409), `rate_unavailable` (503). Absent elsewhere. */
  code?: string;
  /** With `invoice_state`, the invoice's status now. */
  invoice_status?: InvoiceStatus;
  /** With `rate_unavailable`, the pair no source has a fresh rate for, e.g. `EUR/USD`. */
  pair?: string;
};
export type ChangePictureRequest = {
  /** One JPEG or PNG image (judged by content), at most 2 MB (2097152 bytes). */
  photo: Blob;
};
export type AuthType = 'mpin' | 'authenticator' | 'otp';
export type Profile = {
  /** Full name (letters and spaces). */
  name: string;
  /** E-mail address; never editable. */
  email: string;
  /** The account's username (also sent at the top of the `login` answer). Optional in the contract; the reference server always sends it. */
  username?: string;
  /** Gender (male, female or others); null until the personal section is saved. */
  gender: ('male' | 'female' | 'others' | null) | ('male' | 'female' | 'others' | null);
  /** Date of birth; null until the personal section is saved. */
  dob: string | null;
  /** Mobile number (digits, optionally with a leading +); never editable. */
  phone: string;
  /** The country's id (ISO 3166-1 alpha-2, see `listCountries`); never editable. */
  country: string;
  /** Landmark near the address; optional. */
  landmark: string | null;
  /** City. */
  city: string | null;
  /** State or region. */
  state: string | null;
  /** Postal code (6 digits in India, otherwise 4 to 7). */
  pincode: string | null;
  /** First address line (flat, house number). */
  address_line1: string | null;
  /** Second address line (area). */
  address_line2: string | null;
  /** The avatar's file name, served by `getImage`; null when none is set. */
  avatar: string | null;
  /** Identity verification state: 0 not uploaded, 1 approved, 2 rejected, 3 unverified (documents awaiting review). */
  status_kyc: 0 | 1 | 2 | 3;
  /** 1 when the personal section is approved by an operator and locked (read-only, `updateProfile` answers 403); 0 while it can still be edited. */
  is_profile_complete: 0 | 1;
  /** The active second factor. */
  auth_type: AuthType;
  /** The authenticator's otpauth:// URL (shown as a QR code), sent only while the authenticator is not set up; null once it is. */
  image_2fa: string | null;
};
export type UpdateProfileResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The whole updated profile. */
  profile: Profile;
};
export type UpdateProfileRequest = {
  /** Full name, letters and spaces ('Name is required'). */
  name: string;
  /** Gender ('Gender is required'). */
  gender: 'male' | 'female' | 'others';
  /** Date of birth, in the past ('Date of Birth is required'). */
  dob: string;
  /** Flat, house number ('Flat,House Number is required'). */
  address_line1: string;
  /** Area ('Area is required'). */
  address_line2: string;
  /** City ('City is required'). */
  city: string;
  /** State ('State is required'). */
  state: string;
  /** Postal code, digits (and +), 6 characters for India, otherwise 4 to 7 ('Pincode is required'). */
  pincode: string;
  /** Landmark; optional (an empty string clears it). */
  landmark?: string;
};
export type ProfileResponse = {
  /** Success flag (true). */
  status: Status;
  /** The profile. */
  profile: Profile;
};
export const {
  useChangePictureMutation,
  useUpdateProfileMutation,
  useGetProfileQuery,
  useLazyGetProfileQuery,
  useGetImageQuery,
  useLazyGetImageQuery,
} = injectedRtkApi;
