import { apiBase } from './baseQuery';
import { profileApi } from './generated/profile.gen';

/**
 * Where a public picture (an avatar, a payment method logo) is served: an <img> can load it
 * without the session. KYC scans are not public: fetch those with useGetImageQuery.
 */
export function publicImageUrl(file: string): string {
  return `${apiBase()}/images/${encodeURIComponent(file)}`;
}

/**
 * Object URLs of fetched images, one per file name. An image's URL lives as long as its cache
 * entry: created on first use, revoked when RTK Query drops the entry (no effect bookkeeping in
 * components, so StrictMode's double effects cannot revoke a URL still on screen).
 */
const objectUrls = new Map<string, { blob: Blob; url: string }>();

export function imageObjectUrl(file: string, blob: Blob): string {
  const known = objectUrls.get(file);
  if (known?.blob === blob) return known.url;
  if (known) URL.revokeObjectURL(known.url);
  const url = URL.createObjectURL(blob);
  objectUrls.set(file, { blob, url });
  return url;
}

profileApi.enhanceEndpoints({
  endpoints: {
    // Re-read after every change to the account (KYC reviews land here too).
    getProfile: { providesTags: ['Profile'] },
    changePicture: { invalidatesTags: ['Profile'] },
    updateProfile: { invalidatesTags: ['Profile', 'Dashboard'] },
    getImage: {
      async onCacheEntryAdded({ file }, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        const known = objectUrls.get(file);
        if (known) URL.revokeObjectURL(known.url);
        objectUrls.delete(file);
      },
    },
  },
});

export {
  useChangePictureMutation,
  useGetImageQuery,
  useGetProfileQuery,
  useUpdateProfileMutation,
} from './generated/profile.gen';
