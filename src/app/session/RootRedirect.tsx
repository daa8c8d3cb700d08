import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../hooks';
import { paths } from '../paths';
import { selectIsSignedIn } from './sessionSlice';

/** `/` goes to the dashboard with a stored token, otherwise to /login. */
export function RootRedirect() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return <Navigate to={signedIn ? paths.dashboard : paths.login} replace />;
}
