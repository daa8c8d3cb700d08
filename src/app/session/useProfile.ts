import { useGetProfileQuery } from '../../api/profile';
import { useAppSelector } from '../hooks';
import { selectProfile } from './sessionSlice';

/**
 * The account's profile as the server has it now (re-read on every visit of a screen that
 * shows it, so an operator's KYC review shows without signing in again); the one stored at
 * sign-in until that answer arrives.
 */
export function useProfile() {
  const stored = useAppSelector(selectProfile);
  const { data } = useGetProfileQuery(undefined, {
    refetchOnMountOrArgChange: true,
    refetchOnFocus: true,
  });
  return data?.profile ?? stored;
}
