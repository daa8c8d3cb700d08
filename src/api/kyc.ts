import { kycApi } from './generated/kyc.gen';

export const enhancedKycApi = kycApi.enhanceEndpoints({
  addTagTypes: ['DocTypes', 'Dashboard'],
  endpoints: {
    listDocTypes: { providesTags: ['DocTypes'] },
    uploadKyc: { invalidatesTags: ['DocTypes', 'Dashboard'] },
  },
});

export { useListDocTypesQuery, useUploadKycMutation } from './generated/kyc.gen';
