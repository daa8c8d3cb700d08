import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    preLogin: build.mutation<PreLoginApiResponse, PreLoginApiArg>({
      query: (queryArg) => ({ url: `/pre-login`, method: 'POST', body: queryArg.preLoginRequest }),
    }),
    login: build.mutation<LoginApiResponse, LoginApiArg>({
      query: (queryArg) => ({ url: `/login`, method: 'POST', body: queryArg.loginRequest }),
    }),
    logout: build.mutation<LogoutApiResponse, LogoutApiArg>({
      query: () => ({ url: `/logout`, method: 'POST' }),
    }),
    register: build.mutation<RegisterApiResponse, RegisterApiArg>({
      query: (queryArg) => ({ url: `/register`, method: 'POST', body: queryArg.registerRequest }),
    }),
    checkUsername: build.query<CheckUsernameApiResponse, CheckUsernameApiArg>({
      query: (queryArg) => ({
        url: `/check/username/${encodeURIComponent(String(queryArg.username))}`,
      }),
    }),
    listCountries: build.query<ListCountriesApiResponse, ListCountriesApiArg>({
      query: () => ({ url: `/countries` }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as authApi };
export type PreLoginApiResponse =
  /** status 200 The password is right; continue with the second factor. */ PreLoginResponse;
export type PreLoginApiArg = {
  preLoginRequest: PreLoginRequest;
};
export type LoginApiResponse = /** status 200 Signed in. */ LoginResponse;
export type LoginApiArg = {
  loginRequest: LoginRequest;
};
export type LogoutApiResponse = /** status 200 The session is revoked. */ MessageResponse;
export type LogoutApiArg = void;
export type RegisterApiResponse =
  /** status 200 The account is created; the user signs in next. */ MessageResponse;
export type RegisterApiArg = {
  registerRequest: RegisterRequest;
};
export type CheckUsernameApiResponse =
  /** status 200 Availability of the username. */ CheckUsernameResponse;
export type CheckUsernameApiArg = {
  /** The username to check (same rules as `RegisterRequest.username`). */
  username: string;
};
export type ListCountriesApiResponse = /** status 200 All countries. */ CountryListResponse;
export type ListCountriesApiArg = void;
export type Status = boolean | (0 | 1) | 'success';
export type AuthType = 'mpin' | 'authenticator' | 'otp';
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
export type PreLoginResponse = {
  /** Success flag (true). */
  status: Status;
  /** The second factor to ask for (decides the code field sent to `login`). */
  auth_type: AuthType;
  /** The step token for `login` (scheme `stepToken`); single-use, valid 5 minutes. */
  token: string;
  codes?: MessageCodes;
  /** A message to show. */
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
export type PreLoginRequest = {
  /** The username or the e-mail address ('Username is required'). */
  username: string;
  /** The password ('Password is required'). */
  password: string;
};
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
export type LoginResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The session token (scheme `bearerAuth`); the client stores it encrypted. */
  token: string;
  /** The account's username. */
  username: string;
  /** The display currency code (always USD). */
  currency: 'USD';
  /** The display currency symbol (always $). */
  currency_type: '$';
  /** The account's profile. */
  profile: Profile;
};
export type LoginRequest = {
  /** The username or e-mail address sent to `preLogin`. */
  username: string;
  /** The password sent to `preLogin`. */
  password: string;
  /** The 4-digit pin, when `auth_type` is mpin ('mpin: 4 Digit Pin is Required'). */
  mpin?: string;
  /** The 6-digit authenticator code, when `auth_type` is authenticator ('authenticator: Two-Factor Authentication Code is Required'). */
  authenticator?: string;
  /** The 4-digit e-mailed code, when `auth_type` is otp ('OTP is Required'). */
  otp?: string;
};
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
};
export type RegisterRequest = {
  /** Full name, letters and spaces ('Name is required'). */
  name: string;
  /** The new username: 3 to 32 letters, digits or underscores (our rule), unique ('Username is required'). */
  username: string;
  /** E-mail address, unique ('Email is required', 'Please Enter Valid email'). */
  email: string;
  /** The sponsor's (referrer's) username; optional, may be an empty string. */
  sponsor_id?: string;
  /** The password ('Password is required'): a lowercase and an uppercase letter, a number, a special character and 8 characters or more. */
  password: string;
  /** The 4-digit pin ('4 digit Pin is required'). */
  spassword: string;
  /** The selected country's id (ISO 3166-1 alpha-2, from `listCountries`) ('Country is required'). */
  country: string;
  /** Phone number, 6 to 16 digits or + ('Phone is required'). */
  phone: string;
  /** 1 when the terms are accepted; 0 is refused ('Please Accept Terms & Condition'). */
  is_checked: 0 | 1;
};
export type CheckUsernameResponse = {
  /** true when the username is available, false when it is taken. */
  status: Status;
  codes?: MessageCodes;
  /** 'Username available.' or the reason it is not. */
  msg: string;
};
export type Country = {
  /** The ISO 3166-1 alpha-2 code, e.g. "IN"; what `register` takes as `country`. */
  id: string;
  /** The country's English name. */
  name: string;
  /** The international calling code with its plus sign, e.g. "+91". */
  calling_code: string;
};
export type CountryListResponse = {
  /** Success flag (true). */
  status: Status;
  /** All countries, sorted by name. */
  data: Country[];
};
export const {
  usePreLoginMutation,
  useLoginMutation,
  useLogoutMutation,
  useRegisterMutation,
  useCheckUsernameQuery,
  useLazyCheckUsernameQuery,
  useListCountriesQuery,
  useLazyListCountriesQuery,
} = injectedRtkApi;
