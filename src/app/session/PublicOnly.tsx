import { Navigate, Outlet } from 'react-router-dom';
import { useAppSelector } from '../hooks';
import { paths } from '../paths';
import { selectIsSignedIn } from './sessionSlice';

/** The public screens send a signed-in visitor straight to the dashboard. */
export function PublicOnly() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}
