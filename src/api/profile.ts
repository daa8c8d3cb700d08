import { profileApi } from './generated/profile.gen';

export const enhancedProfileApi = profileApi.enhanceEndpoints({
  addTagTypes: ['Dashboard'],
  endpoints: {
    changePicture: { invalidatesTags: [] },
    updateProfile: { invalidatesTags: ['Dashboard'] },
    getImage: { providesTags: [] },
  },
});

export {
  useChangePictureMutation,
  useGetImageQuery,
  useUpdateProfileMutation,
} from './generated/profile.gen';
