import { Navigate, Outlet } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { selectIsSignedIn } from './sessionSlice';

/** The public screens send a signed-in visitor straight to the dashboard. */
export function PublicOnly() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}
