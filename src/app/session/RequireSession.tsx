import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAppSelector } from '../hooks';
import { paths } from '../paths';
import { selectIsSignedIn } from './sessionSlice';

/** Every /app route needs a stored auth token; without one: a console error and /login. */
export function RequireSession() {
  const signedIn = useAppSelector(selectIsSignedIn);
  useEffect(() => {
    if (!signedIn) console.error('No auth token stored: redirecting to /login.');
  }, [signedIn]);
  return signedIn ? <Outlet /> : <Navigate to={paths.login} replace />;
}
