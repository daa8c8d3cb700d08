import { kycApi } from './generated/kyc.gen';

kycApi.enhanceEndpoints({
  endpoints: {
    listDocTypes: { providesTags: ['DocTypes'] },
    // A new upload changes the account's status_kyc (profile) too.
    uploadKyc: { invalidatesTags: ['DocTypes', 'Dashboard', 'Profile'] },
  },
});

export { useListDocTypesQuery, useUploadKycMutation } from './generated/kyc.gen';
