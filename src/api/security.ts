import { securityApi } from './generated/security.gen';

securityApi.enhanceEndpoints({
  addTagTypes: ['Authentication'],
  endpoints: {
    getAuthentication: { providesTags: ['Authentication'] },
    updateAuthentication: { invalidatesTags: ['Authentication'] },
    change2Fa: { invalidatesTags: ['Authentication'] },
    changeMpin: { invalidatesTags: [] },
    changePassword: { invalidatesTags: [] },
    resendOtp: { invalidatesTags: [] },
  },
});

export {
  useChange2FaMutation,
  useChangeMpinMutation,
  useChangePasswordMutation,
  useGetAuthenticationQuery,
  useResendOtpMutation,
  useUpdateAuthenticationMutation,
} from './generated/security.gen';
