import { securityApi } from './generated/security.gen';

securityApi.enhanceEndpoints({
  endpoints: {
    getAuthentication: { providesTags: ['Authentication'] },
    // Each change is an event of the bell.
    updateAuthentication: { invalidatesTags: ['Authentication', 'Notifications'] },
    change2Fa: { invalidatesTags: ['Authentication', 'Notifications'] },
    changeMpin: { invalidatesTags: ['Notifications'] },
    changePassword: { invalidatesTags: ['Notifications'] },
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
