import { authApi } from './generated/auth.gen';

authApi.enhanceEndpoints({
  endpoints: {
    // Countries never change while the app runs.
    listCountries: { keepUnusedDataFor: 3600 },
  },
});

export {
  useLazyCheckUsernameQuery,
  useListCountriesQuery,
  useLogoutMutation,
  useRegisterMutation,
} from './generated/auth.gen';

/** For the sign-in form, which loads it on its first request (not with /login). */
export { authApi };
