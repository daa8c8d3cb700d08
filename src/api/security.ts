import { securityApi } from './generated/security.gen';

securityApi.enhanceEndpoints({
  endpoints: {
    getAuthentication: { providesTags: ['Authentication'] },
    updateAuthentication: { invalidatesTags: ['Authentication'] },
    change2Fa: { invalidatesTags: ['Authentication'] },
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
