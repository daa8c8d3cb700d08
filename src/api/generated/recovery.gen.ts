import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    requestPasswordReset: build.mutation<
      RequestPasswordResetApiResponse,
      RequestPasswordResetApiArg
    >({
      query: (queryArg) => ({
        url: `/forgot-password`,
        method: 'POST',
        body: queryArg.requestPasswordResetRequest,
      }),
    }),
    resetPassword: build.mutation<ResetPasswordApiResponse, ResetPasswordApiArg>({
      query: (queryArg) => ({
        url: `/reset-password`,
        method: 'POST',
        body: queryArg.resetPasswordRequest,
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as recoveryApi };
export type RequestPasswordResetApiResponse =
  /** status 200 Accepted; a code is on its way if an account matches. */ MessageResponse;
export type RequestPasswordResetApiArg = {
  requestPasswordResetRequest: RequestPasswordResetRequest;
};
export type ResetPasswordApiResponse =
  /** status 200 The password is replaced; the user signs in next. */ MessageResponse;
export type ResetPasswordApiArg = {
  resetPasswordRequest: ResetPasswordRequest;
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
export type RequestPasswordResetRequest = {
  /** The username or the e-mail address ('Username or Email is required'). */
  username: string;
};
export type ResetPasswordRequest = {
  /** The username or e-mail address the code was requested for. */
  username: string;
  /** The 8-digit code of the e-mail ('Reset Code is required'); spaces and dashes are ignored. */
  code: string;
  /** The account's 4-digit pin ('4 Digit Pin is required'). */
  mpin: string;
  /** The new password: at least 8 characters with a lowercase and an uppercase letter, a number and a special character, the sign-up checklist ('New password is required'). */
  password: string;
  /** The new password again ('Confirm Password is required'). */
  password_confirmation: string;
};
export const { useRequestPasswordResetMutation, useResetPasswordMutation } = injectedRtkApi;
