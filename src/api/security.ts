import { securityApi } from './generated/security.gen';

export const enhancedSecurityApi = securityApi.enhanceEndpoints({
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
