import { authApi } from './generated/auth.gen';

export const enhancedAuthApi = authApi.enhanceEndpoints({
  endpoints: {
    // Countries never change while the app runs.
    listCountries: { keepUnusedDataFor: 3600 },
  },
});

export {
  useCheckUsernameQuery,
  useLazyCheckUsernameQuery,
  useListCountriesQuery,
  useLoginMutation,
  useLogoutMutation,
  usePreLoginMutation,
  useRegisterMutation,
} from './generated/auth.gen';
