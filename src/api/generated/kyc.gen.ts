import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    listDocTypes: build.query<ListDocTypesApiResponse, ListDocTypesApiArg>({
      query: () => ({ url: `/doc-type` }),
    }),
    uploadKyc: build.mutation<UploadKycApiResponse, UploadKycApiArg>({
      query: (queryArg) => ({
        url: `/upload-kyc`,
        method: 'POST',
        body: queryArg.uploadKycRequest,
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as kycApi };
export type ListDocTypesApiResponse =
  /** status 200 Document types and the account's uploads. */ DocumentTypeListResponse;
export type ListDocTypesApiArg = void;
export type UploadKycApiResponse =
  /** status 200 The document is stored as Pending. */ MessageResponse;
export type UploadKycApiArg = {
  uploadKycRequest: UploadKycRequest;
};
export type Status = boolean | (0 | 1) | 'success';
export type Upload = {
  /** The upload's id. */
  id: string;
  /** Which document it is (one of its type's `data` names). */
  document_name: string;
  /** The document's number; null for the photo document. */
  document_number: string | null;
  /** File name of the front image (served by `getImage` to its owner); null when none. */
  front: string | null;
  /** File name of the back image (served by `getImage` to its owner); null when none. */
  back: string | null;
  /** 0 Pending (awaiting review), 1 Approved, 2 Rejected. */
  status: 0 | 1 | 2;
  /** The reviewer's remarks (e.g. why it was rejected); null when none. */
  remarks: string | null;
  /** When it was uploaded. */
  created_at: string;
};
export type DocumentUploads = {
  /** Uploads, newest first; the first one decides whether a new upload is accepted. */
  data: Upload[];
};
export type DocumentType = {
  /** The document type's id. */
  id: string;
  /** The type's name, e.g. "Identity Proof"; `uploadKyc` takes it in lower case. */
  document_type: string;
  /** The document names allowed for this type (the document dropdown). */
  data: string[];
  /** 1 when a front image is required, 0 when it is optional. */
  front_required: 0 | 1;
  /** 1 when a back image is required, 0 when it is optional. */
  back_required: 0 | 1;
  /** This account's uploads of this type. */
  uploads: DocumentUploads;
};
export type DocumentTypeListResponse = {
  /** Success flag (true). */
  status: Status;
  /** The document types, in display order. */
  data: DocumentType[];
};
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
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
};
export type UploadKycRequest = {
  /** The document type's `document_type`, in lower case (e.g. "identity proof"). */
  document_type: string;
  /** The document's number; required except for the photo document ('Document Number is required'); for the Aadhar card at most 12 digits. */
  document_number?: string;
  /** One of the type's `data` names ('Document Name is required'). */
  document_name: string;
  /** Front image, required when `front_required` is 1 ('Front Side Image is required', or 'Photo is required' for the photo). JPEG or PNG by content, at most 2 MB. */
  front?: Blob;
  /** Back image, required when `back_required` is 1 ('Back Side Image is required'). JPEG or PNG by content, at most 2 MB. */
  back?: Blob;
};
export const { useListDocTypesQuery, useLazyListDocTypesQuery, useUploadKycMutation } =
  injectedRtkApi;
