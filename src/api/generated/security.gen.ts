import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    changeMpin: build.mutation<ChangeMpinApiResponse, ChangeMpinApiArg>({
      query: (queryArg) => ({
        url: `/change-mpin`,
        method: 'POST',
        body: queryArg.changeMpinRequest,
      }),
    }),
    change2Fa: build.mutation<Change2FaApiResponse, Change2FaApiArg>({
      query: (queryArg) => ({
        url: `/change-2fa`,
        method: 'POST',
        body: queryArg.change2FaRequest,
      }),
    }),
    getAuthentication: build.query<GetAuthenticationApiResponse, GetAuthenticationApiArg>({
      query: () => ({ url: `/authentication` }),
    }),
    updateAuthentication: build.mutation<
      UpdateAuthenticationApiResponse,
      UpdateAuthenticationApiArg
    >({
      query: (queryArg) => ({
        url: `/authentication`,
        method: 'POST',
        body: queryArg.updateAuthenticationRequest,
      }),
    }),
    resendOtp: build.mutation<ResendOtpApiResponse, ResendOtpApiArg>({
      query: () => ({ url: `/resendotp`, method: 'POST' }),
    }),
    changePassword: build.mutation<ChangePasswordApiResponse, ChangePasswordApiArg>({
      query: (queryArg) => ({
        url: `/change-password`,
        method: 'POST',
        body: queryArg.changePasswordRequest,
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as securityApi };
export type ChangeMpinApiResponse = /** status 200 The pin is changed. */ MessageResponse;
export type ChangeMpinApiArg = {
  changeMpinRequest: ChangeMpinRequest;
};
export type Change2FaApiResponse = /** status 200 The authenticator is set up. */ Change2FaResponse;
export type Change2FaApiArg = {
  change2FaRequest: Change2FaRequest;
};
export type GetAuthenticationApiResponse =
  /** status 200 The security method settings. */ AuthenticationResponse;
export type GetAuthenticationApiArg = void;
export type UpdateAuthenticationApiResponse =
  /** status 200 The active method is switched. */ UpdateAuthenticationResponse;
export type UpdateAuthenticationApiArg = {
  updateAuthenticationRequest: UpdateAuthenticationRequest;
};
export type ResendOtpApiResponse = /** status 200 The code is sent. */ MessageResponse;
export type ResendOtpApiArg = void;
export type ChangePasswordApiResponse = /** status 200 The password is changed. */ MessageResponse;
export type ChangePasswordApiArg = {
  changePasswordRequest: ChangePasswordRequest;
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
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
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
export type ChangeMpinRequest = {
  /** The current account password ('Current Password is required'). */
  password: string;
  /** The new 4-digit pin ('New 4 Digit Pin is required'). */
  spassword: string;
  /** The new pin again ('Confirm Pin is required'). */
  spassword_confirmation: string;
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
export type Change2FaResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The refreshed profile (`image_2fa` now null); the reference server sends it. */
  profile?: Profile;
};
export type Change2FaRequest = {
  /** The current 6-digit authenticator code ('Two Factor code is required'). */
  code: string;
};
export type AuthenticationDetails = {
  /** 1 when the authenticator app is set up, 0 when not. */
  authenticator: 0 | 1;
};
export type AuthenticationResponse = {
  /** Success flag (true). */
  status: Status;
  /** Set-up state of the methods. */
  more_details: AuthenticationDetails;
  /** The active second factor. */
  auth_type: AuthType;
  /** The authenticator's otpauth:// URL (shown as a QR code) while it is not set up; null once it is. */
  image_2fa: string | null;
};
export type UpdateAuthenticationResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The new active second factor. */
  auth_type: AuthType;
  /** The refreshed profile (its `auth_type` is the new one); the reference server sends it so the client's stored profile follows. */
  profile?: Profile;
};
export type UpdateAuthenticationRequest = {
  /** The method to make active. */
  type: 'mpin' | 'authenticator';
  /** The 4-digit pin, when the active method is mpin. */
  spassword?: string;
  /** The e-mailed 4-digit code, when the active method is otp. */
  otp?: string;
  /** The 6-digit authenticator code, when the active method is authenticator. */
  code?: string;
};
export type ChangePasswordRequest = {
  /** The current password ('Current Password is required'). */
  currentpassword: string;
  /** The new password: at least 8 characters with a lowercase and an uppercase letter, a number and a special character, the sign-up checklist ('New password is required'). */
  newpassword: string;
  /** The new password again ('Confirm Password is required'). */
  newpassword_confirmation: string;
  /** The 4-digit pin ('4 Digit Pin is required'). */
  mpin: string;
};
export const {
  useChangeMpinMutation,
  useChange2FaMutation,
  useGetAuthenticationQuery,
  useLazyGetAuthenticationQuery,
  useUpdateAuthenticationMutation,
  useResendOtpMutation,
  useChangePasswordMutation,
} = injectedRtkApi;
